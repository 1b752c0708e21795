import { describe, expect, it } from "vitest";
import { contentHash, stableStringify } from "../../app/catalogue/content-hash";
import {
  articleServiceId,
  numericId,
  pageServiceId,
  productServiceId,
  toGid,
} from "../../app/catalogue/gid";
import { compareProductPriority, type ProductPriorityKey } from "../../app/catalogue/priority";

describe("contentHash", () => {
  const item = {
    id: "1",
    name: "Tea",
    categories: ["A", "B"],
    attributes: { Size: ["S"], Colour: ["Red"] },
  };

  it("is a sha256 hex digest", () => {
    expect(contentHash(item)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not depend on the order fields were set in", () => {
    const reordered = {
      attributes: { Colour: ["Red"], Size: ["S"] },
      categories: ["A", "B"],
      name: "Tea",
      id: "1",
    };
    expect(contentHash(reordered)).toBe(contentHash(item));
  });

  it("changes when any value changes, including order within a list", () => {
    expect(contentHash({ ...item, name: "Tee" })).not.toBe(contentHash(item));
    expect(contentHash({ ...item, categories: ["B", "A"] })).not.toBe(contentHash(item));
  });

  it("treats an absent field and an undefined one alike", () => {
    expect(contentHash({ ...item, image: undefined })).toBe(contentHash(item));
    expect(stableStringify({ b: 1, a: [undefined, "x"] })).toBe('{"a":[null,"x"],"b":1}');
  });
});

describe("ids", () => {
  it("derives the service's ids from gids or bare numbers (as webhooks send them)", () => {
    expect(productServiceId("gid://shopify/Product/632910392")).toBe("632910392");
    expect(productServiceId(632910392)).toBe("632910392");
    expect(pageServiceId("gid://shopify/Page/131092082")).toBe("page-131092082");
    expect(articleServiceId(134645308)).toBe("article-134645308");
    expect(toGid("Product", "632910392")).toBe("gid://shopify/Product/632910392");
    expect(() => numericId("not-an-id")).toThrow();
  });
});

describe("compareProductPriority", () => {
  const key = (
    id: string,
    stock_status: ProductPriorityKey["stock_status"],
    updated_at: string,
  ) => ({
    id,
    stock_status,
    updated_at,
  });

  it("ranks products that can be bought first, then the most recently updated", () => {
    const keys = [
      key("1", "outofstock", "2026-09-01T00:00:00Z"),
      key("2", "instock", "2024-01-01T00:00:00Z"),
      key("3", "onbackorder", "2026-09-02T00:00:00Z"),
      key("4", "instock", "2026-08-01T00:00:00Z"),
      key("5", "outofstock", "2025-01-01T00:00:00Z"),
    ];
    expect(keys.sort(compareProductPriority).map((k) => k.id)).toEqual(["4", "2", "3", "1", "5"]);
  });

  it("breaks ties by numeric id so the order is stable", () => {
    const keys = [
      key("10", "instock", "2026-01-01T00:00:00Z"),
      key("9", "instock", "2026-01-01T00:00:00Z"),
    ];
    expect(keys.sort(compareProductPriority).map((k) => k.id)).toEqual(["9", "10"]);
  });
});
