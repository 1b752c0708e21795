import { config } from "../config.server";
import { pruneHeldEvents } from "../models/held-service-events.server";
import { pruneRedactedShoppers } from "../models/redacted-shoppers.server";
import { pruneMailsWithoutEntry } from "../models/notification-mails.server";
import { pruneEventsBefore } from "../models/service-events.server";
import { logFor } from "../server/log";

const log = logFor("service-events");

const DAY_MS = 86_400_000;
/** How often the app server prunes. */
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Deletes Inbox entries last active before the retention period (SERVICE_EVENTS_RETENTION_DAYS,
 * 90 by default) with their conversations' events, and every other event received before it. The
 * events of an entry that is still kept stay whole, so a later fold still sees all of them. Held
 * events that no shop claimed go after HELD_EVENT_HOURS; what recognises a redacted shopper goes
 * after the retention period too (their older events are refused as expired by then).
 */
export async function pruneServiceEvents(
  now: Date = new Date(),
  retentionDays: number = config().serviceEvents.retentionDays,
): Promise<{ events: number; inboxEntries: number; held: number; redactions: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const { events, inboxEntries } = await pruneEventsBefore(cutoff);
  const held = await pruneHeldEvents(now);
  // A day beyond the cutoff: an event that old is refused as expired whatever its clock says.
  const redactions = await pruneRedactedShoppers(new Date(cutoff.getTime() - DAY_MS));
  // The outbox's rows of entries gone (here, or by a redaction or uninstall since).
  await pruneMailsWithoutEntry();
  return { events, inboxEntries, held, redactions };
}

/** Prunes now and then every hour; returns the function that stops it. */
export function schedulePruning(): () => void {
  const prune = () =>
    pruneServiceEvents().catch((error: unknown) => log.error({ err: error }, "pruning failed"));
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
