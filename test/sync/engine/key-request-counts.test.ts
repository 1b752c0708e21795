/**
 * The key's rate window shared through the database (`RateWindow`): the counting rule, and that
 * two writers taking places at once on one key never get more than the limit between them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../../app/index-service/tiers";
import {
  emptyWindow,
  takePlace,
  type KeyWindowState,
} from "../../../app/index-service/key-request-counts";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import * as windows from "../../../app/models/key-rate-windows.server";

beforeAll(async () => {
  await prepareAppEnvironment();
});

/** Takes places at the given times; returns the times at which one was taken. */
function sendAt(times: number[], limits = { perMinute: 5, perHour: 12 }): number[] {
  let state: KeyWindowState = emptyWindow();
  const taken: number[] = [];
  for (const at of times) {
    const decision = takePlace(state, limits, at);
    state = decision.state;
    if (decision.taken) taken.push(at);
  }
  return taken;
}

describe("the key's rate window", () => {
  it("never lets more than the limit into any 60 s or 60 min, wherever the window starts", () => {
    // A request every 250 ms for three hours, taken whenever the window allows.
    const times = Array.from({ length: 3 * 3600 * 4 }, (_, i) => 1_700_000_000_000 + i * 250);
    const taken = sendAt(times);
    for (let i = 0; i < taken.length; i++) {
      const inMinute = taken.filter((t) => t >= taken[i]! && t < taken[i]! + 60_000).length;
      const inHour = taken.filter((t) => t >= taken[i]! && t < taken[i]! + 3_600_000).length;
      expect(inMinute).toBeLessThanOrEqual(5);
      expect(inHour).toBeLessThanOrEqual(12);
    }
    expect(taken.length).toBeGreaterThanOrEqual(3 * 11); // most of what each hour allows
  });

  it("says how long to wait: until the oldest request leaves the window, or the held deadline", () => {
    const limits = { perMinute: 2, perHour: 100 };
    let state = emptyWindow();
    for (const at of [10_000, 10_500]) {
      const decision = takePlace(state, limits, at);
      expect(decision.taken).toBe(true);
      state = decision.state;
    }
    // The request of second 10 counts until second 71 begins.
    expect(takePlace(state, limits, 20_000)).toMatchObject({ taken: false, waitMs: 51_000 });
    expect(takePlace(state, limits, 71_000).taken).toBe(true);
    const held = { ...emptyWindow(), hold: 90_000 };
    expect(takePlace(held, limits, 80_000)).toMatchObject({ taken: false, waitMs: 10_000 });
  });

  it("shared in the database: writers racing on one key get exactly the limit", async () => {
    const limits = { perMinute: 20, perHour: 1_000 };
    const now = () => 1_800_000_000_000; // one instant: only the per-minute limit decides
    const attempts = await Promise.all(
      Array.from({ length: 30 }, async () => {
        return (await windows.takeKeyPlace("race-key", limits, now)).waitMs;
      }),
    );
    expect(attempts.filter((wait) => wait === 0)).toHaveLength(20);
    expect(attempts.filter((wait) => wait > 0)).toHaveLength(10);
    // Another key has its own window; a held key lets nothing through.
    expect(await windows.takeKeyPlace("other-key", RATE_LIMITS.personal, now)).toMatchObject({
      waitMs: 0,
    });
    await windows.holdKey("other-key", now() + 5_000);
    expect(await windows.takeKeyPlace("other-key", RATE_LIMITS.personal, now)).toMatchObject({
      waitMs: 5_000,
    });
  });

  it("places for requests going together are taken in one statement, all or none", async () => {
    const limits = { perMinute: 3, perHour: 1_000 };
    const now = () => 1_800_000_000_000;
    const take = (places: number) =>
      windows.takeKeyPlace("together-key", limits, now, undefined, places);
    expect((await take(2)).waitMs).toBe(0);
    // One place left: two cannot go, and the one left is not taken by the refusal.
    expect((await take(2)).waitMs).toBeGreaterThan(0);
    expect((await take(1)).waitMs).toBe(0);
    expect((await take(1)).waitMs).toBeGreaterThan(0);
  });
});
