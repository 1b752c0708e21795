import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileSource } from "../../app/shopify/bulk-source";
import type { MapResult } from "../../app/catalogue/index-types";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import { catalogueLines, writeCatalogue } from "../../dev/sample-store/catalogue-generator";
import { collect, shapeProblems } from "./helpers";

const directory = mkdtempSync(join(tmpdir(), "sample-store-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("generated catalogue", () => {
  it("is the same for the same seed and different for another", async () => {
    const options = { products: 500, pages: 20, articles: 20 };
    const a = join(directory, "a.jsonl");
    const b = join(directory, "b.jsonl");
    const c = join(directory, "c.jsonl");
    const summary = await writeCatalogue({ ...options, seed: 42 }, a);
    await writeCatalogue({ ...options, seed: "42" }, b);
    await writeCatalogue({ ...options, seed: 43 }, c);
    expect(sha(a)).toBe(sha(b));
    expect(sha(a)).not.toBe(sha(c));
    expect(summary).toMatchObject({ products: 500, pages: 20, articles: 20 });
    expect(readFileSync(a, "utf8").trimEnd().split("\n")).toHaveLength(summary.lines);
  });

  it("has exactly the fields of the app's export queries on every line", () => {
    const lines = [...catalogueLines({ products: 400, pages: 30, articles: 30, seed: 8 })];
    expect(shapeProblems(lines)).toEqual([]);
    // The check itself notices a line that is not what the query selects.
    expect(shapeProblems(['{"id":"gid://shopify/Product/1","title":"x","extra":1}'])).toContain(
      "gid://shopify/Product/1.extra is not selected",
    );
  });

  it("sends some children after later products, as Shopify may", async () => {
    const path = join(directory, "late.jsonl");
    const summary = await writeCatalogue({ products: 400, seed: 2, lateChildRate: 0.05 }, path);
    const { scan } = await collect(fileSource(path));
    expect(summary.lateChildren).toBeGreaterThan(5);
    expect(scan.lateParents.size).toBe(summary.lateChildren);
  });

  describe("covers the edge cases the sync must handle", async () => {
    const path = join(directory, "edge.jsonl");
    await writeCatalogue({ products: 60, pages: 12, articles: 12, seed: 1 }, path);
    const { items } = await collect(fileSource(path));
    const results = items.map((item) => ({
      item,
      result: mapCatalogueItem(item, { primaryDomain: "sample-store.example" }),
    }));
    const products = results.filter(
      (
        entry,
      ): entry is {
        item: (typeof items)[number];
        result: Extract<MapResult, { kind: "product" }>;
      } => entry.result.kind === "product",
    );
    const indexed = products.flatMap(({ result }) => (result.indexable ? [result.item] : []));

    it("products that must not be indexed, for each reason", () => {
      const reasons = new Set(
        products.flatMap(({ result }) => (result.indexable ? [] : [result.reason])),
      );
      expect([...reasons].sort()).toEqual(["archived", "draft", "unlisted", "unpublished"]);
    });

    it("every stock state, sales, free products and products without images", () => {
      expect(new Set(indexed.map((p) => p.stock_status))).toEqual(
        new Set(["instock", "outofstock", "onbackorder"]),
      );
      expect(indexed.some((p) => p.on_sale && p.sale_price! < p.regular_price!)).toBe(true);
      expect(indexed.some((p) => p.price === 0)).toBe(true);
      expect(indexed.some((p) => p.image === undefined)).toBe(true);
      expect(indexed.some((p) => p.stock_quantity === undefined)).toBe(true);
    });

    it("a product with 100 variants", () => {
      const variantCounts = products.map(({ item }) =>
        item.type === "Product" ? item.value.variants.length : 0,
      );
      expect(Math.max(...variantCounts)).toBe(100);
    });

    it("long HTML with scripts and styles, accents, CJK and emoji", () => {
      const contents = indexed.map((p) => `${p.name} ${p.content}`).join("\n");
      expect(indexed.some((p) => p.content.length > 3000)).toBe(true);
      expect(contents).not.toMatch(/dataLayer|color:#c00|<\w/);
      expect(contents).toMatch(/抹茶/);
      expect(contents).toMatch(/🕯️|🎁/);
      expect(contents).toMatch(/Crème brûlée/);
    });

    it("published and hidden pages and articles", () => {
      const posts = results.filter(({ result }) => result.kind === "post");
      const hidden = posts.filter(({ result }) => !result.indexable);
      expect(hidden.some(({ item }) => item.type === "Page")).toBe(true);
      expect(hidden.some(({ item }) => item.type === "Article")).toBe(true);
      expect(posts.length - hidden.length).toBeGreaterThan(12);
    });
  });
});
