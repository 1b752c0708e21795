/**
 * Lost webhooks never leave the index wrong after the next check: the hourly check (an
 * `updated_at` bulk export compared with the ledger, the whole catalogue's shapes, the collections
 * changed) repairs lost stock, publication, delete and collection webhooks; the daily full sweep
 * records what it repaired too. Each check is stored with what it repaired, by name.
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
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  waitForResolvedLookups,
  waitForRunsToFinish,
  variantsOf,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import * as checks from "../../../app/sync/live/changed-products-check.server";
import { reconcileDueShops } from "../../../app/sync/full/scheduled-full-sync.server";
import { processLeases } from "../../../app/sync/engine/process-leases.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
/** Products the tests changed: the check looks a little before the previous one. */
const changedLately: string[] = [];
let admin: Awaited<ReturnType<typeof adminFor>>;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 40, seed: 5 });
  await installShop(env);
  worker = await startTestWorker();
  admin = await adminFor(SHOP);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

function sellable(index: number): ProductSnapshot {
  const found = sellableProducts(env)[index];
  if (!found) throw new Error(`no sellable product #${index}`);
  return found;
}

const check = () => checks.checkChangedProducts({ shopDomain: SHOP, admin, pollMs: 20 });

async function repaired() {
  await waitForEmptyOutbox(env);
  await waitForIndexToEqualStore(env);
}

describe("the check of changed products", () => {
  it("repairs a sell-out whose inventory_levels/update webhooks were lost, and names it", async () => {
    const product = sellable(0);
    changedLately.push(product.id);
    for (const variant of variantsOf(product)) {
      if (variant.inventoryQuantity > 0) {
        env.shopify.state.purchase(variant.id, variant.inventoryQuantity, { webhook: false });
      }
    }
    expect(await indexEqualsStore(env)).toBe(false);
    const result = await check();
    expect(result).toMatchObject({ kind: "incremental", repaired: 1, error: null });
    expect(JSON.parse(result!.items)).toEqual([
      { id: numericId(product.id), title: product.title, action: "updated" },
    ]);
    await repaired();
    expect(indexedItem(env, product.id)?.stock_status).toBe("outofstock");
  });

  it("finds no difference when nothing was lost (a doubled check repairs nothing)", async () => {
    const result = await check();
    expect(result).toMatchObject({ repaired: 0, items: "[]" });
    expect(result!.compared).toBeGreaterThan(0);
  });

  it("repairs a product taken off the Online Store whose products/update was lost", async () => {
    const product = sellable(1);
    changedLately.push(product.id);
    env.shopify.state.setPublished(product.id, false, { webhook: false });
    const result = await check();
    expect(JSON.parse(result!.items)).toEqual([
      { id: numericId(product.id), title: product.title, action: "removed" },
    ]);
    await repaired();
    expect(indexedItem(env, product.id)).toBeUndefined();
  });
});

/** An indexed product (active, on the Online Store) that is in a collection, not yet used. */
function indexedInCollection(): { product: ProductSnapshot; collection: string } {
  const recent = new Set(changedLately);
  for (const product of env.shopify.state.products()) {
    const collections = product.collections as { id: string }[];
    if (recent.has(product.id) || !indexedItem(env, product.id) || collections.length === 0)
      continue;
    return { product, collection: collections[0]!.id };
  }
  throw new Error("no indexed product in a collection");
}

/** A collection none of whose products the tests touched, with indexed products in it. */
function untouchedCollection(): string {
  const recent = new Set(changedLately);
  const products = env.shopify.state.products();
  const holds = (product: ProductSnapshot, id: string) =>
    (product.collections as { id: string }[]).some((c) => c.id === id);
  const found = products
    .flatMap((product) => product.collections as { id: string }[])
    .map((candidate) => candidate.id)
    .find(
      (id) =>
        !products.some((product) => recent.has(product.id) && holds(product, id)) &&
        products.some((product) => indexedItem(env, product.id) && holds(product, id)),
    );
  if (!found) throw new Error("no untouched collection");
  return found;
}

describe("what moves no product's updated_at", () => {
  it("repairs a product deleted whose products/delete was lost, named by its indexed title", async () => {
    const { product } = indexedInCollection();
    changedLately.push(product.id);
    expect(env.shopify.state.deleteProduct(product.id, { webhook: false })).toBe(true);
    expect(indexedItem(env, product.id)).toBeDefined();
    const result = await check();
    expect(JSON.parse(result!.items)).toEqual([
      { id: numericId(product.id), title: product.title, action: "removed" },
    ]);
    await repaired();
    expect(indexedItem(env, product.id)).toBeUndefined();
  });

  it("repairs a collection renamed whose collections/update was lost", async () => {
    const collection = untouchedCollection();
    const change = env.shopify.state.updateCollection(
      collection,
      { title: "Lost Rename" },
      { webhook: false },
    );
    expect(await indexEqualsStore(env)).toBe(false);
    const holders = change.productIds.filter((id) => indexedItem(env, id));
    changedLately.push(...change.productIds);
    const result = await check();
    expect(result).toMatchObject({ repaired: holders.length, error: null });
    const items = JSON.parse(result!.items) as { id: string; action: string }[];
    expect(items.map((item) => item.id).sort()).toEqual(holders.map(numericId).sort());
    await repaired();
    for (const id of holders) expect(JSON.stringify(indexedItem(env, id))).toContain("Lost Rename");
  });

  it("repairs a collection deleted whose collections/delete was lost", async () => {
    const collection = untouchedCollection();
    const change = env.shopify.state.deleteCollection(collection, { webhook: false });
    expect(await indexEqualsStore(env)).toBe(false);
    const holders = change.productIds.filter((id) => indexedItem(env, id));
    changedLately.push(...change.productIds);
    const result = await check();
    expect(result).toMatchObject({ repaired: holders.length, error: null });
    await repaired();
  });

  it("repairs a product taken out of a collection on the collection's page, its collections/update lost", async () => {
    const { product, collection } = indexedInCollection();
    changedLately.push(product.id);
    env.shopify.state.removeFromCollection(collection, product.id, { webhook: false });
    expect(await indexEqualsStore(env)).toBe(false);
    const result = await check();
    expect(JSON.parse(result!.items)).toContainEqual({
      id: numericId(product.id),
      title: product.title,
      action: "updated",
    });
    await repaired();
  });
});

describe("the full sweep", () => {
  it("records what it repaired with the items' titles, as it finishes", async () => {
    const { product } = indexedInCollection();
    changedLately.push(product.id);
    env.shopify.state.deleteProduct(product.id, { webhook: false });
    expect(await reconcileDueShops(processLeases(), 0)).toEqual([SHOP]);
    await waitForRunsToFinish(env);
    await repaired();
    const full = await env.prisma.reconcileCheck.findFirst({
      where: { shopDomain: SHOP, kind: "full" },
      orderBy: { startedAt: "desc" },
    });
    expect(full).toMatchObject({ kind: "full", repaired: 1 });
    expect(JSON.parse(full!.items)).toEqual([
      { id: numericId(product.id), title: product.title, action: "removed" },
    ]);
  });

  it("fills in what ledger rows from before the kept collections lack, so a product taken out of a collection is re-read", async () => {
    // Rows as an install before the ledger kept titles and collections left them.
    await env.prisma.indexedItem.updateMany({
      where: { shopDomain: SHOP },
      data: { title: null, collectionIds: null },
    });
    expect(await reconcileDueShops(processLeases(), 0)).toEqual([SHOP]);
    await waitForRunsToFinish(env);
    await repaired();

    const { product, collection } = indexedInCollection();
    changedLately.push(product.id);
    const change = env.shopify.state.removeFromCollection(collection, product.id);
    expect((await change.delivery)?.status).toBe(200);
    expect(await indexEqualsStore(env)).toBe(false);
    await waitForResolvedLookups(env);
    await repaired();
  });
});
