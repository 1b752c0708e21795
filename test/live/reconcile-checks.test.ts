/**
 * Lost webhooks never leave the index wrong after the next check: the hourly check of changed
 * products (an `updated_at` bulk export compared with the ledger) repairs lost stock and
 * publication webhooks; the daily full sweep repairs what moves no product's `updated_at` (a
 * collection renamed). Each check is stored with what it repaired, by name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductSnapshot } from "../../dev/fake-shopify/server";
import {
  ACCOUNT,
  indexEqualsStore,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  waitForRunsToFinish,
  WORKSPACE,
  type LiveEnvironment,
} from "./harness";

type CheckModule = typeof import("../../app/sync/shop/reconcile-check.server");

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let checks: CheckModule;
/** Products the tests changed: the check looks a little before the previous one. */
const changedLately: string[] = [];
let admin: Awaited<ReturnType<typeof import("../../app/shopify-admin.server").adminFor>>;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 40, seed: 5 });
  await installShop(env);
  worker = await startTestWorker();
  checks = await import("../../app/sync/shop/reconcile-check.server");
  admin = await (await import("../../app/shopify-admin.server")).adminFor(SHOP);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

interface Variant {
  id: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  inventoryItem: { tracked: boolean };
}

function sellable(index: number): ProductSnapshot {
  const found = env.shopify.state.products().filter((product) => {
    const variants = product.variants as unknown as Variant[];
    return (
      product.status === "ACTIVE" &&
      typeof product.onlineStoreUrl === "string" &&
      variants.every((v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY") &&
      variants.some((v) => v.inventoryQuantity > 0)
    );
  })[index];
  if (!found) throw new Error(`no sellable product #${index}`);
  return found;
}

function indexedItem(productGid: string) {
  return env.emulator.state
    .workspace(ACCOUNT, WORKSPACE)
    ?.products.find((item) => String(item.id) === numericId(productGid));
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
    for (const variant of product.variants as unknown as Variant[]) {
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
    expect(indexedItem(product.id)?.stock_status).toBe("outofstock");
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
    expect(indexedItem(product.id)).toBeUndefined();
  });
});

describe("the full sweep", () => {
  it("repairs a collection renamed whose collections/update was lost, and records it", async () => {
    // A collection none of whose products changed lately (the check looks a little further back).
    const recent = new Set(changedLately);
    const products = env.shopify.state.products();
    const collection = products
      .flatMap((product) => product.collections as { id: string }[])
      .map((candidate) => candidate.id)
      .find(
        (id) =>
          !products.some(
            (product) =>
              recent.has(product.id) &&
              (product.collections as { id: string }[]).some((c) => c.id === id),
          ) &&
          products.some(
            (product) =>
              indexedItem(product.id) &&
              (product.collections as { id: string }[]).some((c) => c.id === id),
          ),
      )!;
    const change = env.shopify.state.updateCollection(
      collection,
      { title: "Lost Rename" },
      { webhook: false },
    );
    // No product's updated_at moved: the hourly check cannot see it.
    expect((await check())!.repaired).toBe(0);
    expect(await indexEqualsStore(env)).toBe(false);

    const { reconcileDueShops } = await import("../../app/sync/shop/reconcile.server");
    const { processLeases } = await import("../../app/models/shop-leases.server");
    expect(await reconcileDueShops(processLeases(), 0)).toEqual([SHOP]);
    await waitForRunsToFinish(env);
    await repaired();
    const [full] = await checks.recordFullChecks(SHOP, admin);
    const indexedHolders = change.productIds.filter((id) => indexedItem(id));
    expect(full).toMatchObject({ kind: "full", repaired: indexedHolders.length });
  });
});
