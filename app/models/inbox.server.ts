/**
 * The Inbox: contact requests and handoffs per shop, newest first. Every read names the shop, so
 * one shop never sees another's entries. An entry is unread until the merchant marks it handled.
 */
import type { InboxItem } from "@prisma/client";
import prisma from "../db.server";
import { formatMoment } from "../format";
import { HANDOFF_STATES, type HandoffState } from "../service-events/inbox-fold";

const INBOX_FILTERS = ["open", "all", "handled", ...HANDOFF_STATES.slice(1)] as const;
type InboxFilter = (typeof INBOX_FILTERS)[number];

export function inboxFilterOf(value: string | null): InboxFilter {
  return (INBOX_FILTERS as readonly string[]).includes(value ?? "")
    ? (value as InboxFilter)
    : "open";
}

const PAGE_SIZE = 100;

export async function listInbox(shopDomain: string, filter: InboxFilter = "all") {
  const where =
    filter === "all"
      ? { shopDomain }
      : filter === "open"
        ? { shopDomain, handledAt: null }
        : filter === "handled"
          ? { shopDomain, handledAt: { not: null } }
          : { shopDomain, handoffState: filter satisfies HandoffState };
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

export function unreadInboxCount(shopDomain: string): Promise<number> {
  return prisma.inboxItem.count({ where: { shopDomain, handledAt: null } });
}

/** Marks one of the shop's entries handled (or open again); false when the shop has no such entry. */
async function setInboxHandled(
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

/** A reply by email: the shopper's address and a subject naming the conversation. */
function replyUrlOf(entry: Pick<InboxItem, "email" | "message">): string | null {
  if (!entry.email) return null;
  const subject = entry.message ? `Re: ${entry.message.slice(0, 80)}` : "Your question";
  return `mailto:${encodeURIComponent(entry.email).replace("%40", "@")}?subject=${encodeURIComponent(subject)}`;
}

/** The Inbox page's data: the filter in use, the entries as shown, and the open count. */
export async function inboxPage(shopDomain: string, state: string | null) {
  const filter = inboxFilterOf(state);
  const [items, unread] = await Promise.all([
    listInbox(shopDomain, filter),
    unreadInboxCount(shopDomain),
  ]);
  return {
    filter,
    unread,
    entries: items.map((item) => ({
      threadId: item.threadId,
      name: item.name,
      email: item.email,
      phone: item.phone,
      message: item.message,
      handoffState: item.handoffState as HandoffState,
      handled: item.handledAt !== null,
      when: formatMoment(item.lastAt),
      replyUrl: replyUrlOf(item),
    })),
  };
}

/** The Inbox's buttons: "handled" or "reopen" for one of the shop's entries. */
export async function updateInboxEntry(
  shopDomain: string,
  threadId: string,
  intent: FormDataEntryValue | null,
): Promise<{ ok: boolean }> {
  if (intent !== "handled" && intent !== "reopen") return { ok: false };
  return { ok: await setInboxHandled(shopDomain, threadId, intent === "handled") };
}
