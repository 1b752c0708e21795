/**
 * The full sync's stock export fills the stock model (decision 0060): each inventory item whose
 * levels add up to its variant's quantity, as of just before the export began. What a payload or
 * a model read wrote since stays; what the export does not list, or lists unsure, is forgotten.
 * On the run's database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import {
  levelUpsert,
  modelledProducts,
  productsOfKnownItems,
  replaceProductModel,
} from "../../../app/models/stock-model.server";
import { fillStockModelFromExport } from "../../../app/sync/full/stock-model-export.server";
import type { BulkSource } from "../../../app/shopify/bulk-source";

const SHOP = "stock-model-export.myshopify.com";
const OTHER = "stock-model-export-other.myshopify.com";

/** An item's line and its variant's (two lines of the export). */
const item = (
  id: number,
  variant: number,
  product: number,
  quantity: number,
  policy = "DENY",
  tracked = true,
) =>
  [
    JSON.stringify({ id: `gid://shopify/InventoryItem/${id}`, tracked }),
    JSON.stringify({
      id: `gid://shopify/ProductVariant/${variant}`,
      inventoryQuantity: quantity,
      inventoryPolicy: policy,
      product: { id: `gid://shopify/Product/${product}` },
      __parentId: `gid://shopify/InventoryItem/${id}`,
    }),
  ].join("\n");
const level = (itemId: number, location: number, available: number) =>
  JSON.stringify({
    location: { id: `gid://shopify/Location/${location}` },
    quantities: [{ quantity: available }],
    __parentId: `gid://shopify/InventoryItem/${itemId}`,
  });

/** The export's lines, in chunks cut mid-line as a download comes. */
const source = (lines: string[]): BulkSource =>
  async function* chunks() {
    const text = lines.map((line) => `${line}\n`).join("");
    for (let start = 0; start < text.length; start += 37) yield text.slice(start, start + 37);
  };

const quantities = async (productId: string, shop = SHOP) =>
  ((await modelledProducts(shop, [productId])).get(productId) ?? []).map((variant) => ({
    variant: variant.variantId,
    levels: variant.levels
      .map((l) => `${l.locationId}:${l.available}`)
      .sort()
      .join(","),
  }));

const clear = async () => {
  for (const shopDomain of [SHOP, OTHER]) {
    await prisma.stockLevel.deleteMany({ where: { shopDomain } });
    await prisma.stockItem.deleteMany({ where: { shopDomain } });
    await prisma.inventoryItemProduct.deleteMany({ where: { shopDomain } });
  }
};

beforeAll(async () => {
  await prepareAppEnvironment();
});
beforeEach(clear);
afterAll(clear);

describe("the stock export fills the model", () => {
  it("keeps each item with every level, at several locations, and names its product", async () => {
    const fill = await fillStockModelFromExport(
      SHOP,
      source([
        item(11, 101, 1, 7),
        level(11, 1, 5),
        level(11, 2, 2),
        item(12, 102, 1, 0),
        item(21, 201, 2, 3),
        level(21, 1, 3),
      ]),
      new Date(),
    );
    expect(fill).toEqual({ items: 3, modelled: 3, unsure: 0 });
    expect(await quantities("1")).toEqual([
      { variant: "101", levels: "1:5,2:2" },
      { variant: "102", levels: "" },
    ]);
    expect(await quantities("2")).toEqual([{ variant: "201", levels: "1:3" }]);
    expect(await productsOfKnownItems(SHOP, ["11", "12", "21"])).toEqual(
      new Map([
        ["11", "1"],
        ["12", "1"],
        ["21", "2"],
      ]),
    );
    // Another shop's model is its own.
    expect(await quantities("1", OTHER)).toEqual([]);
  });

  it("keeps whether each item is tracked and its variant's policy, as Shopify listed them", async () => {
    await fillStockModelFromExport(
      SHOP,
      source([
        item(11, 101, 1, 0, "CONTINUE", false),
        item(12, 102, 1, 4, "DENY", true),
        level(12, 1, 4),
      ]),
      new Date(),
    );
    const variants = (await modelledProducts(SHOP, ["1"])).get("1") ?? [];
    expect(
      variants
        .map(({ variantId, tracked, inventoryPolicy }) => ({ variantId, tracked, inventoryPolicy }))
        .sort((a, b) => a.variantId.localeCompare(b.variantId)),
    ).toEqual([
      { variantId: "101", tracked: false, inventoryPolicy: "CONTINUE" },
      { variantId: "102", tracked: true, inventoryPolicy: "DENY" },
    ]);
  });

  it("leaves out an item whose levels do not add up to its quantity, and forgets what it kept of it", async () => {
    await replaceProductModel(
      SHOP,
      "1",
      [
        {
          variantId: "101",
          inventoryItemId: "11",
          tracked: true,
          inventoryPolicy: "DENY",
          levels: [{ locationId: "1", available: 4 }],
        },
      ],
      new Date(Date.now() - 60_000),
    );
    const fill = await fillStockModelFromExport(
      SHOP,
      source([item(11, 101, 1, 9), level(11, 1, 5), item(21, 201, 2, 3), level(21, 1, 3)]),
      new Date(),
    );
    expect(fill.modelled).toBe(1);
    expect(await quantities("1")).toEqual([]);
    expect(await quantities("2")).toEqual([{ variant: "201", levels: "1:3" }]);
  });

  it("forgets items the export does not list (a variant deleted), keeps those read since it began", async () => {
    const before = new Date(Date.now() - 60_000);
    const readAt = new Date(Date.now() - 30_000);
    const since = new Date();
    const variant = (id: string, itemId: string, available: number) => ({
      variantId: id,
      inventoryItemId: itemId,
      tracked: true,
      inventoryPolicy: "DENY",
      levels: [{ locationId: "1", available }],
    });
    await replaceProductModel(
      SHOP,
      "1",
      [variant("101", "11", 1), variant("199", "19", 1)],
      before,
    );
    // Read by a live pass after the export began: newer than the export.
    await replaceProductModel(SHOP, "3", [variant("301", "31", 8)], since);
    await fillStockModelFromExport(
      SHOP,
      source([item(11, 101, 1, 2), level(11, 1, 2), item(31, 301, 3, 9), level(31, 1, 9)]),
      readAt,
    );
    expect(await quantities("1")).toEqual([{ variant: "101", levels: "1:2" }]);
    expect(await quantities("3")).toEqual([{ variant: "301", levels: "1:8" }]);
  });

  it("a payload level written since the export began stays; an older one gives way", async () => {
    const readAt = new Date(Date.now() - 10_000);
    await prisma.$executeRaw(
      levelUpsert(SHOP, "11", { locationId: "1", available: 4 }, new Date()),
    );
    await prisma.$executeRaw(
      levelUpsert(SHOP, "21", { locationId: "1", available: 50 }, new Date(readAt.getTime() - 1)),
    );
    await fillStockModelFromExport(
      SHOP,
      source([item(11, 101, 1, 5), level(11, 1, 5), item(21, 201, 2, 3), level(21, 1, 3)]),
      readAt,
    );
    expect(await quantities("1")).toEqual([{ variant: "101", levels: "1:4" }]);
    expect(await quantities("2")).toEqual([{ variant: "201", levels: "1:3" }]);
  });

  it("an item whose level comes after other items' lines is kept whole", async () => {
    const fill = await fillStockModelFromExport(
      SHOP,
      source([
        item(11, 101, 1, 5),
        level(11, 1, 3),
        item(21, 201, 2, 3),
        level(21, 1, 3),
        // Shopify lists a child after its parent, not always right after it.
        level(11, 2, 2),
      ]),
      new Date(),
    );
    expect(fill).toEqual({ items: 2, modelled: 2, unsure: 0 });
    expect(await quantities("1")).toEqual([{ variant: "101", levels: "1:3,2:2" }]);
  });

  it("an item whose level comes after a thousand other items is forgotten, not guessed", async () => {
    const others = Array.from({ length: 1_000 }, (_, n) => item(1_000 + n, 5_000 + n, 50, 0));
    const fill = await fillStockModelFromExport(
      SHOP,
      source([item(11, 101, 1, 5), level(11, 1, 5), ...others, level(11, 2, 0)]),
      new Date(),
    );
    expect(fill).toEqual({ items: 1_001, modelled: 1_000, unsure: 1 });
    expect(await quantities("1")).toEqual([]);
    expect(await quantities("50")).toHaveLength(1_000);
  });

  it("keeps items at many locations whole, however many levels the export holds", async () => {
    const lines = Array.from({ length: 300 }, (_, n) => [
      item(10_000 + n, 20_000 + n, 60 + (n % 3), 30),
      ...Array.from({ length: 30 }, (_, location) => level(10_000 + n, location + 1, 1)),
    ]).flat();
    const fill = await fillStockModelFromExport(SHOP, source(lines), new Date());
    expect(fill).toEqual({ items: 300, modelled: 300, unsure: 0 });
    const models = await modelledProducts(SHOP, ["60", "61", "62"]);
    const levels = [...models.values()].flat().map((variant) => variant.levels.length);
    expect(levels).toHaveLength(300);
    expect(levels.every((count) => count === 30)).toBe(true);
  });

  it("leaves out an item shared by two variants: the model keeps one variant an item", async () => {
    const shared = item(11, 101, 1, 5).split("\n");
    const second = item(11, 102, 1, 5).split("\n")[1]!;
    const fill = await fillStockModelFromExport(
      SHOP,
      source([...shared, second, level(11, 1, 5)]),
      new Date(),
    );
    expect(fill).toEqual({ items: 1, modelled: 0, unsure: 0 });
    expect(await quantities("1")).toEqual([]);
  });

  it("a line that is not JSON stops the fill before it forgets anything", async () => {
    await replaceProductModel(
      SHOP,
      "9",
      [
        {
          variantId: "901",
          inventoryItemId: "91",
          tracked: true,
          inventoryPolicy: "DENY",
          levels: [],
        },
      ],
      new Date(Date.now() - 60_000),
    );
    await expect(
      fillStockModelFromExport(SHOP, source([item(11, 101, 1, 0), "{not json"]), new Date()),
    ).rejects.toThrow("line 3 is not JSON");
    expect(await quantities("9")).toEqual([{ variant: "901", levels: "" }]);
  });
});
