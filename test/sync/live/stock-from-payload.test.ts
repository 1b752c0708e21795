/**
 * Stock from the payload (issue 28, items 1, 2 and 7), over real HTTP: the fake Admin API sends
 * what Shopify sends for an order (inventory_levels/update and products/update, the latter cut
 * to the subscription's include_fields), the built app takes them, the worker computes the stock
 * from the stock model and the emulator's index follows. Admin API points are the fake's own
 * cost accounting (`actualQueryCost` of each request it answered). The install's full sync
 * filled the stock model (its stock export, decision 0060), so no product is read for its first
 * order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductSnapshot } from "../../../dev/fake-shopify/server";
import {
  indexedItem,
  indexedProducts,
  installShop,
  numericId,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  variantsOf,
  waitForLiveUpdatesSettled,
  writesSince,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { enqueueProductUpdates } from "../../../app/models/outbox.server";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 30, seed: 11 });
  await installShop(env);
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

const settled = () => waitForLiveUpdatesSettled(env);

const points = () =>
  env.shopify.state.requests().reduce((sum, request) => sum + (request.actualQueryCost ?? 0), 0);
const operations = () => env.shopify.state.requests().map((request) => request.operationName);

/** The product as the store has it now. */
function current(product: ProductSnapshot): ProductSnapshot {
  return env.shopify.state.products().find((candidate) => candidate.id === product.id)!;
}

/** A variant of the product with stock left. */
function stocked(product: ProductSnapshot) {
  const variant = variantsOf(current(product)).find((v) => v.inventoryQuantity > 0);
  if (!variant) throw new Error(`${product.id} is sold out`);
  return variant;
}

/** What the store says the index's stock_quantity should be: the tracked variants' sum. */
function storeQuantity(product: ProductSnapshot): number {
  return variantsOf(current(product))
    .filter((variant) => variant.inventoryItem.tracked)
    .reduce((sum, variant) => sum + Math.max(0, variant.inventoryQuantity), 0);
}

let products: ProductSnapshot[] = [];

describe("stock from the payload", () => {
  it("after the install's full sync, 50 purchases, each product's first among them, cost 0 Admin API points and the index shows their stock", async () => {
    products = sellableProducts(env)
      .filter((product) => product.variants.length <= 50)
      .filter((product) => variantsOf(product).reduce((s, v) => s + v.inventoryQuantity, 0) > 20)
      .slice(0, 5);
    expect(products.length).toBeGreaterThanOrEqual(3);

    env.shopify.state.clearRequests();
    env.shopify.state.clearWebhookDeliveries();
    // One order after another (answered before the next): this is about points, not intake.
    for (let n = 0; n < 50; n++) {
      const product = products[n % products.length]!;
      await env.shopify.state.purchase(stocked(product).id, 1).delivery;
    }
    await settled();
    const topics = env.shopify.state.webhookDeliveries().map((delivery) => delivery.topic);
    expect(topics.filter((topic) => topic === "inventory_levels/update")).toHaveLength(50);
    expect(topics.filter((topic) => topic === "products/update")).toHaveLength(50);
    expect(
      env.shopify.state
        .webhookDeliveries()
        .filter((d) => d.status !== 200)
        .map((d) => `${d.topic} ${d.status} ${d.error ?? ""}`),
    ).toEqual([]);
    expect(operations()).toEqual([]);
    expect(points()).toBe(0);
    for (const product of products) {
      expect(indexedItem(env, product.id)?.stock_quantity).toBe(storeQuantity(product));
    }
  });

  it("a product with more than 50 variants, which a model read cannot hold, is computed from the export's model at 0 points", async () => {
    const many = sellableProducts(env).find(
      (product) =>
        product.variants.length > 50 &&
        variantsOf(current(product)).some((v) => v.inventoryQuantity > 0),
    );
    expect(many).toBeDefined();
    env.shopify.state.clearRequests();
    await env.shopify.state.purchase(stocked(many!).id, 1).delivery;
    await settled();
    expect(operations()).toEqual([]);
    expect(indexedItem(env, many!.id)?.stock_quantity).toBe(storeQuantity(many!));
  });

  it("a product sold out by purchases is outofstock in the index, at 0 points", async () => {
    const product = products[0]!;
    env.shopify.state.clearRequests();
    for (const variant of variantsOf(current(product))) {
      if (variant.inventoryQuantity > 0) {
        env.shopify.state.purchase(variant.id, variant.inventoryQuantity);
      }
    }
    await settled();
    expect(points()).toBe(0);
    expect(indexedItem(env, product.id)?.stock_status).toBe("outofstock");
    expect(indexedItem(env, product.id)?.stock_quantity).toBe(0);
    const variants = indexedItem(env, product.id)?.variants as { available: boolean }[];
    expect(variants.every((variant) => !variant.available)).toBe(true);
  });

  it("the payload path and a whole re-read give the same document for the same store", async () => {
    const ids = products.map((product) => numericId(product.id));
    const before = new Map(ids.map((id) => [id, indexedItem(env, `gid://shopify/Product/${id}`)]));
    const hashes = indexedProducts(env);
    const writes = env.emulator.state.requests().length;
    env.shopify.state.clearRequests();
    // Whole re-reads of the products the payloads kept current (nodes(ids:), mapped whole).
    await enqueueProductUpdates(SHOP, ids, new Date(), new Date(), "update");
    await settled();
    expect(operations()).toContain("ProductsByIds");
    // Nothing to send: each re-read document hashes as the one the payloads made.
    expect(writesSince(env, writes)).toEqual([]);
    for (const id of ids) {
      expect(indexedItem(env, `gid://shopify/Product/${id}`)).toEqual(before.get(id));
      expect(indexedProducts(env).get(id)).toBe(hashes.get(id));
    }
  });

  it("an order's products/update costs no re-read; an edit's products/update re-reads the product", async () => {
    const product = products[1]!;
    env.shopify.state.clearRequests();
    env.shopify.state.purchase(stocked(product).id, 1);
    await settled();
    expect(operations()).toEqual([]);

    env.shopify.state.updateProduct(
      product.id,
      { title: "Renamed in the admin" },
      { webhook: true },
    );
    await settled();
    expect(operations()).toContain("ProductsByIds");
    expect(indexedItem(env, product.id)?.name).toBe("Renamed in the admin");
  });

  it("a price changed in the admin is not mistaken for an order", async () => {
    const product = products[2]!;
    const variant = variantsOf(current(product))[0]!;
    env.shopify.state.clearRequests();
    env.shopify.state.updateProduct(
      product.id,
      { variants: [{ id: variant.id, price: "1234.50" }] },
      { webhook: true },
    );
    await settled();
    expect(operations()).toContain("ProductsByIds");
    const variants = indexedItem(env, product.id)?.variants as { price: number }[];
    expect(variants[0]?.price).toBe(1234.5);
  });

  it("a level whose webhook was lost is repaired by a whole re-read, which makes the model read again", async () => {
    const product = products[3]!;
    env.shopify.state.purchase(stocked(product).id, 1, { webhook: false });
    // The edit's products/update re-reads the product whole: its stock is the store's again.
    env.shopify.state.updateProduct(
      product.id,
      { title: "Edited after a lost sale" },
      { webhook: true },
    );
    await settled();
    expect(indexedItem(env, product.id)?.stock_quantity).toBe(storeQuantity(product));
    env.shopify.state.clearRequests();
    env.shopify.state.purchase(stocked(product).id, 1);
    await settled();
    // The model forgot the product's levels when the re-read disagreed with it: read again, then
    // right. Which product the item belongs to stays known: no lookup.
    expect(operations()).toEqual(["ProductStockModel"]);
    expect(indexedItem(env, product.id)?.stock_quantity).toBe(storeQuantity(product));
  });
});

describe("an older payload resent with a newer time", () => {
  it("does not hide the newer change: two different payloads are re-read whole", async () => {
    const product = products[4]!;
    const send = (payload: unknown, webhookId: string, triggeredAt: string) =>
      env.shopify.state.sendWebhook("products/update", payload, { webhookId, triggeredAt });
    env.shopify.state.updateProduct(product.id, { title: "First edit" });
    const first = env.shopify.state.productWebhookPayload(product.id);
    await send(first, "first-edit", new Date().toISOString());
    await settled();
    expect(indexedItem(env, product.id)?.name).toBe("First edit");

    // The worker waits while the second edit and the first edit's payload, resent with a later
    // time (Shopify keeps a delivery's time; a sender that does not would do this), come in.
    await worker.stop();
    env.shopify.state.updateProduct(product.id, { title: "Second edit" });
    const second = env.shopify.state.productWebhookPayload(product.id);
    await send(second, "second-edit", new Date().toISOString());
    await send(first, "first-edit-again", new Date().toISOString());
    worker = await startTestWorker();
    await settled();
    expect(indexedItem(env, product.id)?.name).toBe("Second edit");
  });
});
