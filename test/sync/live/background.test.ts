import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import * as configModule from "../../../app/config.server";
import * as background from "../../../app/background.server";

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "on", RECONCILE_EVERY_HOURS: "6" });
});

const base = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com",
};

describe("background work settings", () => {
  it("runs the live worker in the app, checks hourly and reconciles daily unless told otherwise", () => {
    const { background: settings, live } = configModule.readConfig(base);
    expect(settings).toEqual({
      enabled: true,
      liveWorkerInApp: true,
      reconcileEveryHours: 24,
      checkEveryMinutes: 60,
    });
    expect(live).toEqual({ coalesceMs: 3_000, pollMs: 1_000, leaseMs: 60_000 });
  });

  it("reads the switches and refuses values it does not know, naming them", () => {
    const read = configModule.readConfig({
      ...base,
      BACKGROUND_WORK: "off",
      LIVE_WORKER: "separate",
      RECONCILE_EVERY_HOURS: "0",
      RECONCILE_CHECK_EVERY_MINUTES: "5",
      LIVE_COALESCE_MS: "500",
    });
    expect(read.background).toEqual({
      enabled: false,
      liveWorkerInApp: false,
      reconcileEveryHours: 0,
      checkEveryMinutes: 5,
    });
    expect(read.live.coalesceMs).toBe(500);
    expect(() =>
      configModule.readConfig({
        ...base,
        BACKGROUND_WORK: "maybe",
        RECONCILE_EVERY_HOURS: "-1",
        RECONCILE_CHECK_EVERY_MINUTES: "hourly",
      }),
    ).toThrow(
      /BACKGROUND_WORK must be one of on, off[\s\S]*RECONCILE_EVERY_HOURS must be[\s\S]*RECONCILE_CHECK_EVERY_MINUTES must be/,
    );
  });
});

describe("ensureBackgroundWork", () => {
  it("starts once per process, however often the server entry calls it", async () => {
    const first = background.ensureBackgroundWork();
    const second = background.ensureBackgroundWork();
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    expect(first?.worker?.holder).toBe(first?.holder);
    await first?.stop();
  });
});
