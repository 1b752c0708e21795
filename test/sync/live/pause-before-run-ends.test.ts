/**
 * A run the service stops (revoked key) pauses the shop before the run ends, and the Dashboard
 * reads the run under way before the shop: a reader never finds the run over and the shop not
 * paused. The Dashboard stops refreshing once no run is under way, so on that half-written state
 * it showed "connected" until reloaded (test/demo/merchant-settings.test.ts waited 90 s for
 * "Sync is paused" on PostgreSQL, where the run's end took long enough for a read to land there).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  indexableProduct,
  installShop,
  SECRET_KEYS,
  SHOP,
  startLiveEnvironment,
  waitFor,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { resumeShop } from "../../../app/models/shops.server";
import { startShopSync } from "../../../app/sync/full/run-full-sync.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { dashboardOf } from "../../../app/admin/dashboard.server";

type Shops = typeof import("../../../app/models/shops.server");
type Runs = typeof import("../../../app/models/sync-runs.server");

/** Whether the shop was paused as each run ended; the order of the Dashboard's reads. */
const seen = vi.hoisted(() => ({
  finishes: [] as { shopPaused: boolean }[],
  runReadDone: false,
  shopReadBeforeRun: false,
}));

vi.mock("../../../app/models/shops.server", async (importOriginal) => {
  const actual = await importOriginal<Shops>();
  return {
    ...actual,
    findShop(...args: Parameters<Shops["findShop"]>) {
      if (!seen.runReadDone) seen.shopReadBeforeRun = true;
      return actual.findShop(...args);
    },
  };
});

vi.mock("../../../app/models/sync-runs.server", async (importOriginal) => {
  const actual = await importOriginal<Runs>();
  return {
    ...actual,
    async finishRun(...args: Parameters<Runs["finishRun"]>) {
      // Imported here: vi.mock factories are hoisted above the file's imports.
      const prisma = (await import("../../../app/models/db.server")).default;
      const run = await prisma.syncRun.findUniqueOrThrow({ where: { id: args[0] } });
      const shop = await prisma.shop.findUnique({ where: { shopDomain: run.shopDomain } });
      seen.finishes.push({ shopPaused: shop?.state === "paused" });
      return actual.finishRun(...args);
    },
    async unfinishedRun(...args: Parameters<Runs["unfinishedRun"]>) {
      const run = await actual.unfinishedRun(...args);
      seen.runReadDone = true;
      return run;
    },
  };
});

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 12, pages: 1, articles: 1 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  env?.emulator.state.restoreKey(SECRET_KEYS[0]);
  await env?.close();
});

beforeEach(async () => {
  seen.finishes.length = 0;
  env.emulator.state.restoreKey(SECRET_KEYS[0]);
  env.emulator.state.clearFaults();
  await resumeShop(SHOP);
});

/** A Resync as the Dashboard starts it, waited for to its end. */
async function resyncToItsEnd() {
  const run = await startShopSync(SHOP, "resync", {
    checkEveryMs: 50,
    webhookGraceMs: 60_000,
    pollEveryMs: 100,
  });
  await waitFor(
    "the run to end",
    async () =>
      (await env.prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).state !== "running",
  );
  return env.prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
}

describe("a run the service stops pauses the shop before the run ends", () => {
  it("when the key is refused at the run's first request", async () => {
    env.emulator.state.revokeKey(SECRET_KEYS[0]);
    const shop = await resyncToItsEnd();
    expect(shop).toMatchObject({ state: "paused", pauseCode: "UNAUTHORIZED" });
    expect(seen.finishes).toEqual([{ shopPaused: true }]);
  });

  it("when the key is refused while the run sends", async () => {
    env.shopify.state.updateProduct(indexableProduct(env, 0).id, { title: "Sent, then refused" });
    env.emulator.state.injectFault({
      status: 401,
      code: "UNAUTHORIZED",
      message: "API key revoked",
      match: { method: "POST", path: "/products/bulk" },
    });
    const shop = await resyncToItsEnd();
    expect(shop).toMatchObject({ state: "paused", pauseCode: "UNAUTHORIZED" });
    expect(seen.finishes).toEqual([{ shopPaused: true }]);
  });
});

describe("the Dashboard", () => {
  it("reads the run under way before the shop", async () => {
    seen.runReadDone = false;
    seen.shopReadBeforeRun = false;
    await dashboardOf(SHOP, await adminFor(SHOP));
    expect(seen.runReadDone).toBe(true);
    expect(seen.shopReadBeforeRun).toBe(false);
  });
});
