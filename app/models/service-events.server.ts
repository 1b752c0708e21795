/**
 * The service's events as stored for a shop (`ServiceEvent`): written once per event id by the
 * receiving path, read by the Inbox's fold, Insights, Settings' test event and the checklist, and
 * deleted by retention and privacy requests. The receiving path's statements are raw SQL without
 * transactions: Prisma's model queries keep memory per call (docs/decisions/0001), and every chat
 * message is an event.
 */
import { Prisma } from "@prisma/client";
import prisma, { retryWhileBusy, toDate } from "./db.server";

interface StoredEvent {
  shopDomain: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  receivedAt: Date;
  threadId: string | null;
  test: boolean;
  /** The storefront domain whose workspace the event names (null: none, or not known). */
  storefront: string | null;
  /** The event's data as JSON. */
  data: string;
}

/** Stores the event once (by its id); false when it was already stored (a duplicate). */
export async function storeServiceEvent(event: StoredEvent): Promise<boolean> {
  const stored = await retryWhileBusy(
    () => prisma.$executeRaw`
      INSERT INTO "ServiceEvent" ("shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "test", "storefront", "data")
      VALUES (${event.shopDomain}, ${event.eventId}, ${event.eventType}, ${event.occurredAt}, ${event.receivedAt},
        ${event.threadId}, ${event.test}, ${event.storefront}, ${event.data})
      ON CONFLICT ("shopDomain", "eventId") DO NOTHING`,
  );
  return stored > 0;
}

/** The thread's stored events of these types (tests left out), as the Inbox's fold reads them. */
export async function threadEventsOf(
  shopDomain: string,
  threadId: string,
  eventTypes: readonly string[],
): Promise<{ eventId: string; eventType: string; occurredAt: Date; data: string }[]> {
  const rows = await prisma.$queryRaw<
    { eventId: string; eventType: string; occurredAt: unknown; data: string }[]
  >`
    SELECT "eventId", "eventType", "occurredAt", "data" FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId} AND "test" = false
      AND "eventType" IN (${Prisma.join([...eventTypes])})`;
  return rows.map((row) => ({ ...row, occurredAt: toDate(row.occurredAt) }));
}

/** The storefront the thread's earliest event naming one came from (null: none did). */
export async function threadStorefrontOf(
  shopDomain: string,
  threadId: string,
): Promise<string | null> {
  const [row] = await prisma.$queryRaw<{ storefront: string }[]>`
    SELECT "storefront" FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId} AND "storefront" IS NOT NULL
    ORDER BY "occurredAt", "eventId" LIMIT 1`;
  return row?.storefront ?? null;
}

/**
 * The shop's events of these types since `from` (tests left out), with the data of
 * feedback.submitted only (Insights counts the others).
 */
export async function eventsSince(
  shopDomain: string,
  from: Date,
  eventTypes: readonly string[],
): Promise<{ eventType: string; occurredAt: Date; storefront: string | null; data: string }[]> {
  const rows = await prisma.$queryRaw<
    { eventType: string; occurredAt: unknown; storefront: string | null; data: string }[]
  >`
    SELECT "eventType", "occurredAt", "storefront",
      CASE WHEN "eventType" = 'feedback.submitted' THEN "data" ELSE '' END AS "data"
    FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "test" = false AND "occurredAt" >= ${from}
      AND "eventType" IN (${Prisma.join([...eventTypes])})`;
  return rows.map((row) => ({ ...row, occurredAt: toDate(row.occurredAt) }));
}

/** The data of the shop's newest `limit` chat.message_sent events since `from`, newest first. */
export async function chatMessagesSince(
  shopDomain: string,
  from: Date,
  limit: number,
): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ data: string }[]>`
    SELECT "data" FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "test" = false AND "occurredAt" >= ${from}
      AND "eventType" = 'chat.message_sent'
    ORDER BY "occurredAt" DESC LIMIT ${limit}`;
  return rows.map((row) => row.data);
}

/** Whether a test event of this thread was received (and so its signature verified). */
export async function testEventReceived(shopDomain: string, threadId: string): Promise<boolean> {
  const received = await prisma.serviceEvent.findFirst({
    where: { shopDomain, threadId, test: true },
  });
  return received !== null;
}

/** Whether a shopper ever started a conversation in the shop's chat (tests left out). */
export async function conversationStarted(shopDomain: string): Promise<boolean> {
  const event = await prisma.serviceEvent.findFirst({
    where: { shopDomain, test: false, eventType: "chat.conversation_started" },
    select: { eventId: true },
  });
  return event !== null;
}

/** How many of the shop's events of these threads there are, by type. */
export async function threadEventCounts(
  shopDomain: string,
  threadIds: readonly string[],
): Promise<Record<string, number>> {
  const groups = await prisma.serviceEvent.groupBy({
    by: ["eventType"],
    where: { shopDomain, threadId: { in: [...threadIds] } },
    _count: { _all: true },
  });
  return Object.fromEntries(groups.map((row) => [row.eventType, row._count._all]));
}

/** Deletes the shop's threads whole, their events and Inbox entries, in one transaction. */
export async function deleteThreads(
  shopDomain: string,
  threadIds: readonly string[],
): Promise<{ events: number; inboxEntries: number }> {
  const where = { shopDomain, threadId: { in: [...threadIds] } };
  const [events, entries] = await prisma.$transaction([
    prisma.serviceEvent.deleteMany({ where }),
    prisma.inboxItem.deleteMany({ where }),
  ]);
  return { events: events.count, inboxEntries: entries.count };
}

/**
 * Deletes Inbox entries last active before `cutoff` with their conversations' events, and every
 * other event received before it; the events of an entry still kept stay whole.
 */
export async function pruneEventsBefore(
  cutoff: Date,
): Promise<{ events: number; inboxEntries: number }> {
  const threadEvents = await prisma.$executeRaw`
    DELETE FROM "ServiceEvent" WHERE EXISTS (
      SELECT 1 FROM "InboxItem" i WHERE i."shopDomain" = "ServiceEvent"."shopDomain"
        AND i."threadId" = "ServiceEvent"."threadId" AND i."lastAt" < ${cutoff})`;
  const inboxEntries = await prisma.$executeRaw`
    DELETE FROM "InboxItem" WHERE "lastAt" < ${cutoff}`;
  const otherEvents = await prisma.$executeRaw`
    DELETE FROM "ServiceEvent" WHERE "receivedAt" < ${cutoff} AND NOT EXISTS (
      SELECT 1 FROM "InboxItem" i WHERE i."shopDomain" = "ServiceEvent"."shopDomain"
        AND i."threadId" = "ServiceEvent"."threadId")`;
  return { events: threadEvents + otherEvents, inboxEntries };
}
