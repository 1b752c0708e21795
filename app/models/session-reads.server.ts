/**
 * The live worker's read of its shop's offline session with the pass's first statement
 * (passStart), handed to the Shopify library's load of it (decision 0059). Apart from the session
 * storage (sessions.server.ts) so that the modules that note session writes load no Shopify
 * library.
 */
import type { Session as SessionRow } from "@prisma/client";

/** The id of a shop's offline session, as the Shopify library names it (`getOfflineId`). */
export function offlineSessionIdOf(shopDomain: string): string {
  return `offline_${shopDomain}`;
}

/** A session row as a statement read it, with what says whether it may stand for a load now. */
export interface SessionRead {
  row: SessionRow;
  /** `performance.now()` when it was read. */
  readAt: number;
  /** `sessionWrites` when it was read. */
  writesBefore: number;
}

/** Session writes in this process so far, through the storage or the app's own statements. */
let sessionWrites = 0;

/** A session written or deleted by the app's own statements (uninstall, new scopes, redact). */
export function noteSessionsWritten(): void {
  sessionWrites += 1;
  readAlready.clear();
}

/** The row as read now (passStart reads its shop's offline session this way). */
export function sessionReadNow(row: SessionRow): SessionRead {
  return { row, readAt: performance.now(), writesBefore: sessionWrites };
}

/** How long after it was read a row may stand for the library's load of it. */
const STANDS_FOR_MS = 1_000;
/**
 * A session that expires sooner is loaded by the library itself: it refreshes it, and a refresh
 * must start from the latest row (Shopify replaces the refresh token each time it is used).
 */
const REFRESH_MARGIN_MS = 10 * 60_000;

function standsFor(read: SessionRead): boolean {
  const { expires } = read.row;
  return (
    performance.now() - read.readAt <= STANDS_FOR_MS &&
    read.writesBefore === sessionWrites &&
    (expires === null || expires.getTime() - Date.now() > REFRESH_MARGIN_MS)
  );
}

/**
 * Session rows read already, each handed to the library's next load of that id instead of a
 * statement of its own: once, and never after a write of a session.
 */
const readAlready = new Map<string, SessionRow>();

/**
 * Runs `load` (which makes the library load the session `read.row.id`) with that row as the
 * load's answer, when it may stand for it: read less than a second ago, no session written in
 * this process since, not about to be refreshed. Otherwise the library reads it, as it would
 * without. The row is not used after `load` ends.
 */
export async function withSessionRead<T>(
  read: SessionRead | null,
  load: () => Promise<T>,
): Promise<T> {
  if (!read || !standsFor(read)) return load();
  const { row } = read;
  readAlready.set(row.id, row);
  try {
    return await load();
  } finally {
    if (readAlready.get(row.id) === row) readAlready.delete(row.id);
  }
}

/** The row handed to the library's load of session `id`, if one is (once). */
export function takeSessionRead(id: string): SessionRow | undefined {
  const row = readAlready.get(id);
  if (row) readAlready.delete(id);
  return row;
}
