/**
 * What the app holds about one shopper (the Inbox entries the service's events made, and those
 * threads' events), found by email or phone: reported for customers/data_request, deleted for
 * customers/redact. Only the named shop's rows are ever read or deleted.
 */
import prisma from "../db.server";

interface CustomerKeys {
  email?: string | null;
  phone?: string | null;
}

/** Digits only, so "555-625-1199" and "(555) 625 1199" match; too short to mean anything is none. */
function phoneDigits(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 6 ? digits : null;
}

async function matchingThreads(shopDomain: string, keys: CustomerKeys): Promise<string[]> {
  const email = keys.email?.trim().toLowerCase() || null;
  const phone = phoneDigits(keys.phone);
  if (!email && !phone) return [];
  const candidates = await prisma.inboxItem.findMany({
    where: { shopDomain, OR: [{ email: { not: null } }, { phone: { not: null } }] },
    select: { threadId: true, email: true, phone: true },
  });
  return candidates
    .filter(
      (item) =>
        (email !== null && item.email?.toLowerCase() === email) ||
        (phone !== null && phoneDigits(item.phone) === phone),
    )
    .map((item) => item.threadId);
}

interface CustomerDataReport {
  inboxEntries: Array<{
    threadId: string;
    name: string | null;
    email: string | null;
    phone: string | null;
    message: string | null;
    firstAt: string;
    lastAt: string;
  }>;
  /** The service's events of those conversations (chat messages included), by type. */
  events: Record<string, number>;
}

export async function customerDataReport(
  shopDomain: string,
  keys: CustomerKeys,
): Promise<CustomerDataReport> {
  const threads = await matchingThreads(shopDomain, keys);
  const [entries, events] = await Promise.all([
    prisma.inboxItem.findMany({ where: { shopDomain, threadId: { in: threads } } }),
    prisma.serviceEvent.groupBy({
      by: ["eventType"],
      where: { shopDomain, threadId: { in: threads } },
      _count: { _all: true },
    }),
  ]);
  return {
    inboxEntries: entries.map((entry) => ({
      threadId: entry.threadId,
      name: entry.name,
      email: entry.email,
      phone: entry.phone,
      message: entry.message,
      firstAt: entry.firstAt.toISOString(),
      lastAt: entry.lastAt.toISOString(),
    })),
    events: Object.fromEntries(events.map((row) => [row.eventType, row._count._all])),
  };
}

/** Deletes the shopper's Inbox entries and every event of those conversations. */
export async function redactCustomer(
  shopDomain: string,
  keys: CustomerKeys,
): Promise<{ inboxEntries: number; events: number }> {
  const threads = await matchingThreads(shopDomain, keys);
  if (threads.length === 0) return { inboxEntries: 0, events: 0 };
  const [events, entries] = await prisma.$transaction([
    prisma.serviceEvent.deleteMany({ where: { shopDomain, threadId: { in: threads } } }),
    prisma.inboxItem.deleteMany({ where: { shopDomain, threadId: { in: threads } } }),
  ]);
  return { inboxEntries: entries.count, events: events.count };
}
