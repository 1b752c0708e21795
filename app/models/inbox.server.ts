/**
 * The Inbox (`InboxItem`): contact requests and handoffs per shop, newest first, each entry folded
 * from its thread's events (app/service-events/fill-inbox.server.ts). Every read names the shop,
 * so one shop never sees another's entries. An entry is unread until the merchant marks it handled.
 */
import type { HandoffState, InboxEntry } from "../service-events/inbox-fold";
import prisma, { retryWhileBusy } from "./db.server";

/** Which entries a page lists: open or handled ones, all, or those in one handoff state. */
export type InboxListFilter = "open" | "all" | "handled" | HandoffState;

const PAGE_SIZE = 100;

export async function listInbox(shopDomain: string, filter: InboxListFilter = "all") {
  const where =
    filter === "all"
      ? { shopDomain }
      : filter === "open"
        ? { shopDomain, handledAt: null }
        : filter === "handled"
          ? { shopDomain, handledAt: { not: null } }
          : { shopDomain, handoffState: filter };
  return prisma.inboxItem.findMany({
    where,
    orderBy: [{ lastAt: "desc" }, { threadId: "asc" }],
    take: PAGE_SIZE,
  });
}

/** One thread's Inbox entry, or null when it is gone (pruned, redacted, uninstalled). */
export function inboxEntryOf(shopDomain: string, threadId: string) {
  return prisma.inboxItem.findUnique({ where: { shopDomain_threadId: { shopDomain, threadId } } });
}

/** The shop's entries of these threads. */
export function inboxEntriesOf(shopDomain: string, threadIds: readonly string[]) {
  return prisma.inboxItem.findMany({ where: { shopDomain, threadId: { in: [...threadIds] } } });
}

/** The shop's entries with an email or a phone: who a privacy request may be about. */
export function inboxEntriesWithContact(shopDomain: string) {
  return prisma.inboxItem.findMany({
    where: { shopDomain, OR: [{ email: { not: null } }, { phone: { not: null } }] },
    select: { threadId: true, email: true, phone: true },
  });
}

export function unreadInboxCount(shopDomain: string): Promise<number> {
  return prisma.inboxItem.count({ where: { shopDomain, handledAt: null } });
}

/** Marks one of the shop's entries handled (or open again); false when the shop has no such entry. */
export async function setInboxHandled(
  shopDomain: string,
  threadId: string,
  handled: boolean,
): Promise<boolean> {
  // Raw SQL, not `updateMany` (a transaction of its own: docs/database.md, "Memory").
  const count = await prisma.$executeRaw`
    UPDATE "InboxItem" SET "handledAt" = ${handled ? new Date() : null}
    WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId}`;
  return count > 0;
}

/**
 * Writes a thread's entry as folded from `eventCount` events; true for the one call that created
 * it. Raw statements without a transaction (docs/decisions/0001): two deliveries folding the same
 * thread at once are ordered by eventCount, so a fold of fewer events never overwrites one of
 * more, and the merchant's handledAt is never touched.
 */
export async function writeFoldedInboxEntry(
  shopDomain: string,
  threadId: string,
  entry: InboxEntry & { storefront: string | null },
  eventCount: number,
): Promise<boolean> {
  return retryWhileBusy(async () => {
    const created = await prisma.$executeRaw`
      INSERT INTO "InboxItem" ("shopDomain", "threadId", "name", "email", "phone", "message",
        "handoffState", "contactSubmitted", "firstAt", "lastAt", "eventCount", "storefront")
      VALUES (${shopDomain}, ${threadId}, ${entry.name}, ${entry.email}, ${entry.phone},
        ${entry.message}, ${entry.handoffState}, ${entry.contactSubmitted}, ${entry.firstAt},
        ${entry.lastAt}, ${eventCount}, ${entry.storefront})
      ON CONFLICT ("shopDomain", "threadId") DO NOTHING`;
    if (created > 0) return true;
    await prisma.$executeRaw`
      UPDATE "InboxItem" SET "name" = ${entry.name}, "email" = ${entry.email},
        "phone" = ${entry.phone}, "message" = ${entry.message},
        "handoffState" = ${entry.handoffState}, "contactSubmitted" = ${entry.contactSubmitted},
        "firstAt" = ${entry.firstAt}, "lastAt" = ${entry.lastAt}, "eventCount" = ${eventCount},
        "storefront" = ${entry.storefront}
      WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId}
        AND "eventCount" <= ${eventCount}`;
    return false;
  });
}
