/**
 * Copies of one shop's service events under other shops. Before events were attributed to the
 * shop whose workspace they concern, every shop saved with the same account's keys stored every
 * event of the account; and each shop of an account holds its own copy of an event that names no
 * workspace until it can be attributed. A privacy request reaches every copy: the same event ids
 * (the service's ids are unique per event) in any shop, held or stored, with those threads'
 * Inbox entries.
 */
import { Prisma } from "@prisma/client";
import prisma from "./db.server";

interface EventCopies {
  /** Other shops' threads holding one of the events, with their Inbox entries. */
  threads: { shopDomain: string; threadId: string }[];
  /** Their Inbox entries. */
  inboxEntries: number;
  /** Other shops' held copies. */
  held: number;
  /** The events under other shops, by type. */
  events: Record<string, number>;
}

/** The ids of the shop's events of these threads, stored or held. */
async function eventIdsOf(shopDomain: string, threadIds: readonly string[]): Promise<string[]> {
  if (threadIds.length === 0) return [];
  const where = { shopDomain, threadId: { in: [...threadIds] } };
  const [stored, held] = await Promise.all([
    prisma.serviceEvent.findMany({ where, select: { eventId: true } }),
    prisma.heldServiceEvent.findMany({ where, select: { eventId: true } }),
  ]);
  return [...new Set([...stored, ...held].map((row) => row.eventId))];
}

export async function findEventCopies(
  shopDomain: string,
  threadIds: readonly string[],
): Promise<EventCopies> {
  return copiesOfEvents(shopDomain, await eventIdsOf(shopDomain, threadIds));
}

async function copiesOfEvents(shopDomain: string, eventIds: string[]): Promise<EventCopies> {
  if (eventIds.length === 0) return { threads: [], inboxEntries: 0, held: 0, events: {} };
  const elsewhere = { eventId: { in: eventIds }, shopDomain: { not: shopDomain } };
  const [stored, held] = await Promise.all([
    prisma.serviceEvent.findMany({
      where: elsewhere,
      select: { shopDomain: true, threadId: true, eventType: true },
    }),
    prisma.heldServiceEvent.count({ where: elsewhere }),
  ]);
  const threads = new Map<string, { shopDomain: string; threadId: string }>();
  const events: Record<string, number> = {};
  for (const row of stored) {
    events[row.eventType] = (events[row.eventType] ?? 0) + 1;
    if (row.threadId !== null) {
      threads.set(`${row.shopDomain}\n${row.threadId}`, {
        shopDomain: row.shopDomain,
        threadId: row.threadId,
      });
    }
  }
  const pairs = [...threads.values()];
  const inboxEntries =
    pairs.length === 0 ? 0 : await prisma.inboxItem.count({ where: { OR: pairs } });
  return { threads: pairs, inboxEntries, held, events };
}

/**
 * Deletes every copy under other shops: their held copies of the events, and the whole of each
 * of their threads holding one (its events and its Inbox entry). Returns what was deleted.
 */
export async function deleteEventCopies(
  shopDomain: string,
  threadIds: readonly string[],
): Promise<{ copies: EventCopies; inboxEntries: number; events: number; held: number }> {
  const eventIds = await eventIdsOf(shopDomain, threadIds);
  const copies = await copiesOfEvents(shopDomain, eventIds);
  let inboxEntries = 0;
  let events = 0;
  const held =
    eventIds.length === 0
      ? 0
      : await prisma.$executeRaw`
          DELETE FROM "HeldServiceEvent"
          WHERE "eventId" IN (${Prisma.join(eventIds)}) AND "shopDomain" <> ${shopDomain}`;
  for (const thread of copies.threads) {
    // Events first: an entry left by a crash in between is found again by the next request.
    events += await prisma.$executeRaw`
      DELETE FROM "ServiceEvent"
      WHERE "shopDomain" = ${thread.shopDomain} AND "threadId" = ${thread.threadId}`;
    inboxEntries += await prisma.$executeRaw`
      DELETE FROM "InboxItem"
      WHERE "shopDomain" = ${thread.shopDomain} AND "threadId" = ${thread.threadId}`;
  }
  return { copies, inboxEntries, events, held };
}
