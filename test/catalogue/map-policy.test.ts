import { describe, expect, it } from "vitest";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import { mapShopPolicy, POLICY_CUT_NOTE, POLICY_TEXT_LIMIT } from "../../app/catalogue/map-policy";
import type { ShopifyShopPolicy } from "../../app/catalogue/shopify-types";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import { contentHash } from "../../app/catalogue/content-hash";

const SHOP = { primaryDomain: "shop.example.com" };

// Shaped as `shop { shopPolicies { id type title body url createdAt updatedAt } }` answers in
// Admin API 2026-10 (ShopPolicy: body HTML!, title String!, type ShopPolicyType!, url URL!).
function policy(overrides: Partial<ShopifyShopPolicy> = {}): ShopifyShopPolicy {
  return {
    id: "gid://shopify/ShopPolicy/41000000001",
    type: "REFUND_POLICY",
    title: "Refund policy",
    body: "<h2>Returns</h2><p>You can return an item within <strong>30 days</strong> &amp; get a refund.</p>",
    url: "https://shop.example.com/policies/refund-policy",
    createdAt: "2026-11-01T10:00:00Z",
    updatedAt: "2026-11-02T10:00:00Z",
    ...overrides,
  };
}

describe("a shop policy in the index", () => {
  it("is a page post named as a policy, with its text and the storefront's policy URL", () => {
    const result = mapCatalogueItem({ type: "ShopPolicy", value: policy() }, SHOP);
    expect(result).toEqual({
      kind: "post",
      id: "policy-41000000001",
      indexable: true,
      item: {
        id: "policy-41000000001",
        title: "Refund policy",
        content: "Returns You can return an item within 30 days & get a refund.",
        excerpt: "Returns You can return an item within 30 days & get a refund.",
        url: "https://shop.example.com/policies/refund-policy",
        post_type: "page",
        status: "published",
        tags: [],
        categories: ["policy"],
        updated_at: "2026-11-02T10:00:00Z",
        source: "shopify",
      },
    });
  });

  it("an empty policy (or one of markup and whitespace only) is not indexable", () => {
    for (const body of ["", "   ", "<p> </p><br>", "<script>alert(1)</script>"]) {
      expect(mapShopPolicy(policy({ body }), SHOP)).toEqual({
        kind: "post",
        id: "policy-41000000001",
        indexable: false,
        reason: "unpublished",
      });
    }
  });

  it("a huge HTML body becomes bounded text with a visible note, never raw HTML", () => {
    // Shopify's limit is 512 kB of HTML; a pasted legal archive with scripts, styles and tables.
    const paragraph =
      '<p style="color:red">Section <b>§ 12</b>: returns <a href="javascript:alert(1)">here</a>.</p><script>steal()</script><style>p{}</style>';
    const body = paragraph.repeat(Math.ceil((512 * 1024) / paragraph.length));
    const result = mapShopPolicy(policy({ body }), SHOP);
    expect(result.indexable).toBe(true);
    if (!result.indexable) return;
    expect(result.item.content.length).toBeLessThanOrEqual(POLICY_TEXT_LIMIT);
    expect(result.item.content.endsWith(POLICY_CUT_NOTE)).toBe(true);
    expect(result.item.content).not.toMatch(/<|steal|javascript|color:red/);
    expect(result.item.content.startsWith("Section § 12: returns here.")).toBe(true);
    expect(JSON.stringify(result.item).length).toBeLessThan(POLICY_TEXT_LIMIT * 2);
  });

  it("a URL that is not one falls back to the storefront's /policies/ path", () => {
    const result = mapShopPolicy(policy({ type: "SHIPPING_POLICY", url: "not a url" }), SHOP);
    expect(result.indexable && result.item.url).toBe(
      "https://shop.example.com/policies/shipping-policy",
    );
  });

  it("a policy line without body or title (not Shopify's shape) is skipped or named, never thrown", () => {
    const broken = policy({ body: null as unknown as string });
    expect(mapShopPolicy(broken, SHOP)).toMatchObject({ indexable: false, reason: "unpublished" });
    const untitled = mapShopPolicy(
      policy({ title: null as unknown as string, type: "TERMS_OF_SALE", url: "" }),
      SHOP,
    );
    expect(untitled.indexable && untitled.item).toMatchObject({
      title: "Terms of sale",
      url: "https://shop.example.com/policies/terms-of-sale",
    });
  });

  it("an edit changes the hash; the same text keeps it", () => {
    const hash = (body: string) => {
      const result = mapShopPolicy(policy({ body }), SHOP);
      return result.indexable ? contentHash(result.item) : null;
    };
    expect(hash("<p>30 days</p>")).toBe(hash("<p>30 days</p>"));
    expect(hash("<p>30 days</p>")).not.toBe(hash("<p>14 days</p>"));
  });

  it("policies read as bulk lines are assembled like pages", async () => {
    const lines = [
      policy(),
      policy({ id: "gid://shopify/ShopPolicy/41000000002", type: "SHIPPING_POLICY" }),
    ]
      .map((value) => JSON.stringify(value))
      .join("\n");
    const bulk = await readBulkExport(async function* () {
      yield lines;
    });
    expect(bulk.scan.items.ShopPolicy).toBe(2);
    const types: string[] = [];
    for await (const item of bulk.items()) types.push(`${item.type}:${item.value.id}`);
    expect(types).toEqual([
      "ShopPolicy:gid://shopify/ShopPolicy/41000000001",
      "ShopPolicy:gid://shopify/ShopPolicy/41000000002",
    ]);
  });
});
