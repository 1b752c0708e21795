/**
 * After whole re-reads the stock model forgets a product whose read disagrees with it
 * (`forgetModelsUnlike`). The pass reads the models with its ledger, before the re-read
 * (decision 0059); the intake may write a level in between (a purchase's payload). Such a model is
 * only behind the read, not wrong: it must be kept, while a level whose webhook was lost still
 * makes it forget. On the run's database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import type { ShopifyProduct } from "../../../app/catalogue";
import { modelledProducts } from "../../../app/models/stock-model.server";
import { forgetModelsUnlike } from "../../../app/sync/live/restock-products.server";

const SHOP = "forget-models.myshopify.com";

const clear = async () => {
  await prisma.stockLevel.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.stockItem.deleteMany({ where: { shopDomain: SHOP } });
};

/** Product 1, one tracked variant, `available` units at one location, in the model. */
async function modelWith(available: number) {
  await clear();
  const at = new Date("2026-12-05T12:00:00.000Z");
  await prisma.stockItem.create({
    data: {
      shopDomain: SHOP,
      inventoryItemId: "i1",
      productId: "1",
      variantId: "11",
      tracked: true,
      inventoryPolicy: "DENY",
      readAt: at,
    },
  });
  await prisma.stockLevel.create({
    data: { shopDomain: SHOP, inventoryItemId: "i1", locationId: "L1", available, changedAt: at },
  });
}

/** The product as Shopify's whole re-read gives it, with `quantity` units. */
const readWith = (quantity: number) =>
  ({
    id: "gid://shopify/Product/1",
    variants: [
      {
        id: "gid://shopify/ProductVariant/11",
        inventoryQuantity: quantity,
        inventoryPolicy: "DENY",
        inventoryItem: { tracked: true },
      },
    ],
  }) as unknown as ShopifyProduct;

beforeAll(async () => {
  await prepareAppEnvironment();
});
beforeEach(clear);
afterAll(clear);

describe("the model after a whole re-read, read before it", () => {
  it("is kept when a purchase's level came in between: the read and the model now agree", async () => {
    await modelWith(5);
    const before = await modelledProducts(SHOP, ["1"]);
    // The purchase's payload, written by the intake while the pass read Shopify.
    await prisma.stockLevel.update({
      where: {
        shopDomain_inventoryItemId_locationId: {
          shopDomain: SHOP,
          inventoryItemId: "i1",
          locationId: "L1",
        },
      },
      data: { available: 4 },
    });
    await forgetModelsUnlike(SHOP, [readWith(4)], [], { models: before, since: new Set() });
    expect((await modelledProducts(SHOP, ["1"])).get("1")?.[0]?.levels[0]?.available).toBe(4);
  });

  it("is forgotten when the read disagrees with it still: a level whose webhook was lost", async () => {
    await modelWith(5);
    const before = await modelledProducts(SHOP, ["1"]);
    await forgetModelsUnlike(SHOP, [readWith(4)], [], { models: before, since: new Set() });
    expect((await modelledProducts(SHOP, ["1"])).has("1")).toBe(false);
  });

  it("is forgotten for a product Shopify no longer has", async () => {
    await modelWith(5);
    const before = await modelledProducts(SHOP, ["1"]);
    await forgetModelsUnlike(SHOP, [], ["1"], { models: before, since: new Set() });
    expect((await modelledProducts(SHOP, ["1"])).has("1")).toBe(false);
  });
});
