/**
 * Waits the service asks for, however long or malformed: a 429's retryAfter of years, a resetTime
 * of 1e300. Node's timers overflow past 24.8 days and then fire at once, every millisecond; the
 * app must instead sleep (in timer-sized steps, at most a day) and say until when.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_RETRY_AFTER_MS } from "../../../app/index-service/assumptions";
import { RateLimitedError } from "../../../app/index-service/errors";
import { retryAfterMsOf } from "../../../app/index-service/response-errors";
import { RATE_LIMITS } from "../../../app/index-service/tiers";
import { describeWait, Pacer } from "../../../app/sync/engine/pacer";
import { MAX_TIMER_MS, sleep } from "../../../app/server/sleep";

const DAY = 24 * 60 * 60 * 1_000;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function usage(resetTime: number) {
  return {
    rateLimit: { remaining: { perMinute: 0, perHour: 0 }, resetTime },
  } as unknown as Parameters<Pacer["observeUsage"]>[0];
}

describe("a far-off or malformed wait", () => {
  it.each([1e12, 30 * 24 * 3600, Number.MAX_SAFE_INTEGER])(
    "a 429 asking for %d s waits at most a day, with no timer past Node's limit",
    async (seconds) => {
      vi.useFakeTimers();
      const delays: number[] = [];
      const realSetTimeout = globalThis.setTimeout;
      vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
        delays.push(ms ?? 0);
        return realSetTimeout(fn, ms);
      }) as typeof setTimeout);
      const now = Date.now();
      const pacer = new Pacer({ limits: RATE_LIMITS.personal });
      let calls = 0;
      const sent = pacer.send(async () => {
        calls += 1;
        if (calls === 1) {
          throw new RateLimitedError({ message: "slow down", retryAfterMs: seconds * 1_000, now });
        }
        return "sent";
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(pacer.pausedUntil).toBeGreaterThan(now);
      expect(pacer.pausedUntil).toBeLessThanOrEqual(now + MAX_RETRY_AFTER_MS);
      expect(new Date(pacer.pausedUntil).toISOString()).toMatch(/^\d{4}-/);
      await vi.advanceTimersByTimeAsync(MAX_RETRY_AFTER_MS - 1_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(2_000);
      await expect(sent).resolves.toBe("sent");
      expect(calls).toBe(2);
      expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS);
    },
  );

  it.each([1e300, Number.MAX_VALUE, Date.now() + 400 * DAY])(
    "a resetTime of %d holds the shop for at most a day, shown as a real date",
    (resetTime) => {
      const now = Date.now();
      const pacer = new Pacer({ limits: RATE_LIMITS.personal, now: () => now });
      pacer.observeUsage(usage(resetTime));
      expect(pacer.pausedUntil).toBe(now + MAX_RETRY_AFTER_MS);
      expect(new Date(pacer.pausedUntil).toISOString()).toMatch(/^\d{4}-/);
    },
  );

  it.each([
    [{ retryAfter: 1e12 }, null],
    [{ retryAfter: Number.MAX_VALUE }, null],
    [{}, "99999999999"],
    [{}, "Fri, 31 Dec 9999 23:59:59 GMT"],
  ])("a 429 body %j with Retry-After %s is read as at most a day", (body, header) => {
    const headers = new Headers(header ? { "Retry-After": header } : {});
    expect(retryAfterMsOf(body, headers, Date.now())).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });

  it("sleep() of 30 days sleeps 30 days, in steps Node's timers can hold", async () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return realSetTimeout(fn, ms);
    }) as typeof setTimeout);
    let done = false;
    void sleep(30 * DAY).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(29 * DAY);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(done).toBe(true);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(delays.length).toBeLessThanOrEqual(3);
  });

  it("the merchant is told when sending resumes", () => {
    const now = Date.parse("2026-11-22T14:00:00Z");
    expect(describeWait(30_000, now)).toBe("in 30 s");
    expect(describeWait(MAX_RETRY_AFTER_MS, now)).toBe("at 2026-11-23 14:00 UTC");
  });
});
