/**
 * Three faults the flash-sale benchmark showed (issue 28, bench/flash-sale.bench.ts), over real
 * HTTP against the fake Shopify: an inventory
 * item whose product's levels had not been read yet was looked up again with each order, and
 * the hourly check made the stock model forget every product the index showed a few seconds
 * behind the payloads; and a batch whose reads waited out Shopify's throttling sent, after a
 * full sync that ran meanwhile, stock older than the full sync's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductSnapshot } from "../../../dev/fake-shopify/server";
import {
  indexedItem,
  installShop,
  numericId,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  variantsOf,
  waitFor,
  waitForLiveUpdatesSettled,
  writesSince,
  type LiveEnvironment,
  forgetStockModelOf,
} from "../../../testkit/live-stack";
import { checkChangedProducts } from "../../../app/sync/live/changed-products-check.server";
import { settleLookups } from "../../../app/sync/live/resolve-lookups.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import type { AdminGraphql } from "../../../app/shopify/admin-graphql";
import { startShopSync } from "../../../app/sync/full/run-full-sync.server";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 40, seed: 28, logBodies: true });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const operations = () => env.shopify.state.requests().map((request) => request.operationName);

function current(product: ProductSnapshot): ProductSnapshot {
  return env.shopify.state.products().find((candidate) => candidate.id === product.id)!;
}

function stocked(product: ProductSnapshot) {
  const variant = variantsOf(current(product)).find(
    (v) => v.inventoryItem.tracked && v.inventoryQuantity > 1,
  );
  if (!variant) throw new Error(`${product.id} has no tracked stock`);
  return variant;
}

const storeQuantity = (product: ProductSnapshot) =>
  variantsOf(current(product))
    .filter((variant) => variant.inventoryItem.tracked)
    .reduce((sum, variant) => sum + Math.max(0, variant.inventoryQuantity), 0);

/** Products with a tracked variant that has stock, few enough variants for the stock model. */
function onSale(count: number): ProductSnapshot[] {
  const found = sellableProducts(env)
    .filter((product) => product.variants.length <= 50)
    .filter((product) =>
      variantsOf(product).some((v) => v.inventoryItem.tracked && v.inventoryQuantity > 3),
    );
  expect(found.length).toBeGreaterThanOrEqual(count);
  return found.slice(0, count);
}

const settled = () => waitForLiveUpdatesSettled(env);

describe("an inventory item whose product's levels are not read yet", () => {
  it("is looked up once: its next order names the product without asking Shopify again", async () => {
    const [product] = onSale(14).slice(13);
    const variant = stocked(product!);
    // Its items new to the app, as if created since the last full sync's export.
    await forgetStockModelOf(env, [product!]);
    const lookups = () => operations().filter((name) => name === "InventoryItemProducts").length;
    const settle = async () =>
      settleLookups({
        shopDomain: SHOP,
        admin: await adminFor(SHOP),
        startFullSync: () => Promise.resolve(false),
      });
    env.shopify.state.clearRequests();

    env.shopify.state.purchase(variant.id, 1);
    await env.shopify.state.settled();
    await settle();
    expect(lookups()).toBe(1);
    // The product waits for its stock read (a sale's next order may come first).
    env.shopify.state.purchase(variant.id, 1);
    await env.shopify.state.settled();
    await settle();
    expect(lookups()).toBe(1);

    const worker = await startTestWorker();
    try {
      await settled();
    } finally {
      await worker.stop();
    }
    expect(lookups()).toBe(1);
    expect(operations().filter((name) => name === "ProductStockModel")).toHaveLength(1);
    expect(indexedItem(env, product!.id)?.stock_quantity).toBe(storeQuantity(product!));
  });
});

describe("the check of changed products during a sale", () => {
  it("forgets no product whose levels the payloads keep current: no stock read follows", async () => {
    const product = onSale(15)[14]!;
    const worker = await startTestWorker();
    try {
      env.shopify.state.purchase(stocked(product).id, 1);
      await settled();
    } finally {
      await worker.stop();
    }
    // The next order is in the stock model, not yet in the index, when the check exports.
    env.shopify.state.purchase(stocked(product).id, 1);
    await env.shopify.state.settled();
    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 20,
    });
    expect(check?.error).toBeNull();
    env.shopify.state.clearRequests();

    const again = await startTestWorker();
    try {
      await settled();
    } finally {
      await again.stop();
    }
    expect(operations()).toEqual([]);
    expect(indexedItem(env, product.id)?.stock_quantity).toBe(storeQuantity(product));
  });
});

describe("a live batch read before a full sync", () => {
  it("is not sent after it: the index keeps the full sync's newer stock", async () => {
    const [sold, edited] = onSale(17).slice(15);
    const worker = await startTestWorker();
    try {
      env.shopify.state.purchase(stocked(sold!).id, 1);
      await settled();
    } finally {
      await worker.stop();
    }
    // Pending: an order of a product the stock model knows (0 points) and an edit (a re-read).
    env.shopify.state.purchase(stocked(sold!).id, 1);
    env.shopify.state.updateProduct(
      edited!.id,
      { title: "Edited during the sale" },
      { webhook: true },
    );
    await env.shopify.state.settled();

    // While the batch's re-read waits (Shopify's throttling, say), the stock changes again and a
    // full sync exports and sends it.
    let raced = false;
    const slowAdmin = async (shopDomain: string): Promise<AdminGraphql> => {
      const admin = await adminFor(shopDomain);
      return {
        graphql: async (query, options) => {
          if (!raced && query.includes("ProductsByIds")) {
            raced = true;
            env.shopify.state.purchase(stocked(sold!).id, 1);
            await startShopSync(SHOP, "resync");
            await waitFor(
              "the full sync to finish",
              async () => (await env.prisma.syncRun.count({ where: { activeShop: SHOP } })) === 0,
            );
          }
          return admin.graphql(query, options);
        },
      };
    };
    const since = env.emulator.state.requests().length;
    const racing = await startTestWorker({ admin: slowAdmin });
    try {
      await settled();
    } finally {
      await racing.stop();
    }
    expect(raced).toBe(true);
    // Each write of the product carries its stock then: only ever lower, never older.
    const written = writesSince(env, since).flatMap((request) =>
      Object.values((request.body ?? {}) as Record<string, unknown>)
        .filter(Array.isArray)
        .flat()
        .filter((item: { id?: unknown }) => String(item.id) === numericId(sold!.id))
        .map((item: { stock_quantity?: number }) => item.stock_quantity),
    );
    expect(written.length).toBeGreaterThan(0);
    expect(written).toEqual([...written].sort((a, b) => b! - a!));
    expect(indexedItem(env, sold!.id)?.stock_quantity).toBe(storeQuantity(sold!));
    expect(indexedItem(env, edited!.id)?.name).toBe("Edited during the sale");
  });
});
