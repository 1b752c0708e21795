import { Prisma } from "@prisma/client";
import { driverExecute, driverQuery, retryWhileBusy } from "./db.server";
import type { RateLimits } from "../index-service/tiers";
import {
  emptyWindow,
  holdWindow,
  parseWindow,
  takePlace,
  type KeyWindowState,
} from "../index-service/key-request-counts";

interface Row {
  version: number | bigint;
  state: string;
}

async function readRow(keyId: string): Promise<Row | undefined> {
  // To the driver, as every statement here: each request to the service takes its place.
  const [row] = await driverQuery<Row>(Prisma.sql`
    SELECT "version", "state" FROM "RateWindow" WHERE "keyId" = ${keyId}`);
  return row;
}

/**
 * The last row of each key this process read or wrote. A guess only: a write made from it names
 * the version and the very state it was computed from, so it changes nothing when another
 * process changed the window meanwhile (then the row is read again). A process that is the key's
 * only writer (a lone change, say) takes its place in one statement instead of two.
 */
const lastSeen = new Map<string, { version: number; state: string }>();

/** How long a conditional write may take for its condition to count as tested right before the request. */
const CONDITION_FRESH_MS = 250;

/**
 * Changes the key's window with `change` by compare-and-swap on its version and state (one
 * statement, no transaction, the same on SQLite and PostgreSQL): when another process changed it
 * meanwhile, it is read again and `change` applied to what is there now. Returns what `change`
 * decided. A decision not to write is only ever made on a row just read.
 *
 * `condition`, when given, is tested by the first write (the version's compare-and-swap): the
 * write happens only if it holds. When that write changes nothing, the window may have moved or
 * the condition failed: the row is read again and the change made without it, and the caller
 * checks on its own (`conditionHeld` false), as it does when the write took longer than
 * CONDITION_FRESH_MS. With `untested`, such a write is not made again without the condition:
 * `untested` is returned instead, nothing changed.
 */
async function updateWindow<T>(
  keyId: string,
  change: (state: KeyWindowState) => { write: KeyWindowState | null; result: T },
  condition?: Prisma.Sql,
  now: () => number = Date.now,
  untested?: T,
): Promise<{ result: T; conditionHeld: boolean }> {
  let known = lastSeen.get(keyId);
  let tested = condition;
  for (;;) {
    let row: { version: number; state: string } | undefined = known;
    if (!row) {
      const read = await retryWhileBusy(() => readRow(keyId));
      row = read ? { version: Number(read.version), state: read.state } : undefined;
      if (row) lastSeen.set(keyId, row);
      else lastSeen.delete(keyId);
    }
    const { write, result } = change(row ? parseWindow(row.state) : emptyWindow());
    if (!write) {
      if (row === known && known) {
        // Decided on the remembered row: read it again before answering.
        known = undefined;
        continue;
      }
      return { result, conditionHeld: false };
    }
    const text = JSON.stringify(write);
    const from = row;
    const also = from && tested ? Prisma.sql`AND ${tested}` : Prisma.empty;
    const sentAt = now();
    const changed = await retryWhileBusy(() =>
      from
        ? driverExecute(Prisma.sql`
            UPDATE "RateWindow" SET "state" = ${text}, "version" = ${from.version + 1}
            WHERE "keyId" = ${keyId} AND "version" = ${from.version} AND "state" = ${from.state}
            ${also}`)
        : driverExecute(Prisma.sql`
            INSERT INTO "RateWindow" ("keyId", "version", "state") VALUES (${keyId}, 1, ${text})
            ON CONFLICT ("keyId") DO NOTHING`),
    );
    if (changed > 0) {
      lastSeen.set(keyId, { version: (from?.version ?? 0) + 1, state: text });
      // The condition's times were fixed when it was made: a write that waited for the database
      // (another process's commit) tested them late, and the caller checks again.
      const prompt = now() - sentAt <= CONDITION_FRESH_MS;
      return { result, conditionHeld: also !== Prisma.empty && prompt };
    }
    lastSeen.delete(keyId);
    if (also !== Prisma.empty && untested !== undefined)
      return { result: untested, conditionHeld: false };
    known = undefined;
    tested = undefined;
  }
}

/**
 * Takes one request's place in the key's per-minute and per-hour windows, counted for every
 * process that uses the database: 0 when taken (send now), else how many milliseconds to wait
 * before asking again. With a `condition` (the sender's check before a request, as SQL), the
 * place is taken in the same statement only if it holds: `conditionHeld` says it did, and the
 * sender need not check again; false, the sender checks on its own. `places` requests about to
 * go together take theirs in the same statement, all or none; and only where the condition held
 * in it (else `waitMs` 1, nothing taken: places taken for requests a failed check stops would be
 * spent for nothing, and a window another process moved meanwhile is left to each request).
 */
export async function takeKeyPlace(
  keyId: string,
  limits: RateLimits,
  now: () => number = Date.now,
  condition?: Prisma.Sql,
  places = 1,
): Promise<{ waitMs: number; conditionHeld: boolean }> {
  const { result, conditionHeld } = await updateWindow(
    keyId,
    (state) => {
      const at = now();
      let taken = state;
      for (let place = 0; place < places; place++) {
        const decision = takePlace(taken, limits, at);
        if (!decision.taken) return { write: null, result: decision.waitMs };
        taken = decision.state;
      }
      return { write: taken, result: 0 };
    },
    condition,
    now,
    places > 1 && condition ? 1 : undefined,
  );
  return { waitMs: result, conditionHeld };
}

/** The key's hold deadline (epoch ms; 0 when none), whichever process set it. */
export async function keyHeldUntil(keyId: string): Promise<number> {
  const row = await readRow(keyId);
  return row ? parseWindow(row.state).hold : 0;
}

/** No process sends on the key before `until` (epoch ms): a 429's deadline, or a spent window's reset. */
export async function holdKey(keyId: string, until: number): Promise<void> {
  await updateWindow(keyId, (state) =>
    state.hold >= until
      ? { write: null, result: undefined }
      : { write: holdWindow(state, until), result: undefined },
  );
}
