/**
 * The pacer: how one sender's requests to the service are spaced (the tier's per-minute and
 * per-hour limits, a 429's retryAfter, backoff on 5xx), a plain class with the clock, sleep and
 * randomness injected so tests control time. It knows no shop and no database (a guard's condition
 * is SQL it only hands on): which pacer a shop uses in this process, and the key's windows shared
 * through the database, are pacer-registry.server.ts.
 */
import type { Prisma } from "@prisma/client";
import PQueue from "p-queue";
import { MAX_RETRY_AFTER_MS } from "../../index-service/assumptions";
import { IndexServiceError, RateLimitedError } from "../../index-service/errors";
import type { RateLimits } from "../../index-service/tiers";
import type { Usage } from "../../index-service/types";
import { appMetrics } from "../../server/metrics";
import { sleep } from "../../server/sleep";

/** Backoff steps: the first wait, doubled after each further failure up to the longest. */
export interface BackoffSteps {
  baseMs: number;
  maxMs: number;
}

/** The longest wait after `failures` failures in a row: base × 2^(failures-1), at most max. */
export function backoffCeilingMs(failures: number, steps: BackoffSteps): number {
  return Math.min(steps.maxMs, steps.baseMs * 2 ** Math.max(0, failures - 1));
}

/** The wait after `failures` failures in a row: half the ceiling plus a random half (jitter). */
export function backoffMs(
  failures: number,
  steps: BackoffSteps,
  random: () => number = Math.random,
): number {
  const ceiling = backoffCeilingMs(failures, steps);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** How long until sending resumes, for the merchant: "in 30 s", or "at 2026-11-23 14:05 UTC". */
export function describeWait(waitMs: number, now: number = Date.now()): string {
  if (waitMs < 120_000) return `in ${Math.ceil(Math.max(0, waitMs) / 1000)} s`;
  return `at ${new Date(now + waitMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The key's per-minute and per-hour windows when they are shared with other processes (the
 * database's `RateWindow`): the pacer takes a place there before each request instead of
 * counting in its own windows, and tells it a 429's deadline.
 */
export interface RateGate {
  /**
   * `waitMs` 0 when the request's place is taken (send now); else how many ms to wait before
   * asking again. Given a guard's condition, the place is taken only where it holds and
   * `conditionHeld` says whether it was tested and held (else the guard is called).
   */
  take(
    condition?: Prisma.Sql,
    places?: number,
  ): Promise<{ waitMs: number; conditionHeld: boolean }>;
  /** Nothing is sent on the key before `epochMs`, by any process. */
  hold(epochMs: number): Promise<void>;
}

/**
 * Called right before each request; throws to stop sending. One with a `condition` (the same
 * check as SQL, made at the time of the request) is tested by the gate in the statement that
 * takes the request's place, and called only when that statement could not tell.
 */
export type SendGuard = (() => Promise<void>) & { condition?: () => Prisma.Sql };

/**
 * Places in the key's windows taken together, in one statement, for requests about to go one
 * after another (a live pass's to the shop's workspace and then to its storefront domains'),
 * with the guard's check: each request given them uses one instead of taking its own, and is
 * not checked again, while they are fresh (PREPAID_FRESH_MS). One not used is a place spent.
 */
export interface PrepaidPlaces {
  left: number;
  /** When the statement that took them was sent (the pacer's clock). */
  takenAt: number;
  /** The guard whose check the statement tested (held or not): only its requests use them. */
  guard: SendGuard | undefined;
  /** The check held in the statement: the requests need not check on their own. */
  checked: boolean;
  /**
   * Called once, before a request given these places goes without one (none left, or no longer
   * fresh) or is tried again: what waited for the requests to go together (their ledger rows)
   * is done then. The places left are not used after it.
   */
  apart?: () => Promise<void>;
}

/**
 * How long prepaid places stay usable: as long as a check tested with a place counts as made
 * right before its request (key-rate-windows.server.ts), so that both the place and the check
 * are the request's own. Later, a request takes its place and is checked as any other.
 */
export const PREPAID_FRESH_MS = 250;

export interface PacerOptions {
  limits: RateLimits;
  /** The key's windows shared with other processes; without it this pacer counts on its own. */
  gate?: RateGate;
  /** Requests in flight at once for the shop. */
  concurrency?: number;
  /** Retries of a 5xx or network failure before giving up; Infinity for live updates. */
  maxServerRetries?: number;
  /** First backoff step; doubles each retry up to maxBackoffMs; the wait is half of it plus a random half. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Told before every retry wait, e.g. to show "retrying (3)" on the dashboard. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  reason: "rate-limited" | "server-error";
  attempt: number;
  waitMs: number;
  error: IndexServiceError;
}

export interface PacerStats {
  requests: number;
  rateLimited: number;
  serverRetries: number;
}

/**
 * Paces one shop's requests to the service: never more than the tier's per-minute and per-hour
 * limits in any rolling window (so never over the service's fixed clock windows either), nothing
 * at all until a 429's retryAfter has passed or while the service reports no requests left, and
 * 5xx or network failures retried with bounded exponential backoff and jitter.
 */
export class Pacer {
  private readonly perMinute: PQueue;
  private readonly perHour: PQueue | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private notBefore = 0;
  readonly stats: PacerStats = { requests: 0, rateLimited: 0, serverRetries: 0 };

  constructor(private readonly options: PacerOptions) {
    const { limits, concurrency = 2, gate } = options;
    // With a gate the windows are counted in the database; the queue only bounds concurrency.
    this.perMinute = new PQueue(
      gate
        ? { concurrency }
        : { concurrency, intervalCap: limits.perMinute, interval: 60_000, strict: true },
    );
    this.perHour = gate
      ? undefined
      : new PQueue({ intervalCap: limits.perHour, interval: 3_600_000, strict: true });
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => sleep(ms, this.now));
    this.random = options.random ?? Math.random;
  }

  /**
   * Runs one request to the service under the shop's limits, retrying what can be retried;
   * `guard` is checked right before each attempt.
   */
  async send<T>(request: () => Promise<T>, guard?: SendGuard, prepaid?: PrepaidPlaces): Promise<T> {
    const maxServerRetries = this.options.maxServerRetries ?? 6;
    for (let serverFailures = 0; ;) {
      try {
        return await this.perMinute.add(() =>
          this.perHour
            ? this.perHour.add(() => this.sendNow(request, guard, prepaid))
            : this.sendNow(request, guard, prepaid),
        );
      } catch (error) {
        if (prepaid) await this.goApart(prepaid);
        if (error instanceof RateLimitedError) {
          this.stats.rateLimited += 1;
          const metrics = appMetrics();
          metrics.rateLimitedWaits.inc();
          metrics.rateLimitedWaitSeconds.inc(Math.max(0, error.retryAt - this.now()) / 1000);
          await this.holdUntil(error.retryAt);
          this.options.onRetry?.({
            reason: "rate-limited",
            attempt: this.stats.rateLimited,
            waitMs: Math.max(0, error.retryAt - this.now()),
            error,
          });
          continue;
        }
        if (
          error instanceof IndexServiceError &&
          error.retryable &&
          serverFailures < maxServerRetries
        ) {
          serverFailures += 1;
          this.stats.serverRetries += 1;
          const waitMs = this.backoff(serverFailures);
          this.options.onRetry?.({
            reason: "server-error",
            attempt: serverFailures,
            waitMs,
            error,
          });
          await this.sleep(waitMs);
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Takes `count` places for requests about to be sent (with `guard`'s check), in one statement,
   * when the key's windows are shared and have room for all of them now; otherwise none, and
   * each request takes its own as usual.
   */
  async takePlaces(count: number, guard?: SendGuard): Promise<PrepaidPlaces | undefined> {
    const { gate } = this.options;
    if (!gate || count < 2 || this.notBefore > this.now()) return undefined;
    const takenAt = this.now();
    const taken = await gate.take(guard?.condition?.(), count);
    if (taken.waitMs > 0) return undefined;
    return { left: count, takenAt, guard, checked: taken.conditionHeld };
  }

  /** Feeds the remaining counts of a success envelope: at zero, wait for the window's reset. */
  observeUsage(usage: Usage | undefined): void {
    if (!usage) return;
    const { remaining, resetTime } = usage.rateLimit;
    if (remaining.perMinute <= 0 || remaining.perHour <= 0) void this.holdUntil(resetTime);
  }

  /** Epoch milliseconds before which nothing is sent, or 0. */
  get pausedUntil(): number {
    return this.notBefore > this.now() ? this.notBefore : 0;
  }

  async idle(): Promise<void> {
    await this.perMinute.onIdle();
  }

  /** A deadline past MAX_RETRY_AFTER_MS from now, or not a number, holds for that long only. */
  private async holdUntil(epochMs: number): Promise<void> {
    const latest = this.now() + MAX_RETRY_AFTER_MS;
    const until = Number.isFinite(epochMs) ? Math.min(epochMs, latest) : latest;
    this.notBefore = Math.max(this.notBefore, until);
    // Shared, so that the key's other senders wait too; this pacer waits either way.
    await this.options.gate?.hold(until).catch(() => undefined);
  }

  private async sendNow<T>(
    request: () => Promise<T>,
    guard?: SendGuard,
    prepaid?: PrepaidPlaces,
  ): Promise<T> {
    let checked: boolean;
    if (
      prepaid &&
      prepaid.left > 0 &&
      prepaid.guard === guard &&
      this.notBefore <= this.now() &&
      this.now() - prepaid.takenAt <= PREPAID_FRESH_MS
    ) {
      prepaid.left -= 1;
      checked = prepaid.checked;
    } else {
      if (prepaid) await this.goApart(prepaid);
      checked = await this.takePlace(guard);
    }
    if (!checked) await guard?.();
    this.stats.requests += 1;
    return request();
  }

  /** Takes the request's place (with the guard's check where the gate can test it): was it checked? */
  private async takePlace(guard: SendGuard | undefined): Promise<boolean> {
    for (const gate = this.options.gate; ;) {
      // Re-check after every wait: a 429 answered meanwhile may have pushed the deadline further.
      for (let wait = this.notBefore - this.now(); wait > 0; wait = this.notBefore - this.now()) {
        await this.sleep(wait);
      }
      if (!gate) return false;
      const taken = await gate.take(guard?.condition?.());
      if (taken.waitMs <= 0) return taken.conditionHeld;
      await this.sleep(taken.waitMs);
    }
  }

  private async goApart(prepaid: PrepaidPlaces): Promise<void> {
    const apart = prepaid.apart;
    prepaid.apart = undefined;
    prepaid.left = 0;
    await apart?.();
  }

  private backoff(failures: number): number {
    const steps = {
      baseMs: this.options.baseBackoffMs ?? 500,
      maxMs: this.options.maxBackoffMs ?? 30_000,
    };
    return backoffMs(failures, steps, this.random);
  }
}
