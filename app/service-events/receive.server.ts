/**
 * Takes one service event delivery (spec §6): the shop named by the URL's opaque id, the signature
 * checked against that shop's secret before the body is even parsed, then the event stored once
 * (by its id) and the thread's Inbox entry folded again from all its events. Nothing is asked of
 * the service or Shopify here, so the answer comes in milliseconds. Raw SQL only: Prisma's model
 * queries keep memory per call (docs/decisions/0001), and every chat message is an event.
 */
import { Prisma } from "@prisma/client";
import { config } from "../config.server";
import prisma, { retryWhileBusy } from "../db.server";
import { verifyWebhookSignature } from "../index-service/webhook-signature";
import { openSecret, SecretUnreadableError } from "../models/secret-box.server";
import { MalformedEventError, parseServiceEventBody, type ServiceEventBody } from "./event-body";
import { foldThread, INBOX_EVENT_TYPES } from "./inbox-fold";
import { oweInboxNotification } from "./notify.server";
import { TEST_MARKER_FIELD } from "./test-event.server";

/** The opaque id in the receiving URL: base64url, as made by newPublicId(). */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** An event claiming a time this far ahead of ours is stored as received now. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

interface ServiceEventDelivery {
  publicId: string;
  rawBody: string;
  signature: string | null;
  receivedAt?: Date;
}

type ReceiveOutcome =
  | { status: 401; reason: "unknown-shop" | "bad-signature" }
  | { status: 400; reason: "malformed"; message: string }
  | {
      status: 200;
      reason: "stored" | "duplicate" | "expired";
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
  const [hook] = await prisma.$queryRaw<{ shopDomain: string; secretCiphertext: string }[]>`
    SELECT "shopDomain", "secretCiphertext" FROM "ServiceWebhook"
    WHERE "publicId" = ${delivery.publicId}`;
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
  const base = { status: 200 as const, shopDomain, eventId: event.id, threadId: event.threadId };
  // Older than what is kept: its id may have been pruned, so it could not be told from a replay.
  const oldest = receivedAt.getTime() - env.serviceEvents.retentionDays * 86_400_000;
  if (event.createdAt.getTime() < oldest) {
    return { ...base, reason: "expired", newInboxEntry: false };
  }
  const occurredAt =
    event.createdAt.getTime() > receivedAt.getTime() + FUTURE_TOLERANCE_MS
      ? receivedAt
      : event.createdAt;
  const test = typeof event.data[TEST_MARKER_FIELD] === "string";
  const foldsIntoInbox =
    !test &&
    event.threadId !== null &&
    (INBOX_EVENT_TYPES as readonly string[]).includes(event.eventType);

  const stored = await retryWhileBusy(
    () => prisma.$executeRaw`
      INSERT INTO "ServiceEvent" ("shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "test", "data")
      VALUES (${shopDomain}, ${event.id}, ${event.eventType}, ${occurredAt}, ${receivedAt},
        ${event.threadId}, ${test}, ${JSON.stringify(event.data)})
      ON CONFLICT ("shopDomain", "eventId") DO NOTHING`,
  );
  const reason = stored > 0 ? ("stored" as const) : ("duplicate" as const);
  // A duplicate folds too: a crash between storing an event and folding it is mended by the
  // service's retry of the same event.
  const newInboxEntry =
    foldsIntoInbox && event.threadId !== null
      ? await refoldThread(shopDomain, event.threadId)
      : false;
  // Owed before the 200, on duplicates too: a retry after a crash owes what the first could not.
  if (foldsIntoInbox && event.threadId !== null) {
    await oweInboxNotification({
      shopDomain,
      threadId: event.threadId,
      eventId: event.id,
      eventType: event.eventType,
      receivedAt,
      newInboxEntry,
    });
  }
  return { ...base, reason, newInboxEntry };
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
