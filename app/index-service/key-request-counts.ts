import { createHash } from "node:crypto";
import type { RateLimits } from "./tiers";

/**
 * One key's recent requests, as every process of the app counts them (stored as JSON in
 * `RateWindow`): per second for the per-minute limit and per minute for the per-hour limit, as
 * `[bucket, count]` pairs oldest first, and a deadline before which nothing is sent (a 429's).
 */
export interface KeyWindowState {
  s: [number, number][];
  m: [number, number][];
  hold: number;
}

/**
 * Names a secret key in `RateWindow` without storing it: a hash of the key. Two shops saved with
 * the same key share one window, whichever processes send for them.
 */
export function rateKeyId(secretKey: string): string {
  return createHash("sha256").update(`rate-window\u0000${secretKey}`).digest("hex").slice(0, 40);
}

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
/** A bucket counts while it may hold a request of the last 60 units: the current one and 60 before. */
const SPAN = 60;

export function emptyWindow(): KeyWindowState {
  return { s: [], m: [], hold: 0 };
}

/** Reads a stored state; anything malformed is read as empty (it only ever delays by one window). */
export function parseWindow(text: string | null | undefined): KeyWindowState {
  try {
    const value = JSON.parse(text ?? "{}") as Partial<KeyWindowState>;
    const pairs = (list: unknown): [number, number][] =>
      Array.isArray(list)
        ? list.filter(
            (pair): pair is [number, number] =>
              Array.isArray(pair) && Number.isFinite(pair[0]) && Number.isFinite(pair[1]),
          )
        : [];
    return {
      s: pairs(value.s),
      m: pairs(value.m),
      hold: Number.isFinite(value.hold) ? Number(value.hold) : 0,
    };
  } catch {
    return emptyWindow();
  }
}

export type PlaceDecision =
  { taken: true; state: KeyWindowState } | { taken: false; waitMs: number; state: KeyWindowState };

/**
 * Takes one request's place at `now` when the key's per-minute and per-hour windows both have
 * room and no deadline holds it, or says how long to wait before asking again.
 *
 * A request is counted in the bucket of its second (and of its minute); a new one is allowed when
 * fewer than the limit were counted in the buckets that may hold a request of the last 60 s (61
 * buckets, the current one included; the same with minutes for the hour). So any 60 s (or 60 min)
 * of sending holds at most the limit, and so does every fixed clock window of the service, at
 * the cost of treating a request as up to one bucket older than it is.
 */
export function takePlace(state: KeyWindowState, limits: RateLimits, now: number): PlaceDecision {
  const second = Math.floor(now / SECOND_MS);
  const minute = Math.floor(now / MINUTE_MS);
  const kept: KeyWindowState = {
    s: state.s.filter(([bucket]) => bucket >= second - SPAN),
    m: state.m.filter(([bucket]) => bucket >= minute - SPAN),
    hold: state.hold > now ? state.hold : 0,
  };
  const waitMs = Math.max(
    kept.hold - now,
    waitForRoom(kept.s, limits.perMinute, SECOND_MS, now),
    waitForRoom(kept.m, limits.perHour, MINUTE_MS, now),
  );
  if (waitMs > 0) return { taken: false, waitMs, state: kept };
  return {
    taken: true,
    state: { s: count(kept.s, second), m: count(kept.m, minute), hold: kept.hold },
  };
}

/** Nothing is sent on the key before `until` (the larger of this and any deadline already held). */
export function holdWindow(state: KeyWindowState, until: number): KeyWindowState {
  return { ...state, hold: Math.max(state.hold, until) };
}

/** 0 when the buckets hold fewer than `limit`; else how long until enough of the oldest expire. */
function waitForRoom(
  buckets: readonly [number, number][],
  limit: number,
  unitMs: number,
  now: number,
): number {
  let left = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (left < limit) return 0;
  for (const [bucket, n] of buckets) {
    left -= n;
    // Bucket b stops counting once the current bucket is b + 61.
    if (left < limit) return Math.max(1, (bucket + SPAN + 1) * unitMs - now);
  }
  return unitMs;
}

function count(buckets: readonly [number, number][], bucket: number): [number, number][] {
  const last = buckets[buckets.length - 1];
  if (last && last[0] === bucket) return [...buckets.slice(0, -1), [bucket, last[1] + 1]];
  return [...buckets, [bucket, 1]];
}
