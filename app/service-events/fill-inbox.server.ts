/**
 * Filling the Inbox from the service's events (spec §6), top to bottom: an event arrives (its
 * signature verified and its body parsed by ./receive.server.ts), is attributed to the shop
 * (./attribution.ts; held until its thread is known when it names no workspace) unless it is a
 * redacted shopper's, is stored once (by its id), is folded with the rest of its thread into the
 * thread's Inbox item (./inbox-fold.ts), and owes the merchant's email (./notify.server.ts).
 * Nothing is asked of the service or Shopify here, so the answer comes in milliseconds. The
 * database work is in app/models, raw SQL without transactions: Prisma's model queries keep memory
 * per call (docs/decisions/0001), and every chat message is an event.
 */
import {
  copyHeldEvents,
  type CopiedHeldEvent,
  forgetHeldEvents,
  holdServiceEvent,
  shopHasThread,
} from "../models/held-service-events.server";
import { writeFoldedInboxEntry } from "../models/inbox.server";
import { redactedSince } from "./redaction-hashes.server";
import {
  storeServiceEvent,
  threadEventsOf,
  threadStorefrontOf,
} from "../models/service-events.server";
import { claimOf } from "../models/workspace-claims.server";
import { attributionOf, namedWorkspaceOf } from "./attribution";
import type { ServiceEventBody } from "./event-body";
import { foldThread, INBOX_EVENT_TYPES } from "./inbox-fold";
import { oweInboxNotification } from "./notify.server";
import { marksOfEvent } from "./shopper-marks";
import { TEST_MARKER_FIELD } from "./test-event.server";

/**
 * The clock difference allowed between the service and the app: an event dated further ahead
 * than this is refused (a replay window has to be bounded on both sides), and one dated up to
 * this long after a redaction is still taken as older than it.
 */
export const ALLOWED_CLOCK_SKEW_MS = 5 * 60_000;

/** A verified event of the shop's receiving address, within the replay window. */
interface ArrivedEvent {
  shopDomain: string;
  /** The workspace the shop writes to (null before its keys are saved). */
  shopWorkspace: string | null;
  event: ServiceEventBody;
  receivedAt: Date;
}

export interface FillOutcome {
  reason:
    | "stored"
    | "duplicate"
    /** Names another workspace (or nothing the shop can ever claim): not this shop's. */
    | "not-this-shop"
    /** Waits until its thread shows up in this shop's workspace (app/models/held-service-events). */
    | "held"
    /** Of a shopper redacted after it was made: refused, so their data never comes back. */
    | "redacted";
  /** The event opened a new Inbox entry. */
  newInboxEntry: boolean;
}

export async function fillInbox({
  shopDomain,
  shopWorkspace,
  event,
  receivedAt,
}: ArrivedEvent): Promise<FillOutcome> {
  // Attributed to the shop, and not of a shopper redacted since.
  const test = typeof event.data[TEST_MARKER_FIELD] === "string";
  const named = namedWorkspaceOf(event);
  const claim = named === null ? null : await claimOf(named);
  const attribution = attributionOf(
    event,
    { shopDomain, workspace: shopWorkspace },
    claim?.shopDomain ?? null,
    test,
  );
  if (attribution === "another-workspace" || (attribution === "by-thread" && !event.threadId)) {
    return { reason: "not-this-shop", newInboxEntry: false };
  }
  if (
    !test &&
    (await redactedSince(shopDomain, marksOfEvent(event), event.createdAt, ALLOWED_CLOCK_SKEW_MS))
  ) {
    return { reason: "redacted", newInboxEntry: false };
  }

  // Stored: held first when its thread is not yet the shop's.
  const occurredAt =
    event.createdAt.getTime() > receivedAt.getTime() ? receivedAt : event.createdAt;
  const record = {
    shopDomain,
    eventId: event.id,
    eventType: event.eventType,
    occurredAt,
    receivedAt,
    data: JSON.stringify(event.data),
  };
  // Which storefront it came from, as the Inbox and Insights say.
  const storefront = test || claim?.shopDomain !== shopDomain ? null : claim.host;
  const threadId = event.threadId;
  if (attribution === "by-thread" && threadId !== null) {
    if (!(await shopHasThread(shopDomain, threadId))) {
      await holdServiceEvent({ ...record, threadId });
      // The thread may have shown up meanwhile, its delivery finding nothing held yet: look again.
      if (!(await shopHasThread(shopDomain, threadId))) {
        return { reason: "held", newInboxEntry: false };
      }
      const { released, newInboxEntry } = await settleThread(
        shopDomain,
        threadId,
        receivedAt,
        null,
      );
      const own = released.find((copied) => copied.eventId === event.id);
      return { reason: own?.stored ? "stored" : "duplicate", newInboxEntry };
    }
  }
  const stored = await storeServiceEvent({ ...record, threadId, test, storefront });
  const reason = stored ? ("stored" as const) : ("duplicate" as const);
  if (test || threadId === null) return { reason, newInboxEntry: false };

  // Folded into the Inbox item, and the mail owed. The thread is now the shop's: what was held
  // for it is the shop's too. A duplicate settles too: a crash between storing an event and
  // folding it is mended by the service's retry.
  const settled = await settleThread(shopDomain, threadId, receivedAt, {
    eventId: event.id,
    eventType: event.eventType,
  });
  return { reason, newInboxEntry: settled.newInboxEntry };
}

const foldsIntoInbox = (eventType: string) =>
  (INBOX_EVENT_TYPES as readonly string[]).includes(eventType);

/**
 * After a delivery of the shop's thread (`own`, or none when the delivery was itself released
 * from holding): copies what was held for the thread into the shop's events, folds the Inbox
 * entry again when an Inbox event is among them, owes the merchant's emails for them (before the
 * 200, on duplicates too: a retry after a crash owes what the first could not), and only then
 * forgets the held copies.
 */
async function settleThread(
  shopDomain: string,
  threadId: string,
  receivedAt: Date,
  own: { eventId: string; eventType: string } | null,
): Promise<{ released: CopiedHeldEvent[]; newInboxEntry: boolean }> {
  const released = await copyHeldEvents(shopDomain, threadId);
  const owing = [...(own ? [own] : []), ...released].filter((e) => foldsIntoInbox(e.eventType));
  const newInboxEntry = owing.length > 0 ? await foldIntoInboxItem(shopDomain, threadId) : false;
  for (const [index, owed] of owing.entries()) {
    await oweInboxNotification({
      shopDomain,
      threadId,
      eventId: owed.eventId,
      eventType: owed.eventType,
      receivedAt,
      // The entry was opened by this delivery's first Inbox event.
      newInboxEntry: newInboxEntry && index === 0,
    });
  }
  await forgetHeldEvents(
    shopDomain,
    released.map((copied) => copied.eventId),
  );
  return { released, newInboxEntry };
}

/**
 * Rebuilds a thread's Inbox item from its stored events; true for the one delivery that created
 * the item (two folding at once are ordered by their event counts: app/models/inbox.server.ts).
 */
async function foldIntoInboxItem(shopDomain: string, threadId: string): Promise<boolean> {
  const events = await threadEventsOf(shopDomain, threadId, INBOX_EVENT_TYPES);
  const entry = foldThread(
    events.map((event) => ({
      ...event,
      data: JSON.parse(event.data) as Record<string, unknown>,
    })),
  );
  if (!entry) return false;
  const storefront = await threadStorefrontOf(shopDomain, threadId);
  return writeFoldedInboxEntry(shopDomain, threadId, { ...entry, storefront }, events.length);
}
