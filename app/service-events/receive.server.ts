/**
 * Takes one service event delivery (spec §6): the shop named by the URL's opaque id, the signature
 * checked against that shop's secret before the body is even parsed, the event kept only when it
 * is this shop's (./attribution.ts; held until its thread is known when it names no workspace)
 * and not of a shopper redacted since, then stored once (by its id) and the thread's Inbox entry
 * folded again from all its events. Nothing is asked of the service or Shopify here, so the answer
 * comes in milliseconds. Raw SQL only: Prisma's model queries keep memory per call
 * (docs/decisions/0001), and every chat message is an event.
 */
import { Prisma } from "@prisma/client";
import { config } from "../config.server";
import prisma, { retryWhileBusy } from "../db.server";
import { verifyWebhookSignature } from "../index-service/webhook-signature";
import { openSecret, SecretUnreadableError } from "../models/secret-box.server";
import { MalformedEventError, parseServiceEventBody, type ServiceEventBody } from "./event-body";
import {
  copyHeldEvents,
  type CopiedHeldEvent,
  forgetHeldEvents,
  holdServiceEvent,
  shopHasThread,
} from "../models/held-service-events.server";
import { redactedSince } from "../models/redacted-shoppers.server";
import { attributionOf } from "./attribution";
import { foldThread, INBOX_EVENT_TYPES } from "./inbox-fold";
import { oweInboxNotification } from "./notify.server";
import { marksOfEvent } from "./shopper-marks";
import { TEST_MARKER_FIELD } from "./test-event.server";

/** The opaque id in the receiving URL: base64url, as made by newPublicId(). */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The clock difference allowed between the service and the app: an event dated further ahead
 * than this is refused (a replay window has to be bounded on both sides), and one dated up to
 * this long after a redaction is still taken as older than it.
 */
const ALLOWED_CLOCK_SKEW_MS = 5 * 60_000;

interface ServiceEventDelivery {
  publicId: string;
  rawBody: string;
  signature: string | null;
  receivedAt?: Date;
}

type ReceiveOutcome =
  | { status: 401; reason: "unknown-shop" | "bad-signature" }
  | { status: 400; reason: "malformed" | "future"; message: string }
  | {
      status: 200;
      reason:
        | "stored"
        | "duplicate"
        | "expired"
        /** Names another workspace (or nothing the shop can ever claim): not this shop's. */
        | "not-this-shop"
        /** Waits until its thread shows up in this shop's workspace (app/models/held-service-events). */
        | "held"
        /** Of a shopper redacted after it was made: refused, so their data never comes back. */
        | "redacted";
      shopDomain: string;
      eventId: string;
      /** The delivery opened a new Inbox entry. */
      newInboxEntry: boolean;
      threadId: string | null;
    };

export async function receiveServiceEvent(delivery: ServiceEventDelivery): Promise<ReceiveOutcome> {
  const receivedAt = delivery.receivedAt ?? new Date();
  const env = config();
  if (!PUBLIC_ID_PATTERN.test(delivery.publicId)) return { status: 401, reason: "unknown-shop" };
  const [hook] = await prisma.$queryRaw<
    { shopDomain: string; secretCiphertext: string; workspace: string | null }[]
  >`
    SELECT w."shopDomain", w."secretCiphertext",
      COALESCE(s."workspaceOverride", s."workspaceId") AS "workspace"
    FROM "ServiceWebhook" w LEFT JOIN "Shop" s ON s."shopDomain" = w."shopDomain"
    WHERE w."publicId" = ${delivery.publicId}`;
  if (!hook) return { status: 401, reason: "unknown-shop" };
  let secret: string;
  try {
    secret = openSecret(hook.secretCiphertext, env.decryptionKeys);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return { status: 401, reason: "bad-signature" };
    throw error;
  }
  if (!verifyWebhookSignature(secret, delivery.rawBody, delivery.signature)) {
    return { status: 401, reason: "bad-signature" };
  }
  let event: ServiceEventBody;
  try {
    event = parseServiceEventBody(delivery.rawBody);
  } catch (error) {
    if (error instanceof MalformedEventError) {
      return { status: 400, reason: "malformed", message: error.message };
    }
    throw error;
  }
  const shopDomain = hook.shopDomain;
  const nothing = {
    status: 200 as const,
    shopDomain,
    eventId: event.id,
    threadId: event.threadId,
    newInboxEntry: false,
  };
  // A replay window bounded on both sides: a future date would outlive the pruning of its id.
  if (event.createdAt.getTime() > receivedAt.getTime() + ALLOWED_CLOCK_SKEW_MS) {
    return {
      status: 400,
      reason: "future",
      message: `created_at is more than ${ALLOWED_CLOCK_SKEW_MS / 60_000} minutes ahead of the app's clock`,
    };
  }
  // Older than what is kept: its id may have been pruned, so it could not be told from a replay.
  const oldest = receivedAt.getTime() - env.serviceEvents.retentionDays * 86_400_000;
  if (event.createdAt.getTime() < oldest) return { ...nothing, reason: "expired" };
  const test = typeof event.data[TEST_MARKER_FIELD] === "string";
  const attribution = attributionOf(event, hook.workspace, test);
  if (attribution === "another-workspace" || (attribution === "by-thread" && !event.threadId)) {
    return { ...nothing, reason: "not-this-shop" };
  }
  if (
    !test &&
    (await redactedSince(shopDomain, marksOfEvent(event), event.createdAt, ALLOWED_CLOCK_SKEW_MS))
  ) {
    return { ...nothing, reason: "redacted" };
  }
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
  const threadId = event.threadId;

  if (attribution === "by-thread" && threadId !== null) {
    if (!(await shopHasThread(shopDomain, threadId))) {
      await holdServiceEvent({ ...record, threadId });
      // The thread may have shown up meanwhile, its delivery finding nothing held yet: look again.
      if (!(await shopHasThread(shopDomain, threadId))) return { ...nothing, reason: "held" };
      const { released, newInboxEntry } = await settleThread(
        shopDomain,
        threadId,
        receivedAt,
        null,
      );
      const own = released.find((copied) => copied.eventId === event.id);
      return { ...nothing, reason: own?.stored ? "stored" : "duplicate", newInboxEntry };
    }
  }

  const stored = await retryWhileBusy(
    () => prisma.$executeRaw`
      INSERT INTO "ServiceEvent" ("shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "test", "data")
      VALUES (${shopDomain}, ${event.id}, ${event.eventType}, ${occurredAt}, ${receivedAt},
        ${threadId}, ${test}, ${record.data})
      ON CONFLICT ("shopDomain", "eventId") DO NOTHING`,
  );
  const reason = stored > 0 ? ("stored" as const) : ("duplicate" as const);
  if (test || threadId === null) return { ...nothing, reason };
  // The thread is now the shop's: what was held for it is the shop's too. A duplicate settles
  // too: a crash between storing an event and folding it is mended by the service's retry.
  const settled = await settleThread(shopDomain, threadId, receivedAt, {
    eventId: event.id,
    eventType: event.eventType,
  });
  return { ...nothing, reason, newInboxEntry: settled.newInboxEntry };
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
  const newInboxEntry = owing.length > 0 ? await refoldThread(shopDomain, threadId) : false;
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

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string | number);
}

/**
 * Rebuilds a thread's Inbox entry from its stored events; true for the one delivery that created
 * the entry. Raw statements without a transaction (docs/decisions/0001): two deliveries folding
 * the same thread at once are ordered by eventCount, so a fold of fewer events never overwrites
 * one of more, and the merchant's handledAt is never touched.
 */
async function refoldThread(shopDomain: string, threadId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<
    { eventId: string; eventType: string; occurredAt: unknown; data: string }[]
  >`
    SELECT "eventId", "eventType", "occurredAt", "data" FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId} AND "test" = false
      AND "eventType" IN (${Prisma.join([...INBOX_EVENT_TYPES])})`;
  const entry = foldThread(
    rows.map((row) => ({
      eventId: row.eventId,
      eventType: row.eventType,
      occurredAt: toDate(row.occurredAt),
      data: JSON.parse(row.data) as Record<string, unknown>,
    })),
  );
  if (!entry) return false;
  const values = Prisma.sql`${shopDomain}, ${threadId}, ${entry.name}, ${entry.email}, ${entry.phone},
    ${entry.message}, ${entry.handoffState}, ${entry.contactSubmitted}, ${entry.firstAt},
    ${entry.lastAt}, ${rows.length}`;
  return retryWhileBusy(async () => {
    const created = await prisma.$executeRaw`
      INSERT INTO "InboxItem" ("shopDomain", "threadId", "name", "email", "phone", "message",
        "handoffState", "contactSubmitted", "firstAt", "lastAt", "eventCount")
      VALUES (${values})
      ON CONFLICT ("shopDomain", "threadId") DO NOTHING`;
    if (created > 0) return true;
    await prisma.$executeRaw`
      UPDATE "InboxItem" SET "name" = ${entry.name}, "email" = ${entry.email},
        "phone" = ${entry.phone}, "message" = ${entry.message},
        "handoffState" = ${entry.handoffState}, "contactSubmitted" = ${entry.contactSubmitted},
        "firstAt" = ${entry.firstAt}, "lastAt" = ${entry.lastAt}, "eventCount" = ${rows.length}
      WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId}
        AND "eventCount" <= ${rows.length}`;
    return false;
  });
}
