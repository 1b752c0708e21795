/**
 * The fake's products/update payloads (REST Product, cut to the subscription's include_fields)
 * say what its GraphQL products say: for every product of a generated store, the app's payload
 * fingerprint is that of the document mapped from the product, as on Shopify, where the featured
 * media is the one at position 1. Where they differ, each order of the product is taken for an
 * edit and re-read whole (the flash-sale bench found three such products among 1,000).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCurrencyOf, type IndexProduct, type ShopifyProduct } from "../../app/catalogue";
import { documentFingerprint, payloadFingerprint } from "../../app/catalogue/product-payload";
import { catalogueEntry } from "../../app/sync/engine/catalogue-entry";
import { applyIncludeFields, DEFAULT_INCLUDE_FIELDS } from "../../dev/fake-shopify/webhooks";
import { startTestShop, type FakeShopify } from "./helpers";

const DOMAIN = "payloads.example.com";
let shop: FakeShopify;

beforeAll(async () => {
  shop = await startTestShop({
    primaryDomain: DOMAIN,
    store: { generated: { products: 1000, pages: 0, articles: 0, seed: 2028 } },
  });
});
afterAll(() => shop?.close());

describe("a products/update payload of the fake", () => {
  it("has the fingerprint of the product's document, for every indexable product", () => {
    const mapping = { primaryDomain: DOMAIN, ...documentCurrencyOf(shop.state.shop()) };
    const unlike: string[] = [];
    let compared = 0;
    for (const product of shop.state.products()) {
      const entry = catalogueEntry(
        { type: "Product", value: product as unknown as ShopifyProduct },
        mapping,
      );
      if (!entry.indexable) continue;
      compared += 1;
      const payload = applyIncludeFields(
        shop.state.productWebhookPayload(product.id),
        DEFAULT_INCLUDE_FIELDS["products/update"]!,
      );
      if (payloadFingerprint(payload) !== documentFingerprint(entry.item as IndexProduct))
        unlike.push(product.id);
    }
    expect(compared).toBeGreaterThan(500);
    expect(unlike).toEqual([]);
  });
});
