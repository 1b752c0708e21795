import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  indexableProduct,
  installShop,
  PUBLISHABLE_KEY,
  SECRET_KEYS,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import * as status from "../../../app/sync/live/status.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { saveSettings } from "../../../app/shop/save-settings.server";

type Worker = Awaited<ReturnType<typeof startTestWorker>>;

let env: LiveEnvironment;
let worker: Worker | undefined;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 30 });
  await installShop(env);
}, 120_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  env.emulator.state.clearFaults();
});

afterAll(async () => {
  await env?.close();
});

/** Changes a few products in the store, with their webhooks. */
async function changeProducts(from: number, count: number, tag: string) {
  for (let i = from; i < from + count; i++) {
    env.shopify.state.updateProduct(
      indexableProduct(env, i).id,
      { tags: [tag] },
      { webhook: true },
    );
  }
  await env.shopify.state.settled();
}

const shop = () => env.prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });

describe("a 429 with retryAfter", () => {
  it("sends nothing on the key before retryAfter has passed, then delivers everything", async () => {
    const since = env.emulator.state.requests().length;
    env.emulator.state.injectFault({
      status: 429,
      retryAfter: 1,
      match: { method: "POST", path: "/products/bulk" },
    });
    await changeProducts(0, 5, "rate-limited");
    worker = await startTestWorker();
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);

    const log = env.emulator.state.requests().slice(since);
    const refused = log.findIndex((r) => r.status === 429);
    expect(refused).toBeGreaterThanOrEqual(0);
    const deadline = Date.parse(log[refused]!.at) + 1_000;
    const after = log.slice(refused + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const request of after) expect(Date.parse(request.at)).toBeGreaterThanOrEqual(deadline);
  });
});

describe("a 429 met by another process", () => {
  it("shows its deadline on the dashboard of any process, and nothing is sent on the key before it", async () => {
    const since = env.emulator.state.requests().length;
    env.emulator.state.injectFault({
      status: 429,
      retryAfter: 2,
      match: { method: "POST", path: "/products/bulk" },
    });
    await changeProducts(0, 2, "rate-limited elsewhere");
    // The test worker has pacers of its own: for this process's dashboard it is another process.
    worker = await startTestWorker();
    await waitFor("the 429", () =>
      env.emulator.state
        .requests()
        .slice(since)
        .some((r) => r.status === 429),
    );
    const refusedAt = Date.parse(
      env.emulator.state
        .requests()
        .slice(since)
        .find((r) => r.status === 429)!.at,
    );
    await waitFor(
      "the dashboard to show the wait",
      async () => (await status.liveStatus(SHOP)).pausedUntil !== null,
    );
    const shown = (await status.liveStatus(SHOP)).pausedUntil!.getTime();
    expect(shown).toBeGreaterThanOrEqual(refusedAt + 1_000);
    expect(shown).toBeLessThanOrEqual(refusedAt + 3_000);
    await waitForEmptyOutbox(env, 60_000);
    const after = env.emulator.state
      .requests()
      .slice(since)
      .filter((r) => r.account === ACCOUNT && Date.parse(r.at) > refusedAt);
    for (const request of after) expect(Date.parse(request.at)).toBeGreaterThanOrEqual(shown);
  }, 90_000);
});

describe("a service failing with 5xx for a while", () => {
  it("retries without giving up, shows the retries, and delivers everything once it recovers", async () => {
    env.emulator.state.injectFault({ status: 503, count: 10_000, match: { path: "/products" } });
    await changeProducts(5, 6, "outage");
    worker = await startTestWorker();

    await waitFor("the dashboard to show retries", async () => {
      const live = await status.liveStatus(SHOP);
      return (live.retrying?.count ?? 0) >= 3;
    });
    const during = await status.liveStatus(SHOP);
    expect(during.pending).toBe(6);
    expect(during.retrying?.lastError).toMatch(/SERVICE_UNAVAILABLE|503|failed/i);

    env.emulator.state.clearFaults();
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    const after = await status.liveStatus(SHOP);
    expect(after).toMatchObject({ pending: 0, retrying: null, oldestPendingAt: null });
    expect(after.lastAppliedAt).toBeInstanceOf(Date);
    expect((await shop()).state).toBe("active");
  });
});

describe("a revoked key", () => {
  it("pauses the shop with the reason and resumes by itself once the key works again", async () => {
    env.emulator.state.revokeKey(SECRET_KEYS[0]);
    await changeProducts(11, 3, "revoked");
    worker = await startTestWorker();

    await waitFor("the shop to pause", async () => (await shop()).state === "paused");
    const paused = await shop();
    expect(paused.pauseCode).toBe("UNAUTHORIZED");
    expect(paused.pauseReason).toMatch(/secret key/i);
    expect((await status.liveStatus(SHOP)).pending).toBe(3);

    env.emulator.state.restoreKey(SECRET_KEYS[0]);
    await waitFor("the shop to resume", async () => (await shop()).state === "active");
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
  });

  it("resumes when a new key is saved in Settings", async () => {
    env.emulator.state.revokeKey(SECRET_KEYS[0]);
    await changeProducts(14, 3, "new-key");
    worker = await startTestWorker();
    await waitFor("the shop to pause", async () => (await shop()).state === "paused");

    const saved = await saveSettings(SHOP, await adminFor(SHOP), {
      secretKey: SECRET_KEYS[1],
      publishableKey: PUBLISHABLE_KEY,
      workspaceOverride: "",
      syncProducts: true,
      syncPages: true,
      syncArticles: true,
    });
    expect(saved.ok).toBe(true);
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    expect((await shop()).state).toBe("active");
    const lastWrite = env.emulator.state
      .requests()
      .filter((r) => r.account === ACCOUNT && r.path === "/products/bulk")
      .at(-1);
    expect(lastWrite?.keyHint).toBe("svc_sk_…_two");
  });
});
