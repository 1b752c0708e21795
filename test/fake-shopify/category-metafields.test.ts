/**
 * Shopify's standard category metafields (issue 25, item 2): `shopify.color-pattern`, a list of
 * references to the standard `shopify--color-pattern` entries, is offered in Settings like the
 * merchant's own and sent as the named entries ("Pink", "Black"), read from the fake Shopify
 * through the app's own documents (validated against the 2026-10 schema).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapProduct } from "../../app/catalogue/map-product";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";
import { chosenFromOffers, productMetafieldOffers } from "../../app/shop/product-metafields.server";
import {
  metaobjectOffers,
  STANDARD_METAOBJECT_REASON,
} from "../../app/shop/metaobject-definitions.server";
import { readReferencedEntryNames } from "../../app/sync/full/metaobject-entries.server";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { exportedProducts, startTestShop, type FakeShopify } from "./helpers";

const DOCS_SHOP = fileURLToPath(
  new URL("../../dev/sample-store/shopify-docs-shop.jsonl", import.meta.url),
);

let shop: FakeShopify;
let admin: AdminGraphql;
beforeAll(async () => {
  shop = await startTestShop({
    store: { files: [DOCS_SHOP], productSpecs: true, metaobjects: true },
  });
  admin = await shopifyAdminClient(shop.graphqlUrl);
});
afterAll(() => shop.close());

describe("standard category metafields", () => {
  it("are offered with the definition their references name, and sent as those entries' names", async () => {
    const offers = await productMetafieldOffers(admin);
    const color = offers.find((offer) => offer.key === "shopify.color-pattern");
    expect(color).toMatchObject({
      name: "Color",
      type: "list.metaobject_reference",
      owner: "PRODUCT",
      count: 2,
      notOffered: null,
      referenceType: "shopify--color-pattern",
      suggested: "Suggested: shoppers often ask which colours it comes in",
    });
    const chosen = chosenFromOffers(offers, ["shopify.color-pattern"]);
    expect(chosen).toEqual([
      {
        namespace: "shopify",
        key: "color-pattern",
        name: "Color",
        type: "list.metaobject_reference",
        referenceType: "shopify--color-pattern",
      },
    ]);

    const names = await readReferencedEntryNames(admin, chosen);
    expect([...names.values()].sort()).toEqual(["Black", "Green", "Pink", "Red"]);
    expect(await readReferencedEntryNames(admin, [])).toEqual(new Map());

    const products = await exportedProducts(shop, chosen);
    const attributesOf = (handle: string, metaobjectNames?: Map<string, string>) => {
      const result = mapProduct(products.get(handle)!, {
        primaryDomain: "shop.example.com",
        metafields: chosen,
        ...(metaobjectNames ? { metaobjectNames } : {}),
      });
      return result.indexable ? result.item.attributes : null;
    };
    expect(attributesOf("ipod-touch", names)?.Color).toEqual(["Black"]);
    expect(attributesOf("ipod-nano", names)?.Color).toEqual(["Pink", "Red", "Green", "Black"]);
    // An entry deleted since (not among the names read) is left out; none left: no attribute.
    const withoutBlack = new Map([...names].filter(([, name]) => name !== "Black"));
    expect(attributesOf("ipod-touch", withoutBlack)).not.toHaveProperty("Color");
  });

  it("leave the standard definitions out of the metaobjects one may pick as content, saying why", async () => {
    const color = (await metaobjectOffers(admin)).find((o) => o.type === "shopify--color-pattern");
    expect(color).toMatchObject({
      name: "Color",
      count: 4,
      notOffered: STANDARD_METAOBJECT_REASON,
    });
  });
});
