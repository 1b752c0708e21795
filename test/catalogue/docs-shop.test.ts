import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileSource } from "../../app/shopify/bulk-source";
import type { IndexPost, IndexProduct, MapResult } from "../../app/catalogue/index-types";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import { docsShopLines, loadDocsShopFixtures } from "../../dev/sample-store/docs-shop";
import { collect, FIXTURES, shapeProblems } from "./helpers";

const REST = join(FIXTURES, "rest-admin");
const COMMITTED = join(
  import.meta.dirname,
  "..",
  "..",
  "dev",
  "sample-store",
  "shopify-docs-shop.jsonl",
);

async function mappedShop() {
  const { items } = await collect(fileSource(COMMITTED));
  const results = items.map((item) => ({
    item,
    result: mapCatalogueItem(item, { primaryDomain: "shop.apple.com" }),
  }));
  const byId = new Map<string, MapResult>(results.map(({ result }) => [result.id, result]));
  return { items, results, byId };
}

function indexed<T extends IndexProduct | IndexPost>(result: MapResult | undefined): T {
  if (!result?.indexable)
    throw new Error(`expected an indexable item, got ${JSON.stringify(result)}`);
  return result.item as T;
}

describe("Shopify's documentation test shop", () => {
  it("is committed exactly as the converter makes it from the fixtures", () => {
    const lines = docsShopLines(loadDocsShopFixtures(REST));
    expect(readFileSync(COMMITTED, "utf8")).toBe(lines.map((line) => `${line}\n`).join(""));
  });

  it("is written in the shape of the app's export queries", () => {
    const lines = readFileSync(COMMITTED, "utf8").trimEnd().split("\n");
    expect(shapeProblems(lines)).toEqual([]);
  });

  it("maps the iPod Nano with its variants, collections and images", async () => {
    const { byId } = await mappedShop();
    const nano = indexed<IndexProduct>(byId.get("632910392"));
    expect(nano).toMatchObject({
      name: "IPod Nano - 8GB",
      url: "https://shop.apple.com/products/ipod-nano",
      price: 199,
      regular_price: 199,
      on_sale: false,
      stock_status: "instock",
      stock_quantity: 100,
      sku: "IPOD2008PINK",
      brands: ["Apple"],
      tags: ["Emotive", "Flash Memory", "MP3", "Music"],
      attributes: { Color: ["Pink", "Red", "Green", "Black"] },
      type: "Cult Products",
      image: "https://cdn.shopify.com/s/files/1/0005/4838/0009/products/ipod-nano.png?v=1735835399",
    });
    expect(nano.categories).toEqual(["Cult Products", "Smart iPods", "IPods", "IPods Two"]);
    expect(nano.content).toMatch(/^It's the small iPod with one very big idea: Video\./);
  });

  it("keeps drafts and products not on the Online Store out of the index", async () => {
    const { byId } = await mappedShop();
    expect(byId.get("1072481050")).toMatchObject({ indexable: false, reason: "draft" });
    expect(byId.get("1072481045")).toMatchObject({ indexable: false, reason: "unpublished" });
    expect(indexed<IndexProduct>(byId.get("921728736")).name).toBe("IPod Touch 8GB");
  });

  it("maps published pages and articles, and holds back hidden ones", async () => {
    const { byId } = await mappedShop();
    expect(indexed<IndexPost>(byId.get("page-169524623"))).toMatchObject({
      title: "Store hours",
      content: "We never close.",
      url: "https://shop.apple.com/pages/store-hours",
      post_type: "page",
    });
    expect(byId.get("page-108828309")).toMatchObject({ indexable: false, reason: "unpublished" });
    expect(indexed<IndexPost>(byId.get("article-134645308"))).toMatchObject({
      title: "get on the train now",
      content: "Do you have an IPod yet?",
      url: "https://shop.apple.com/blogs/apple-blog/get-on-the-train-now",
      author_name: "Dennis",
      tags: ["Announcing"],
      categories: ["Mah Blog"],
      featured_image:
        "https://cdn.shopify.com/s/files/1/0005/4838/0009/articles/imac.jpg?v=1735835399",
    });
    expect(byId.get("article-1051293780")).toMatchObject({
      indexable: false,
      reason: "unpublished",
    });
  });

  it("agrees with the fixtures' own variant and image lists", async () => {
    const { items } = await mappedShop();
    const nano = items.find((item) => item.value.id === "gid://shopify/Product/632910392")
      ?.value as ShopifyProduct;
    const read = (name: string) =>
      JSON.parse(readFileSync(join(REST, `${name}.json`), "utf8")) as {
        response: Record<string, { admin_graphql_api_id: string }[]>;
      }[];
    const variants = read("variant")[0]?.response.variants ?? [];
    const images = read("image")[0]?.response.images ?? [];
    expect(nano.variants.map((v) => v.id).sort()).toEqual(
      variants.map((v) => v.admin_graphql_api_id).sort(),
    );
    expect(nano.media.map((m) => m.id).sort()).toEqual(
      images.map((i) => i.admin_graphql_api_id).sort(),
    );
  });
});
