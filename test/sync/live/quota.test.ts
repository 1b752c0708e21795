import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  expectedProducts,
  indexableProduct,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  WORKSPACE,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { liveStatus } from "../../../app/sync/live/status.server";
import { nextQuotaReset } from "../../../app/index-service/tiers";

type Worker = Awaited<ReturnType<typeof startTestWorker>>;

const PERSONAL_PRODUCT_QUOTA = 200;
let env: LiveEnvironment;
let worker: Worker | undefined;

beforeAll(async () => {
  // Personal tier with its own quota of 200 products a month; the store fills most of it.
  env = await startLiveEnvironment({
    products: 220,
    account: { tier: "personal", quotas: undefined },
  });
  await installShop(env);
}, 120_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await env?.close();
});

const held = () =>
  env.prisma.pendingChange.findMany({ where: { lastError: { startsWith: "[quota] " } } });

describe("a spent monthly quota", () => {
  it("keeps new products waiting (never dropped), while updates go on, until the plan changes", async () => {
    const indexed = (await expectedProducts(env)).size;
    expect(indexed).toBeLessThan(PERSONAL_PRODUCT_QUOTA);
    const room = PERSONAL_PRODUCT_QUOTA - indexed;
    for (let i = 0; i < room + 2; i++) {
      env.shopify.state.createProduct(
        { title: `New arrival ${i}`, variants: [{ price: "5.00", inventoryQuantity: 1 }] },
        { webhook: true },
      );
    }
    await env.shopify.state.settled();
    worker = await startTestWorker();

    await waitFor("two new products to wait for the quota", async () => {
      const pending = await env.prisma.pendingChange.count();
      return pending === 2 && (await held()).length === 2;
    });
    const status = await liveStatus(SHOP);
    expect(status).toMatchObject({ pending: 2, retrying: null });
    expect(status.pausedUntil).toEqual(nextQuotaReset(new Date()));
    expect((await held())[0]?.lastError).toMatch(/quota of 200 products is used up; it resets on/);

    // An update of an indexed product needs no quota: it is sent.
    const product = indexableProduct(env, 0);
    env.shopify.state.updateProduct(
      product.id,
      { title: "Updated while the quota is spent" },
      { webhook: true },
    );
    await env.shopify.state.settled();
    await waitFor("the update to reach the index", () =>
      (env.emulator.state.workspace(ACCOUNT, WORKSPACE)?.products ?? []).some(
        (p) => p.id === numericId(product.id) && p.name === "Updated while the quota is spent",
      ),
    );
    // The outbox row of the update goes once the send is settled, a moment after the index shows it.
    await waitFor("the update to leave the outbox", async () => {
      return (await env.prisma.pendingChange.count()) === 2;
    });
    expect((await held()).length).toBe(2);
    await worker.stop();

    // A bigger plan: the next try of the waiting products (made often here) succeeds.
    env.emulator.state.setAccount(ACCOUNT, { tier: "starter" });
    worker = await startTestWorker({ quotaProbeEveryMs: 100 });
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    expect((await liveStatus(SHOP)).pausedUntil).toBeNull();
  });
});
