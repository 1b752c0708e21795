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
import { referenceNamesFor } from "../../app/sync/engine/reference-names.server";
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
  it("are offered like the merchant's own, and sent as the names of the entries they reference", async () => {
    const offers = await productMetafieldOffers(admin);
    const color = offers.find((offer) => offer.key === "shopify.color-pattern");
    expect(color).toMatchObject({
      name: "Color",
      type: "list.metaobject_reference",
      owner: "PRODUCT",
      count: 2,
      notOffered: null,
      suggested: "Suggested: shoppers often ask which colours it comes in",
    });
    const chosen = chosenFromOffers(offers, ["shopify.color-pattern"]);
    expect(chosen).toEqual([
      {
        namespace: "shopify",
        key: "color-pattern",
        name: "Color",
        type: "list.metaobject_reference",
      },
    ]);

    const products = await exportedProducts(shop, chosen);
    const referenceNames = referenceNamesFor(admin, chosen)!;
    await referenceNames.learn([...products.values()]);
    expect([...referenceNames.names.values()].sort()).toEqual(["Black", "Green", "Pink", "Red"]);
    expect(referenceNamesFor(admin, [])).toBeUndefined();

    const attributesOf = (handle: string, names = referenceNames) => {
      const result = mapProduct(products.get(handle)!, {
        primaryDomain: "shop.example.com",
        metafields: chosen,
        referenceNames: names,
      });
      return result.indexable ? result.item.attributes : null;
    };
    expect(attributesOf("ipod-touch")?.Color).toEqual(["Black"]);
    expect(attributesOf("ipod-nano")?.Color).toEqual(["Pink", "Red", "Green", "Black"]);
    // An entry deleted since (Shopify answers null for it) is left out; none left: no attribute.
    const blackGone = {
      names: new Map(
        [...referenceNames.names].map(([id, name]) => [id, name === "Black" ? "" : name]),
      ),
      learn: () => Promise.resolve(),
    };
    expect(attributesOf("ipod-touch", blackGone)).not.toHaveProperty("Color");
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
