import { describe, expect, it } from "vitest";
import { contentHash } from "../../app/catalogue/content-hash";
import { mapProduct } from "../../app/catalogue/map-product";
import {
  productsFromNodesResponse,
  type ProductNodeResponse,
} from "../../app/catalogue/product-nodes";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import { catalogueLines } from "../../dev/sample-store/catalogue-generator";
import { bytesSource, collect } from "./helpers";

/** What PRODUCTS_BY_IDS_QUERY returns for a product, with `first:` limits applied. */
function asNodesResponse(product: ShopifyProduct, first = 250): ProductNodeResponse {
  const { variants, collections, media, metafields, ...fields } = product;
  const page = <T>(nodes: T[]) => ({
    nodes: nodes.slice(0, first),
    pageInfo: { hasNextPage: nodes.length > first },
  });
  return {
    __typename: "Product",
    ...fields,
    variants: page(variants),
    collections: page(collections),
    media: page(media),
    ...(metafields ? { metafields: { nodes: metafields } } : {}),
  };
}

async function bulkProducts(count: number): Promise<ShopifyProduct[]> {
  const text = [...catalogueLines({ products: count, seed: 5 })].join("\n");
  const { items } = await collect(bytesSource(text));
  return items.flatMap((item) => (item.type === "Product" ? [item.value] : []));
}

describe("reading products by id for live updates", () => {
  it("gives the same product, mapping and hash as the bulk export", async () => {
    const products = await bulkProducts(40);
    const ids = products.map((product) => product.id);
    const { products: live, missing } = productsFromNodesResponse(ids, {
      nodes: products.map((product) => asNodesResponse(product)),
    });
    expect(missing).toEqual([]);
    expect(live).toEqual(products);
    const context = { primaryDomain: "shop.example.com" };
    for (const [index, product] of live.entries()) {
      const fromBulk = mapProduct(products[index] as ShopifyProduct, context);
      const fromLive = mapProduct(product, context);
      expect(fromLive).toEqual(fromBulk);
      if (fromLive.indexable && fromBulk.indexable) {
        expect(contentHash(fromLive.item)).toBe(contentHash(fromBulk.item));
      }
    }
  });

  it("reports ids Shopify no longer has (deleted products) as missing", async () => {
    const [product] = await bulkProducts(1);
    const deleted = "gid://shopify/Product/404";
    const result = productsFromNodesResponse([deleted, product!.id], {
      nodes: [null, asNodesResponse(product!)],
    });
    expect(result.missing).toEqual([deleted]);
    expect(result.products.map((p) => p.id)).toEqual([product!.id]);
  });

  it("treats an id of another type as missing", () => {
    const result = productsFromNodesResponse(["gid://shopify/ProductVariant/1"], {
      nodes: [{ __typename: "ProductVariant" }],
    });
    expect(result).toEqual({ products: [], missing: ["gid://shopify/ProductVariant/1"] });
  });

  it("marks products whose variants did not all fit in `first:`", async () => {
    const [many] = await bulkProducts(1); // product 0 of the generator has 100 variants
    expect(many!.variants).toHaveLength(100);
    const { products } = productsFromNodesResponse([many!.id], {
      nodes: [asNodesResponse(many!, 50)],
    });
    expect(products[0]?.truncated).toEqual(["variants"]);
    expect(products[0]?.variants).toHaveLength(50);
  });
});
