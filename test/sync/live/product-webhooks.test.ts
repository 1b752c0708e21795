import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quotaMonthOf } from "../../../app/index-service/tiers";
import {
  ACCOUNT,
  indexableProduct,
  indexEqualsStore,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  writesSince,
  WORKSPACE,
  type LiveEnvironment,
} from "../../../testkit/live-stack";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 40 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const outbox = () => env.prisma.pendingChange.findMany({ orderBy: { productId: "asc" } });

/** Runs the worker until the outbox is empty and the index equals the store, then stops it. */
async function drain() {
  const worker = await startTestWorker();
  try {
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
  } finally {
    await worker.stop();
  }
}

// The product count the service reports after each write (`usage.quota`) is kept for the quota
// the merchant sees in the admin: a live change that leaves the count as the database holds it
// (an update) writes nothing; one that changes it (a new product) writes the new count.
describe("the reported product count", () => {
  const productQuotaRow = () =>
    env.prisma.quotaUsage.findUniqueOrThrow({
      where: {
        shopDomain_month_kind: {
          shopDomain: SHOP,
          month: quotaMonthOf(new Date()),
          kind: "product",
        },
      },
    });
  const indexedNames = () =>
    (env.emulator.state.workspace(ACCOUNT, WORKSPACE)?.products ?? []).map((p) => p.name);

  it("is written when a live change moves it, and not written again when it stays", async () => {
    const before = await productQuotaRow();
    expect(before.used).toBe(indexedNames().length);

    env.shopify.state.createProduct(
      { title: "New arrival", variants: [{ price: "5.00", inventoryQuantity: 1 }] },
      { webhook: true },
    );
    await env.shopify.state.settled();
    await drain();
    expect(indexedNames()).toContain("New arrival");
    const afterNew = await productQuotaRow();
    expect(afterNew.used).toBe(before.used + 1);
    expect(afterNew.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    const product = indexableProduct(env, 0);
    env.shopify.state.updateProduct(product.id, { title: "Renamed" }, { webhook: true });
    await env.shopify.state.settled();
    await drain();
    expect(indexedNames()).toContain("Renamed");
    const afterUpdate = await productQuotaRow();
    expect(afterUpdate.used).toBe(afterNew.used);
    expect(afterUpdate.updatedAt).toEqual(afterNew.updatedAt);
  });
});

describe("receiving products/* webhooks (no worker running)", () => {
  it("records the change in the outbox and answers without asking Shopify or the service", async () => {
    expect(await indexEqualsStore(env)).toBe(true);
    const shopifyCalls = env.shopify.state.requests().length;
    const serviceCalls = env.emulator.state.requests().length;
    const product = indexableProduct(env, 0);
    env.shopify.state.updateProduct(product.id, { title: "A brand new name" });

    const delivery = await env.shopify.state.sendWebhook("products/update", product.id);

    expect(delivery.status).toBe(200);
    expect(await outbox()).toEqual([
      expect.objectContaining({
        shopDomain: SHOP,
        productId: numericId(product.id),
        change: "update",
      }),
    ]);
    expect(env.shopify.state.requests()).toHaveLength(shopifyCalls);
    expect(env.emulator.state.requests()).toHaveLength(serviceCalls);
    expect(await indexEqualsStore(env)).toBe(false);
  });

  it("refuses a delivery whose signature does not match with 401 and records nothing", async () => {
    const before = await outbox();
    const product = indexableProduct(env, 1);
    const delivery = await env.shopify.state.sendWebhook("products/update", product.id, {
      hmac: "bm90IHRoZSByaWdodCBzaWduYXR1cmU=",
    });
    expect(delivery.status).toBe(401);
    expect(await outbox()).toEqual(before);
  });

  it("takes a delivery Shopify sends twice (same webhook id) once", async () => {
    const product = indexableProduct(env, 2);
    const first = await env.shopify.state.sendWebhook("products/update", product.id, {
      webhookId: "delivery-twice",
      triggeredAt: "2026-01-01T10:00:00.000Z",
    });
    await env.prisma.pendingChange.deleteMany({ where: { productId: numericId(product.id) } });
    const again = await env.shopify.state.sendWebhook("products/update", product.id, {
      webhookId: "delivery-twice",
      triggeredAt: "2026-01-01T10:00:00.000Z",
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    // The retry was recognised: the change it carries was not recorded a second time.
    expect(await env.prisma.webhookReceipt.count({ where: { webhookId: "delivery-twice" } })).toBe(
      1,
    );
    expect((await outbox()).map((row) => row.productId)).not.toContain(numericId(product.id));
  });

  it("keeps the newest change when deliveries come out of order", async () => {
    const product = indexableProduct(env, 3);
    const newer = "2026-03-01T12:00:05.000Z";
    await env.shopify.state.sendWebhook(
      "products/delete",
      { id: Number(numericId(product.id)) },
      {
        triggeredAt: newer,
      },
    );
    await env.shopify.state.sendWebhook("products/update", product.id, {
      triggeredAt: "2026-03-01T12:00:00.000Z",
    });
    const row = (await outbox()).find((r) => r.productId === numericId(product.id));
    expect(row).toMatchObject({ change: "delete", changedAt: new Date(newer) });
  });
});

describe("applying the outbox", () => {
  it("ends in the store's state whatever order the deliveries came in", async () => {
    // The out-of-order delete above was stale (the product still exists): it stays indexed, and
    // the renamed product of the first test is sent with its new name.
    await drain();
    const product = indexableProduct(env, 3);
    const workspace = env.emulator.state.workspace("live", "live-store-example-com");
    expect(workspace?.products.map((p) => p.id)).toContain(numericId(product.id));
    expect(workspace?.products.find((p) => p.name === "A brand new name")).toBeDefined();
  });

  it("keeps a deleted product deleted when a late update arrives after the delete", async () => {
    const product = indexableProduct(env, 4);
    const latePayload = env.shopify.state.productWebhookPayload(product.id);
    env.shopify.state.deleteProduct(product.id, { webhook: true });
    await env.shopify.state.settled();
    // The update happened before the delete but is delivered after it.
    await env.shopify.state.sendWebhook("products/update", latePayload, {
      triggeredAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await drain();
    const ids = env.emulator.state
      .workspace("live", "live-store-example-com")
      ?.products.map((p) => p.id);
    expect(ids).not.toContain(numericId(product.id));
  });

  it("applies creates, updates, drafts and deletes; an unchanged product sends nothing", async () => {
    const created = env.shopify.state.createProduct(
      { title: "Created live", variants: [{ price: "12.50", inventoryQuantity: 3 }] },
      { webhook: true },
    );
    env.shopify.state.updateProduct(
      indexableProduct(env, 5).id,
      { tags: ["live"] },
      { webhook: true },
    );
    env.shopify.state.updateProduct(
      indexableProduct(env, 6).id,
      { status: "DRAFT" },
      { webhook: true },
    );
    env.shopify.state.updateProduct(
      indexableProduct(env, 7).id,
      { published: false },
      { webhook: true },
    );
    env.shopify.state.deleteProduct(indexableProduct(env, 8).id, { webhook: true });
    await env.shopify.state.settled();
    await drain();
    const ids = env.emulator.state
      .workspace("live", "live-store-example-com")
      ?.products.map((p) => p.id);
    expect(ids).toContain(numericId(created.id));

    // A products/update whose content the index already holds (e.g. an inventory-only change
    // the index does not carry, or a repeat) is settled without any write.
    const since = env.emulator.state.requests().length;
    await env.shopify.state.sendWebhook("products/update", indexableProduct(env, 9).id);
    await drain();
    expect(writesSince(env, since)).toEqual([]);
  });

  it("coalesces a burst of changes into one bulk request", async () => {
    const since = env.emulator.state.requests().length;
    for (let round = 0; round < 3; round++) {
      for (let i = 10; i < 30; i++) {
        const product = indexableProduct(env, i);
        env.shopify.state.updateProduct(product.id, {
          variants: [{ index: 0, price: (10 + round + i / 100).toFixed(2) }],
        });
        await env.shopify.state.sendWebhook("products/update", product.id);
      }
    }
    expect(await env.prisma.pendingChange.count()).toBe(20);
    await drain();
    expect(writesSince(env, since).map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
      "POST /products/bulk 200",
    ]);
  });
});

describe("a backlog too big to re-read product by product", () => {
  it("becomes a full sync, carried to its end under the worker's own lease", async () => {
    for (let i = 0; i < 12; i++) {
      const product = indexableProduct(env, i);
      env.shopify.state.updateProduct(product.id, { title: `Backlog ${i}` });
      await env.shopify.state.sendWebhook("products/update", product.id);
    }
    // No named holder: the worker takes the process's leases, as in the app server, and the full
    // sync it starts must not wait for a lease the worker itself holds.
    const worker = await startTestWorker({ backlogResyncAt: 5 });
    try {
      await waitForEmptyOutbox(env);
      await waitForIndexToEqualStore(env);
    } finally {
      await worker.stop();
    }
    const run = await env.prisma.syncRun.findFirst({
      where: { shopDomain: SHOP, trigger: "reconcile" },
      orderBy: { startedAt: "desc" },
    });
    expect(run?.state).toBe("succeeded");
  });
});
