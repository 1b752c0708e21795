/**
 * The Inbox page: the filter in use, the entries as the merchant sees them (when, a reply link),
 * the open count, and its "handled" and "reopen" buttons.
 */
import type { InboxItem } from "@prisma/client";
import { adminFormat } from "../format";
import { singleLine } from "../service-events/notification-mail";
import {
  listInbox,
  setInboxHandled,
  unreadInboxCount,
  type InboxListFilter,
} from "../models/inbox.server";
import { HANDOFF_STATES, type HandoffState } from "../service-events/inbox-fold";

const INBOX_FILTERS = [
  "open",
  "all",
  "handled",
  ...HANDOFF_STATES.slice(1),
] as const satisfies readonly InboxListFilter[];
type InboxFilter = (typeof INBOX_FILTERS)[number];

function inboxFilterOf(value: string | null): InboxFilter {
  return (INBOX_FILTERS as readonly string[]).includes(value ?? "")
    ? (value as InboxFilter)
    : "open";
}

/** A reply by email: the shopper's address and a subject naming the conversation. */
function replyUrlOf(entry: Pick<InboxItem, "email" | "message">): string | null {
  if (!entry.email) return null;
  // One line, cut between words ("…" where cut), as the notification's subject is.
  const subject = entry.message ? `Re: ${singleLine(entry.message, 80)}` : "Your question";
  return `mailto:${encodeURIComponent(entry.email).replace("%40", "@")}?subject=${encodeURIComponent(subject)}`;
}

/** The Inbox page's data: the filter in use, the entries as shown, and the open count. */
export async function inboxPage(shopDomain: string, state: string | null, locale?: string) {
  const f = adminFormat(locale);
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
      when: f.moment(item.lastAt),
      storefront: item.storefront,
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
