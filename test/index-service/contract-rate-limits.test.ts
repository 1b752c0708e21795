/** Contract: per-minute and per-hour rate limits in fixed clock windows, per account (§8). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../app/index-service/errors";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor } from "./helpers";

let emulator: RunningEmulator;
let now = 0;
const START = Date.UTC(2025, 2, 10, 12, 0, 5);

beforeAll(async () => {
  emulator = await startEmulator({ tokenDelayMs: 0, now: () => now });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.state.reset();
  now = START;
});

async function spend(count: number, key: string = KEYS.personal) {
  const client = clientFor(emulator, key);
  for (let i = 0; i < count; i += 1) await client.listWebhooks();
  return client;
}

describe("rate limits", () => {
  it("refuses the 101st request in a clock minute on Personal, until the next minute", async () => {
    const client = await spend(100);
    expect(client.usage?.rateLimit.remaining.perMinute).toBe(0);

    const error = await caught(() => client.listWebhooks());
    expect(error).toBeInstanceOf(RateLimitedError);
    // 12:00:05 → the window ends at 12:01:00: 55 s.
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterMs: 55_000 });

    now = Date.UTC(2025, 2, 10, 12, 0, 59, 999);
    expect(await caught(() => client.listWebhooks())).toBeInstanceOf(RateLimitedError);

    now = Date.UTC(2025, 2, 10, 12, 1, 0);
    const next = await client.listWebhooks();
    expect(next.usage?.rateLimit.remaining).toEqual({ perMinute: 99, perHour: 899 });
  });

  it("sends retryAfter in whole seconds in the body and as a Retry-After header", async () => {
    await spend(100);
    now += 30_500;
    const response = await fetch(`${emulator.url}/webhooks`, {
      headers: { Authorization: `Bearer ${KEYS.personal}` },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("25");
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), code: "RATE_LIMITED" },
      retryAfter: 25,
    });
  });

  it("refuses the 1001st request in a clock hour on Personal, until the next hour", async () => {
    let client = clientFor(emulator, KEYS.personal);
    for (let minute = 0; minute < 10; minute += 1) {
      now = Date.UTC(2025, 2, 10, 12, minute, 0);
      client = await spend(100);
    }
    now = Date.UTC(2025, 2, 10, 12, 10, 0);
    const error = (await caught(() => client.listWebhooks())) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(50 * 60_000);
    now = Date.UTC(2025, 2, 10, 13, 0, 0);
    await expect(client.listWebhooks()).resolves.toMatchObject({ status: 200 });
  });

  it("applies each tier's own limit: Starter allows 150 a minute", async () => {
    await spend(150, KEYS.starter);
    expect(await caught(() => clientFor(emulator, KEYS.starter).listWebhooks())).toBeInstanceOf(
      RateLimitedError,
    );
  });

  it("counts per account: both keys of an account share it; other accounts do not", async () => {
    await spend(60, KEYS.personal);
    const browser = clientFor(emulator, KEYS.personalPublishable);
    for (let i = 0; i < 40; i += 1) await browser.search("mug");
    expect(await caught(() => clientFor(emulator, KEYS.personal).search("mug"))).toBeInstanceOf(
      RateLimitedError,
    );
    await expect(clientFor(emulator, KEYS.starter).search("mug")).resolves.toMatchObject({
      status: 200,
    });
  });
});
