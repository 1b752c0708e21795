/**
 * The Inbox: contact requests and handoffs per shop, newest first. Every read names the shop, so
 * one shop never sees another's entries. An entry is unread until the merchant marks it handled.
 */
import type { InboxItem } from "@prisma/client";
import prisma from "../db.server";
import { HANDOFF_STATES, type HandoffState } from "../service-events/inbox-fold";

export const INBOX_FILTERS = ["open", "all", "handled", ...HANDOFF_STATES.slice(1)] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

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

export function unreadInboxCount(shopDomain: string): Promise<number> {
  return prisma.inboxItem.count({ where: { shopDomain, handledAt: null } });
}

/** Marks one of the shop's entries handled (or open again); false when the shop has no such entry. */
export async function setInboxHandled(
  shopDomain: string,
  threadId: string,
  handled: boolean,
): Promise<boolean> {
  const { count } = await prisma.inboxItem.updateMany({
    where: { shopDomain, threadId },
    data: { handledAt: handled ? new Date() : null },
  });
  return count > 0;
}

export type { InboxItem };
