/**
 * What the app holds about one shopper (the Inbox entries the service's events made, those
 * threads' events, and events held until they can be attributed), found by email or phone:
 * reported for customers/data_request, deleted for customers/redact. The named shop's rows, and
 * the copies of the same events under other shops (app/models/event-copies.server.ts). A
 * redaction keeps keyed hashes of the shopper's email, phone and threads so that their older
 * events, replayed, are refused (./redaction-hashes.server.ts).
 */
import { deleteEventCopies, findEventCopies } from "../models/event-copies.server";
import {
  countHeldEvents,
  deleteHeldThreads,
  heldThreadsWhere,
} from "../models/held-service-events.server";
import { inboxEntriesOf, inboxEntriesWithContact } from "../models/inbox.server";
import { recordRedactedShopper } from "./redaction-hashes.server";
import { deleteThreads, threadEventCounts } from "../models/service-events.server";
import { emailKey, marksOfCustomer, phoneDigits } from "./shopper-marks";

interface CustomerKeys {
  email?: string | null;
  phone?: string | null;
}

async function matchingThreads(shopDomain: string, keys: CustomerKeys): Promise<string[]> {
  const email = emailKey(keys.email);
  const phone = phoneDigits(keys.phone);
  if (!email && !phone) return [];
  const isTheirs = (e: unknown, p: unknown) =>
    (email !== null && emailKey(e) === email) || (phone !== null && phoneDigits(p) === phone);
  const [candidates, held] = await Promise.all([
    inboxEntriesWithContact(shopDomain),
    heldThreadsWhere(shopDomain, (data) => {
      const customer = (data.customer ?? {}) as Record<string, unknown>;
      return isTheirs(data.email, data.phone) || isTheirs(customer.email, customer.phone);
    }),
  ]);
  const inInbox = candidates
    .filter((item) => isTheirs(item.email, item.phone))
    .map((item) => item.threadId);
  return [...new Set([...inInbox, ...held])];
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
  /** Events of those conversations held until they can be attributed to the shop. */
  heldEvents: number;
  /** Copies of those events under other shops of the app (they are deleted with the rest). */
  copies: { inboxEntries: number; events: number; heldEvents: number };
}

export async function customerDataReport(
  shopDomain: string,
  keys: CustomerKeys,
): Promise<CustomerDataReport> {
  const threads = await matchingThreads(shopDomain, keys);
  const [entries, events, heldEvents, copies] = await Promise.all([
    inboxEntriesOf(shopDomain, threads),
    threadEventCounts(shopDomain, threads),
    countHeldEvents(shopDomain, threads),
    findEventCopies(shopDomain, threads),
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
    events,
    heldEvents,
    copies: {
      inboxEntries: copies.inboxEntries,
      events: Object.values(copies.events).reduce((sum, count) => sum + count, 0),
      heldEvents: copies.held,
    },
  };
}

/**
 * Deletes the shopper's Inbox entries, every event of those conversations, held or stored, and
 * their copies under other shops. What recognises the shopper's older events is recorded first,
 * so that a delivery of one of them during the deletion cannot bring them back.
 */
export async function redactCustomer(
  shopDomain: string,
  keys: CustomerKeys,
  redactedAt: Date = new Date(),
): Promise<{ inboxEntries: number; events: number; copies: number }> {
  const threads = await matchingThreads(shopDomain, keys);
  const copyThreads = (await findEventCopies(shopDomain, threads)).threads;
  await recordRedactedShopper(shopDomain, marksOfCustomer(keys, threads), redactedAt);
  for (const copy of copyThreads) {
    await recordRedactedShopper(
      copy.shopDomain,
      marksOfCustomer(keys, [copy.threadId]),
      redactedAt,
    );
  }
  if (threads.length === 0) return { inboxEntries: 0, events: 0, copies: 0 };
  // Copies first: they are found through this shop's events.
  const copies = await deleteEventCopies(shopDomain, threads);
  const { events, inboxEntries } = await deleteThreads(shopDomain, threads);
  await deleteHeldThreads(shopDomain, threads);
  return {
    inboxEntries,
    events,
    copies: copies.inboxEntries + copies.events + copies.held,
  };
}
