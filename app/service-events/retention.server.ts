import { config } from "../config.server";
import prisma from "../db.server";

const DAY_MS = 86_400_000;
/** How often the app server prunes. */
export const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Deletes service events received, and Inbox entries last active, before the retention period
 * (SERVICE_EVENTS_RETENTION_DAYS, 90 by default). Returns how many of each went.
 */
export async function pruneServiceEvents(
  now: Date = new Date(),
  retentionDays: number = config().serviceEvents.retentionDays,
): Promise<{ events: number; inboxEntries: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const events = await prisma.serviceEvent.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  const inboxEntries = await prisma.inboxItem.deleteMany({ where: { lastAt: { lt: cutoff } } });
  return { events: events.count, inboxEntries: inboxEntries.count };
}

/** Prunes now and then every hour; returns the function that stops it. */
export function schedulePruning(): () => void {
  const prune = () =>
    pruneServiceEvents().catch((error: unknown) =>
      console.error("[service-events] pruning failed", error),
    );
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
