/**
 * The reader of what references read as ids name (decision 0046), against a stand-in for
 * Shopify's answer: it asks only well-formed ids it does not know, 100 a query, keeps a deleted
 * target as unnamed, and forgets what it learnt past its bound rather than grow without one; in a
 * storefront domain's language it takes Shopify's usable translation, else the primary's name.
 */
import { describe, expect, it } from "vitest";
import type { ShopifyProduct } from "../../../app/catalogue/shopify-types";
import type { AdminGraphql } from "../../../app/shopify/admin-graphql";
import {
  MAX_KEPT_NAMES,
  referenceNamesFor,
  referenceNamesIn,
} from "../../../app/sync/engine/reference-names.server";

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

describe("the names of what references hold, in a storefront domain's language", () => {
  const ENTRY = "gid://shopify/Metaobject/7";
  const VARIANT = "gid://shopify/ProductVariant/8";
  const OUTDATED = "gid://shopify/Product/5";
  /** Shopify in English and French: ids' names, and translatableResourcesByIds' answer. */
  function bilingualShopify() {
    const asked: { query: string; ids: string[] }[] = [];
    const english: Record<string, Record<string, unknown>> = {
      [gid(1)]: { __typename: "Product", title: "Backpack" },
      [OUTDATED]: { __typename: "Product", title: "Bottle" },
      [ENTRY]: { __typename: "Metaobject", displayName: "Pink" },
      [VARIANT]: { __typename: "ProductVariant", title: "Blue", product: { title: "Cap" } },
    };
    const admin: AdminGraphql = {
      graphql: (query, options) => {
        const ids = (options?.variables?.ids ?? []) as string[];
        asked.push({ query, ids });
        if (query.includes("translatableResourcesByIds")) {
          expect(options?.variables?.locale).toBe("fr");
          const nodes = ids.flatMap((id) => {
            if (id === gid(1))
              return [
                {
                  resourceId: id,
                  translatableContent: [{ key: "title", value: "Backpack" }],
                  translations: [{ key: "title", value: "Sac à dos", outdated: false }],
                },
              ];
            if (id === OUTDATED)
              return [
                {
                  resourceId: id,
                  translatableContent: [{ key: "title", value: "Bottle" }],
                  translations: [{ key: "title", value: "Gourde", outdated: true }],
                },
              ];
            if (id === ENTRY)
              return [
                {
                  resourceId: id,
                  translatableContent: [
                    { key: "code", value: "pk" },
                    { key: "label", value: "Pink" },
                  ],
                  translations: [
                    { key: "code", value: "rs", outdated: false },
                    { key: "label", value: "Rose", outdated: false },
                  ],
                },
              ];
            return [];
          });
          return Promise.resolve(
            Response.json({ data: { translatableResourcesByIds: { nodes } } }),
          );
        }
        const nodes = ids.map((id) => (english[id] ? { id, ...english[id] } : null));
        return Promise.resolve(Response.json({ data: { nodes } }));
      },
    };
    return { admin, asked };
  }
  const CHOSEN = [
    { namespace: "custom", key: "related", name: "Related", type: "list.product_reference" },
    { namespace: "custom", key: "colours", name: "Colours", type: "list.metaobject_reference" },
    { namespace: "custom", key: "spares", name: "Spares", type: "list.variant_reference" },
  ];
  const holder = {
    metafields: [
      { ...CHOSEN[0]!, value: JSON.stringify([gid(1), OUTDATED]) },
      { ...CHOSEN[1]!, value: JSON.stringify([ENTRY]) },
      { ...CHOSEN[2]!, value: JSON.stringify([VARIANT]) },
    ],
    variants: [],
  } as unknown as ShopifyProduct;

  it("takes Shopify's usable translation of a title or an entry's display field, else the primary's name", async () => {
    const { admin, asked } = bilingualShopify();
    const primary = referenceNamesFor(admin, CHOSEN)!;
    const french = referenceNamesIn(admin, CHOSEN, "fr", primary)!;
    await french.learn([holder]);
    expect(Object.fromEntries(french.names)).toEqual({
      [gid(1)]: "Sac à dos",
      [OUTDATED]: "Bottle",
      [ENTRY]: "Rose",
      [VARIANT]: "Cap - Blue",
    });
    // A variant is no translatable resource: it is not asked for (Shopify would refuse the query).
    const translationsAsked = asked.filter((a) => a.query.includes("translatableResourcesByIds"));
    expect(translationsAsked.flatMap((a) => a.ids).sort()).toEqual(
      [ENTRY, gid(1), OUTDATED].sort(),
    );
    // The primary's names stay the primary's.
    expect(primary.names.get(gid(1))).toBe("Backpack");

    await french.learn([holder]);
    expect(asked).toHaveLength(2);
  });

  it("is needed only when a chosen metafield is a reference", () => {
    const { admin } = bilingualShopify();
    const text = [{ namespace: "s", key: "m", name: "M", type: "single_line_text_field" }];
    expect(referenceNamesIn(admin, text, "fr", undefined)).toBeUndefined();
    const single = [{ namespace: "c", key: "p", name: "P", type: "product_reference" }];
    expect(referenceNamesIn(admin, single, "fr", undefined)).toBeDefined();
  });
});
