/**
 * Service events held for a shop until they can be attributed to it. The service sends every
 * event of an account to every webhook of the account, and `contact.submitted` names no
 * workspace: it is the shop's only when the shop has already seen its thread in its own
 * workspace. Until then it is held here (each shop of the account holds its own copy), moved into
 * the shop's events when the thread shows up, and pruned after HELD_EVENT_HOURS otherwise. Raw SQL
 * without transactions, like the rest of the receiving path (docs/decisions/0001).
 */
import prisma, { retryWhileBusy, toDate } from "./db.server";

/** Longer than the service's whole retry schedule (1 + 5 + 30 min + 2 h) with room to spare. */
const HELD_EVENT_HOURS = 24;

interface HeldEvent {
  shopDomain: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  receivedAt: Date;
  threadId: string;
  data: string;
}

export async function holdServiceEvent(event: HeldEvent): Promise<void> {
  await retryWhileBusy(
    () => prisma.$executeRaw`
      INSERT INTO "HeldServiceEvent" ("shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "data")
      VALUES (${event.shopDomain}, ${event.eventId}, ${event.eventType}, ${event.occurredAt},
        ${event.receivedAt}, ${event.threadId}, ${event.data})
      ON CONFLICT ("shopDomain", "eventId") DO NOTHING`,
  );
}

/** Whether the shop has an event of this thread (one attributed to it, not a test). */
export async function shopHasThread(shopDomain: string, threadId: string): Promise<boolean> {
  const [row] = await prisma.$queryRaw<{ found: number }[]>`
    SELECT 1 AS "found" FROM "ServiceEvent"
    WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId} AND "test" = false
    LIMIT 1`;
  return row !== undefined;
}

export interface CopiedHeldEvent {
  eventId: string;
  eventType: string;
  /** This call stored it (a concurrent or earlier copy of the same event stores it once, by id). */
  stored: boolean;
}

/**
 * Copies the shop's held events of a thread into its events, keeping the held rows: the caller
 * forgets them (forgetHeldEvents) only once what they owe (the Inbox fold, the mail) is recorded,
 * so a crash in between is mended by the service's retry, which finds them still held.
 */
export async function copyHeldEvents(
  shopDomain: string,
  threadId: string,
): Promise<CopiedHeldEvent[]> {
  const held = await prisma.$queryRaw<HeldEvent[]>`
    SELECT "shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "data"
    FROM "HeldServiceEvent" WHERE "shopDomain" = ${shopDomain} AND "threadId" = ${threadId}`;
  const copied: CopiedHeldEvent[] = [];
  for (const event of held) {
    const inserted = await retryWhileBusy(
      () => prisma.$executeRaw`
        INSERT INTO "ServiceEvent" ("shopDomain", "eventId", "eventType", "occurredAt", "receivedAt", "threadId", "test", "data")
        VALUES (${shopDomain}, ${event.eventId}, ${event.eventType}, ${toDate(event.occurredAt)},
          ${toDate(event.receivedAt)}, ${threadId}, false, ${event.data})
        ON CONFLICT ("shopDomain", "eventId") DO NOTHING`,
    );
    copied.push({ eventId: event.eventId, eventType: event.eventType, stored: inserted > 0 });
  }
  return copied;
}

/** Forgets held events once copyHeldEvents' caller has recorded what they owe. */
export async function forgetHeldEvents(
  shopDomain: string,
  eventIds: readonly string[],
): Promise<void> {
  for (const eventId of eventIds) {
    await retryWhileBusy(
      () => prisma.$executeRaw`
        DELETE FROM "HeldServiceEvent"
        WHERE "shopDomain" = ${shopDomain} AND "eventId" = ${eventId}`,
    );
  }
}

/** Drops what was held longer than HELD_EVENT_HOURS before `now`: it was never the shop's. */
export function pruneHeldEvents(now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - HELD_EVENT_HOURS * 3_600_000);
  return prisma.$executeRaw`DELETE FROM "HeldServiceEvent" WHERE "receivedAt" < ${cutoff}`;
}

/** The threads of the shop's held events whose data `matches` (a privacy request's shopper). */
export async function heldThreadsWhere(
  shopDomain: string,
  matches: (data: Record<string, unknown>) => boolean,
): Promise<string[]> {
  const rows = await prisma.heldServiceEvent.findMany({
    where: { shopDomain },
    select: { threadId: true, data: true },
  });
  return rows
    .filter((row) => matches(JSON.parse(row.data) as Record<string, unknown>))
    .map((row) => row.threadId);
}

export function countHeldEvents(shopDomain: string, threadIds: readonly string[]): Promise<number> {
  return prisma.heldServiceEvent.count({ where: { shopDomain, threadId: { in: [...threadIds] } } });
}

export async function deleteHeldThreads(
  shopDomain: string,
  threadIds: readonly string[],
): Promise<void> {
  await prisma.heldServiceEvent.deleteMany({
    where: { shopDomain, threadId: { in: [...threadIds] } },
  });
}
