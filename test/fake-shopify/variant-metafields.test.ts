/**
 * Variant metafields (issue 25, item 2; docs/decisions/0033): the fake Shopify serves the
 * store's PRODUCTVARIANT definitions and the variants' values, in the products' bulk export and
 * the `nodes(ids:)` re-read as the app asks for them (validated against the 2026-10 schema), and
 * the product document carries them on the right variant and, labelled, on the product.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapProduct } from "../../app/catalogue/map-product";
import type { ChosenMetafield } from "../../app/catalogue/metafield-text";
import {
  productsFromNodesResponse,
  type ProductsByIdsData,
} from "../../app/catalogue/product-nodes";
import {
  MAX_CHOSEN_METAFIELDS,
  MAX_CHOSEN_VARIANT_METAFIELDS,
  PRODUCT_METAFIELD_DEFINITIONS_QUERY,
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  productsByIdsRead,
  type ProductMetafieldDefinitionsData,
} from "../../app/catalogue/queries";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import { PRODUCT_NODES_LARGE_PAGE_SIZES } from "../../app/sync/live/reread-products.server";
import {
  data,
  exportedProducts as exported,
  graphql,
  startTestShop,
  type FakeShopify,
} from "./helpers";

const DOCS_SHOP = fileURLToPath(
  new URL("../../dev/sample-store/shopify-docs-shop.jsonl", import.meta.url),
);

let shop: FakeShopify;
beforeAll(async () => {
  shop = await startTestShop({ store: { files: [DOCS_SHOP], productSpecs: true } });
});
afterAll(() => shop.close());

const FINISH: ChosenMetafield = {
  namespace: "specs",
  key: "finish",
  name: "Colour finish",
  type: "single_line_text_field",
  owner: "PRODUCTVARIANT",
};
const LENGTH: ChosenMetafield = {
  namespace: "specs",
  key: "board_length",
  name: "Board length",
  type: "dimension",
  owner: "PRODUCTVARIANT",
};
const MATERIAL: ChosenMetafield = {
  namespace: "specs",
  key: "material",
  name: "Material",
  type: "single_line_text_field",
};

const exportedProducts = (chosen: readonly ChosenMetafield[]) => exported(shop, chosen);

function documentOf(product: ShopifyProduct, chosen: readonly ChosenMetafield[]) {
  const result = mapProduct(product, { primaryDomain: "shop.example.com", metafields: chosen });
  if (!result.indexable) throw new Error(`${product.handle} is not indexable: ${result.reason}`);
  return result.item;
}

describe("variant metafields", () => {
  it("are listed as the store's PRODUCTVARIANT definitions, counted in variants", async () => {
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      shop,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCTVARIANT", after: null },
    );
    expect(
      metafieldDefinitions.nodes.map((d) => [d.name, `${d.namespace}.${d.key}`, d.metafieldsCount]),
    ).toEqual([
      ["Colour finish", "specs.finish", 4],
      ["Board length", "specs.board_length", 2],
    ]);
  });

  it("are exported with each variant and sent on the right variant and, labelled, on the product", async () => {
    const chosen = [MATERIAL, FINISH, LENGTH];
    const products = await exportedProducts(chosen);
    const nano = documentOf(products.get("ipod-nano")!, chosen);
    expect(nano.variants?.map((v) => [v.title, v.attributes])).toEqual([
      ["Pink", { "Colour finish": ["Satin anodised pink"] }],
      ["Red", { "Colour finish": ["Gloss (PRODUCT)RED"] }],
      ["Green", { "Colour finish": ["Satin anodised green"] }],
      ["Black", { "Colour finish": ["Matte black"] }],
    ]);
    expect(nano.attributes["Colour finish"]).toEqual([
      "Pink: Satin anodised pink",
      "Red: Gloss (PRODUCT)RED",
      "Green: Satin anodised green",
      "Black: Matte black",
    ]);
    expect(nano.attributes.Material).toEqual(["Anodised aluminium"]);
    const board = documentOf(products.get("burton-custom-freestyle-151-2")!, chosen);
    expect(board.variants?.map((v) => v.attributes)).toEqual([
      { "Board length": ["155 cm"] },
      { "Board length": ["159 cm"] },
    ]);
    // A product without values has no attribute and variants without `attributes`, as before.
    const touch = documentOf(products.get("ipod-touch")!, chosen);
    expect(touch.attributes).not.toHaveProperty("Colour finish");
    expect(touch.variants?.every((v) => !("attributes" in v))).toBe(true);
    // Not chosen: the document is as it was without them.
    const plain = documentOf((await exportedProducts([MATERIAL])).get("ipod-nano")!, [MATERIAL]);
    expect(plain.variants?.some((v) => "attributes" in v)).toBe(false);
    expect(plain.attributes).not.toHaveProperty("Colour finish");
  });

  it("are read again by id for live updates, giving the export's very document", async () => {
    const chosen = [MATERIAL, FINISH];
    const nano = (await exportedProducts(chosen)).get("ipod-nano")!;
    const { query, variables } = productsByIdsRead(chosen);
    const answer = await data<ProductsByIdsData>(shop, query, {
      ids: [nano.id],
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
      ...variables,
    });
    const reread = productsFromNodesResponse([nano.id], answer).products[0]!;
    expect(documentOf(reread, chosen)).toEqual(documentOf(nano, chosen));
  });

  it("cost at most 1,000 points a re-read with the most one may choose, at its ids a query and alone with more variants", async () => {
    const ids = shop.state.products().map((product) => product.id);
    for (let variantCount = 1; variantCount <= MAX_CHOSEN_VARIANT_METAFIELDS; variantCount++) {
      for (const reference of [false, true]) {
        const chosen = [
          ...Array.from({ length: MAX_CHOSEN_METAFIELDS - variantCount }, (_, i) => ({
            namespace: "specs",
            key: `key${i}`,
            type: reference && i === 0 ? "metaobject_reference" : "single_line_text_field",
          })),
          ...Array.from({ length: variantCount }, (_, i) => ({
            namespace: "specs",
            key: `variant${i}`,
            type: "single_line_text_field",
            owner: "PRODUCTVARIANT",
          })),
        ];
        const { query, variables, idsPerQuery, largeVariantsFirst } = productsByIdsRead(chosen);
        const costs: number[] = [];
        for (const [count, sizes] of [
          [idsPerQuery!, PRODUCT_NODES_DEFAULT_PAGE_SIZES],
          [1, { ...PRODUCT_NODES_LARGE_PAGE_SIZES, variantsFirst: largeVariantsFirst! }],
        ] as const) {
          const answer = await graphql(shop, query, {
            ids: ids.slice(0, count),
            ...sizes,
            ...variables,
          });
          expect(answer.body.errors).toBeUndefined();
          costs.push(answer.body.extensions!.cost.requestedQueryCost);
        }
        for (const cost of costs) expect(cost).toBeLessThanOrEqual(1000);
      }
    }
  });
});
