/**
 * The reader of what references read as ids name (decision 0046), against a stand-in for
 * Shopify's answer: it asks only well-formed ids it does not know, 100 a query, keeps a deleted
 * target as unnamed, and forgets what it learnt past its bound rather than grow without one.
 */
import { describe, expect, it } from "vitest";
import type { ShopifyProduct } from "../../../app/catalogue/shopify-types";
import type { AdminGraphql } from "../../../app/shopify/admin-graphql";
import { MAX_KEPT_NAMES, referenceNamesFor } from "../../../app/sync/engine/reference-names.server";

const RELATED = {
  namespace: "custom",
  key: "related",
  name: "Related",
  type: "list.product_reference",
};

function productListing(ids: readonly unknown[]): ShopifyProduct {
  return {
    metafields: [{ ...RELATED, value: JSON.stringify(ids) }],
    variants: [],
  } as unknown as ShopifyProduct;
}

/** Answers `nodes(ids:)` as Shopify does: in order, null for what does not exist (even ids). */
function shopify() {
  const asked: string[][] = [];
  const admin: AdminGraphql = {
    graphql: (_query, options) => {
      const ids = (options?.variables?.ids ?? []) as string[];
      asked.push(ids);
      const nodes = ids.map((id) => {
        const n = Number(id.split("/").pop());
        return n % 2 === 0 ? null : { __typename: "Product", id, title: `Product ${n}` };
      });
      return Promise.resolve(Response.json({ data: { nodes } }));
    },
  };
  return { admin, asked };
}

const gid = (n: number) => `gid://shopify/Product/${n}`;

describe("the names of what references hold", () => {
  it("asks nothing when no chosen metafield holds references read as ids", () => {
    const { admin } = shopify();
    expect(referenceNamesFor(admin, [])).toBeUndefined();
    expect(referenceNamesFor(admin, [{ ...RELATED, type: "product_reference" }])).toBeUndefined();
  });

  it("asks each well-formed id once, 100 a query; a deleted target is known as unnamed", async () => {
    const { admin, asked } = shopify();
    const names = referenceNamesFor(admin, [RELATED])!;
    const products = Array.from({ length: 12 }, (_, p) =>
      productListing(["gid://x", ...Array.from({ length: 19 }, (_, i) => gid(p * 20 + i))]),
    );
    await names.learn(products);
    expect(asked.map((ids) => ids.length)).toEqual([100, 100, 28]);
    expect(asked.flat().every((id) => /^gid:\/\/shopify\/Product\/\d+$/.test(id))).toBe(true);
    expect(names.names.get(gid(1))).toBe("Product 1");
    expect(names.names.get(gid(2))).toBe("");

    await names.learn(products);
    await names.learn([productListing([gid(1), gid(2), gid(999)])]);
    expect(asked.map((ids) => ids.length)).toEqual([100, 100, 28, 1]);
  });

  it("forgets what it learnt rather than keep more than its bound", async () => {
    const { admin } = shopify();
    const names = referenceNamesFor(admin, [RELATED])!;
    const batch = (from: number) =>
      Array.from({ length: 1_000 }, (_, p) =>
        productListing(Array.from({ length: 20 }, (_, i) => gid(from + p * 20 + i))),
      );
    for (let from = 0; from < MAX_KEPT_NAMES + 20_000; from += 20_000) {
      await names.learn(batch(from));
      expect(names.names.size).toBeLessThanOrEqual(MAX_KEPT_NAMES);
    }
    expect(names.names.has(gid(MAX_KEPT_NAMES + 1))).toBe(true);
  });
});
