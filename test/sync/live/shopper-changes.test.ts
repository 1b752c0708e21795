/**
 * Changes a shopper notices that come without products/update, each with the webhook Shopify
 * really sends, over real HTTP: the fake Admin API sends it, the built app takes it, the worker
 * maps it to products through the Admin API and the emulator's index follows. Also a doubled and
 * a late delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductSnapshot } from "../../../dev/fake-shopify/server";
import {
  indexEqualsStore,
  indexedItem,
  installShop,
  numericId,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitForLiveUpdatesSettled,
  variantsOf,
  type LiveEnvironment,
  forgetStockModelOf,
} from "../../../testkit/live-stack";
import { checkChangedProducts } from "../../../app/sync/live/changed-products-check.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { settleLookups } from "../../../app/sync/live/resolve-lookups.server";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 40, seed: 11 });
  await installShop(env);
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

/** Sellable products whose stock read covers every variant (at most 50): read for stock alone. */
function stockReadable(): ProductSnapshot[] {
  return sellableProducts(env).filter((product) => product.variants.length <= 50);
}

/** Buys every unit of every variant: one inventory_levels/update per variant, nothing else. */
function sellOut(product: ProductSnapshot, options: { webhook?: boolean } = {}) {
  return variantsOf(product)
    .filter((variant) => variant.inventoryQuantity > 0)
    .map((variant) => env.shopify.state.purchase(variant.id, variant.inventoryQuantity, options));
}

const settled = () => waitForLiveUpdatesSettled(env);

describe("stock", () => {
  it("a product with more than 50 variants the stock model does not hold is read for its stock alone, not re-read whole", async () => {
    const product = sellableProducts(env).find((candidate) => candidate.variants.length > 50);
    if (!product) throw new Error("no sellable product with more than 50 variants");
    // Too many variants for a model read: only a full sync's export fills the model with it.
    await forgetStockModelOf(env, [product]);
    env.shopify.state.clearRequests();
    sellOut(product);
    await settled();
    const operations = env.shopify.state.requests().map((request) => request.operationName);
    expect(operations).toContain("ProductStockByIds");
    expect(operations).not.toContain("ProductsByIds");
    expect(indexedItem(env, product.id)?.stock_status).toBe("outofstock");
  });

  it("a product sold out by purchases is outofstock in the index, from what an order sends", async () => {
    const [product] = sellableProducts(env);
    expect(indexedItem(env, product!.id)?.stock_status).toBe("instock");
    env.shopify.state.clearWebhookDeliveries();
    sellOut(product!);
    await settled();
    // Each order: inventory_levels/update and products/update (Shopify's 2026-10 schema).
    expect(
      env.shopify.state
        .webhookDeliveries()
        .map((d) => d.topic)
        .sort(),
    ).toEqual(
      variantsOf(product!)
        .filter((v) => v.inventoryQuantity > 0)
        .flatMap(() => ["inventory_levels/update", "products/update"])
        .sort(),
    );
    expect(indexedItem(env, product!.id)?.stock_status).toBe("outofstock");
  });

  it("a stock-only change of a product the stock model does not know reads the stock, not the whole product, and the index equals a whole re-read", async () => {
    const [product] = stockReadable();
    await forgetStockModelOf(env, [product!]);
    env.shopify.state.clearRequests();
    sellOut(product!);
    await settled();
    const operations = env.shopify.state.requests().map((request) => request.operationName);
    // The stock model reads a product it does not know yet, once; then nothing.
    expect(operations).toContain("ProductStockModel");
    expect(operations).not.toContain("ProductsByIds");
    expect(indexedItem(env, product!.id)?.stock_status).toBe("outofstock");
    // waitForIndexToEqualStore (in settled) compared every product with the store mapped whole.
  });

  it("a sale whose webhooks were lost: the check queues a stock read, not a whole re-read", async () => {
    const [product] = stockReadable();
    await worker.stop();
    sellOut(product!, { webhook: false });
    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 20,
    });
    expect(JSON.parse(check!.items)).toContainEqual(
      expect.objectContaining({ id: numericId(product!.id), action: "updated" }),
    );
    env.shopify.state.clearRequests();
    worker = await startTestWorker();
    await settled();
    const operations = env.shopify.state.requests().map((request) => request.operationName);
    // The check made the stock model forget the product: its stock is read again, not whole.
    expect(operations).toContain("ProductStockModel");
    expect(operations).not.toContain("ProductsByIds");
    expect(indexedItem(env, product!.id)?.stock_status).toBe("outofstock");
  });

  it("many levels of one product cost one read of it", async () => {
    const product = sellableProducts(env).find(
      (candidate) => variantsOf(candidate).filter((v) => v.inventoryQuantity > 1).length >= 2,
    );
    if (!product) throw new Error("no product with two stocked variants");
    await worker.stop();
    env.shopify.state.clearRequests();
    for (const variant of variantsOf(product)) {
      if (variant.inventoryQuantity > 1) {
        env.shopify.state.purchase(variant.id, 1);
        env.shopify.state.purchase(variant.id, 1);
      }
    }
    await env.shopify.state.settled();
    worker = await startTestWorker();
    await settled();
    // A few stock reads (none once the stock model knows the product), never a whole re-read.
    // Known cost: a product the model does not know yet may be read twice in the pass that
    // follows a burst, once for its levels' lookup and once for its orders' products/update
    // (docs/live-updates.md, stock from the payload); never once per level.
    const reads = env.shopify.state
      .requests()
      .filter((request) => request.operationName === "ProductStockModel");
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(env.shopify.state.requests().map((r) => r.operationName)).not.toContain("ProductsByIds");
  });

  it("a doubled delivery (same webhook id) is taken once; a late one changes nothing", async () => {
    const [product] = sellableProducts(env);
    const variant = variantsOf(product!).find((v) => v.inventoryQuantity > 1)!;
    const early = env.shopify.state.purchase(variant.id, 1, { webhook: false });
    const options = { webhookId: "doubled-delivery" };
    const first = await env.shopify.state.sendWebhook(
      "inventory_levels/update",
      early.payload,
      options,
    );
    const second = await env.shopify.state.sendWebhook(
      "inventory_levels/update",
      early.payload,
      options,
    );
    expect([first.status, second.status]).toEqual([200, 200]);
    await settled();
    // The rest sells out; then the first purchase's webhook arrives again, a day late.
    sellOut(env.shopify.state.product(product!.id)!);
    await settled();
    expect(indexedItem(env, product!.id)?.stock_status).toBe("outofstock");
    const late = await env.shopify.state.sendWebhook("inventory_levels/update", early.payload, {
      triggeredAt: new Date(Date.now() - 24 * 3600_000).toISOString(),
    });
    expect(late.status).toBe(200);
    await settled();
    expect(indexedItem(env, product!.id)?.stock_status).toBe("outofstock");
  });
});

describe("stock and another change of the same product", () => {
  it("a purchase and a rename, both delivered: the index has both", async () => {
    const [product] = stockReadable();
    await worker.stop();
    env.shopify.state.updateProduct(
      product!.id,
      { title: "Renamed while selling" },
      { webhook: true },
    );
    sellOut(product!);
    await env.shopify.state.settled();
    worker = await startTestWorker();
    await settled();
    expect(indexedItem(env, product!.id)).toMatchObject({
      name: "Renamed while selling",
      stock_status: "outofstock",
    });
  });

  it("a rename told late (stamped before a purchase already mapped to the product): the rename still reaches the index", async () => {
    const [product] = stockReadable();
    await worker.stop();
    const renamedAt = new Date(Date.now() - 60_000).toISOString();
    env.shopify.state.updateProduct(product!.id, { title: "Renamed, told late" });
    sellOut(product!);
    await env.shopify.state.settled();
    // The worker's first step alone: the purchase's item becomes a stock change of the product.
    await settleLookups({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      startFullSync: async () => false,
    });
    const late = await env.shopify.state.sendWebhook("products/update", product!.id, {
      triggeredAt: renamedAt,
    });
    expect(late.status).toBe(200);
    worker = await startTestWorker();
    await settled();
    expect(indexedItem(env, product!.id)).toMatchObject({
      name: "Renamed, told late",
      stock_status: "outofstock",
    });
  });

  it("a rename told before a newer purchase is mapped: the rename still reaches the index", async () => {
    const [product] = stockReadable();
    await worker.stop();
    const renamedAt = new Date(Date.now() - 60_000).toISOString();
    env.shopify.state.updateProduct(product!.id, { title: "Renamed, then sold" });
    sellOut(product!);
    const told = await env.shopify.state.sendWebhook("products/update", product!.id, {
      triggeredAt: renamedAt,
    });
    expect(told.status).toBe(200);
    await env.shopify.state.settled();
    worker = await startTestWorker();
    await settled();
    expect(indexedItem(env, product!.id)).toMatchObject({
      name: "Renamed, then sold",
      stock_status: "outofstock",
    });
  });

  it("a rename whose webhook was lost, then a purchase: the order's products/update carries the rename", async () => {
    const [product] = stockReadable();
    env.shopify.state.updateProduct(product!.id, { title: "Renamed, never told" });
    env.shopify.state.clearRequests();
    sellOut(product!);
    await settled();
    // Its payload differs from the kept document (the title): the product is re-read whole.
    expect(env.shopify.state.requests().map((r) => r.operationName)).toContain("ProductsByIds");
    expect(indexedItem(env, product!.id)).toMatchObject({
      name: "Renamed, never told",
      stock_status: "outofstock",
    });
  });

  it("a rename whose webhook was lost, then a purchase whose webhooks were lost too: the next check repairs it", async () => {
    const [product] = stockReadable();
    env.shopify.state.updateProduct(product!.id, { title: "Renamed, never told either" });
    sellOut(product!, { webhook: false });
    await checkChangedProducts({ shopDomain: SHOP, admin: await adminFor(SHOP), pollMs: 20 });
    await settled();
    expect(indexedItem(env, product!.id)).toMatchObject({
      name: "Renamed, never told either",
      stock_status: "outofstock",
    });
  });
});

describe("publication", () => {
  it("a product taken off the Online Store leaves the index, and comes back when put back", async () => {
    const [product] = sellableProducts(env);
    env.shopify.state.setPublished(product!.id, false);
    await settled();
    expect(indexedItem(env, product!.id)).toBeUndefined();
    env.shopify.state.setPublished(product!.id, true);
    await settled();
    expect(indexedItem(env, product!.id)).toBeDefined();
  });

  it("taken off and put back with every webhook lost: each time the next check repairs the index", async () => {
    const [product] = sellableProducts(env);
    const check = async () =>
      checkChangedProducts({ shopDomain: SHOP, admin: await adminFor(SHOP), pollMs: 20 });
    env.shopify.state.setPublished(product!.id, false, { webhook: false });
    expect(indexedItem(env, product!.id)).toBeDefined();
    await check();
    await settled();
    expect(indexedItem(env, product!.id)).toBeUndefined();
    env.shopify.state.setPublished(product!.id, true, { webhook: false });
    await check();
    await settled();
    expect(indexedItem(env, product!.id)).toBeDefined();
  });
});

describe("collections", () => {
  function aCollection() {
    const product = env.shopify.state
      .products()
      .find((candidate) => candidate.collections.length > 0 && indexedItem(env, candidate.id));
    if (!product) throw new Error("no indexed product in a collection");
    return (product.collections[0] as { id: string }).id;
  }

  it("a renamed collection renames the category of every product in it", async () => {
    const collection = aCollection();
    const change = env.shopify.state.updateCollection(collection, { title: "Spring Shelf" });
    expect((await change.delivery)?.status).toBe(200);
    await settled();
    const indexed = change.productIds
      .map((id) => indexedItem(env, id))
      .filter((item) => item !== undefined);
    expect(indexed.length).toBeGreaterThan(0);
    for (const item of indexed) expect(JSON.stringify(item)).toContain("Spring Shelf");
  });

  it("a product taken out of a collection on the collection's page loses that category", async () => {
    const product = env.shopify.state
      .products()
      .find((candidate) => candidate.collections.length > 0 && indexedItem(env, candidate.id));
    if (!product) throw new Error("no indexed product in a collection");
    const collection = (product.collections[0] as { id: string }).id;
    // Only collections/update comes, and the product is no longer among the collection's products.
    const change = env.shopify.state.removeFromCollection(collection, product.id);
    expect((await change.delivery)?.status).toBe(200);
    expect(await indexEqualsStore(env)).toBe(false);
    await settled();
    expect(await indexEqualsStore(env)).toBe(true);
  });

  it("a deleted collection leaves the categories of its products, re-read from the ledger's list without a full export", async () => {
    const collection = aCollection();
    const exportsBefore = env.shopify.state.bulkOperations().length;
    const change = env.shopify.state.deleteCollection(collection);
    expect((await change.delivery)?.status).toBe(200);
    expect(await indexEqualsStore(env)).toBe(false);
    await settled();
    expect(await indexEqualsStore(env)).toBe(true);
    // The ledger knows which products the index has in the collection: no bulk export was needed.
    expect(env.shopify.state.bulkOperations().length).toBe(exportsBefore);
  });
});
