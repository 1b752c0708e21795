/**
 * The fake Shopify serves product metafield definitions (`metafieldDefinitions(ownerType:
 * PRODUCT)` with `metafieldsCount`) and the chosen metafields in the products' bulk export and
 * `nodes(ids:)` re-read, as the 2026-10 schema has them, with the sample store's "specs" set.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapProduct } from "../../app/catalogue/map-product";
import {
  productsFromNodesResponse,
  type ProductsByIdsData,
} from "../../app/catalogue/product-nodes";
import {
  REFERENCED_NAMES_PER_QUERY,
  REFERENCED_NAMES_QUERY,
  REFERENCE_TRANSLATIONS_QUERY,
  PRODUCT_METAFIELD_DEFINITIONS_QUERY,
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  productsByIdsRead,
  MAX_CHOSEN_METAFIELDS,
  type ProductMetafieldDefinitionsData,
} from "../../app/catalogue/queries";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";
import { productMetafieldOffers } from "../../app/shop/product-metafields.server";
import { referenceNamesFor } from "../../app/sync/engine/reference-names.server";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import {
  PRODUCT_IDS_PER_QUERY,
  PRODUCT_NODES_LARGE_PAGE_SIZES,
} from "../../app/sync/live/reread-products.server";
import {
  asMerchant,
  data,
  METAFIELD_DEFINITION_CREATE,
  METAFIELDS_SET,
  exportedProducts as exported,
  userErrorsOf,
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

const CHOSEN = [
  { namespace: "specs", key: "material", name: "Material", type: "single_line_text_field" },
  { namespace: "reviews", key: "rating", name: "Rating", type: "rating" },
];

const exportedProducts = (chosen: readonly { namespace: string; key: string }[]) =>
  exported(shop, chosen);

describe("product metafield definitions", () => {
  it("lists name, namespace, key, type and how many products have a value", async () => {
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      shop,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCT", after: null },
    );
    const byKey = new Map(
      metafieldDefinitions.nodes.map((d) => [`${d.namespace}.${d.key}`, d] as const),
    );
    expect(byKey.get("specs.material")).toMatchObject({
      name: "Material",
      type: { name: "single_line_text_field" },
      metafieldsCount: 3,
    });
    expect(byKey.get("specs.height")).toMatchObject({
      type: { name: "dimension" },
      metafieldsCount: 1,
    });
    expect(byKey.get("reviews.rating")?.metafieldsCount).toBe(2);
    expect(byKey.get("app--4242--loyalty.points_multiplier")?.name).toBe(
      "Loyalty points multiplier",
    );
    expect(metafieldDefinitions.pageInfo.hasNextPage).toBe(false);
  });

  it("is refused without its required ownerType, as Shopify's schema says", async () => {
    const answer = await graphql(shop, "{ metafieldDefinitions(first: 5) { nodes { id } } }");
    expect(JSON.stringify(answer.body.errors)).toContain("ownerType");
  });
});

describe("a definition the merchant creates (metafieldDefinitionCreate)", () => {
  interface Created {
    metafieldDefinitionCreate: {
      createdDefinition: {
        name: string;
        namespace: string;
        key: string;
        type: { name: string };
        access: { storefront: string };
        metafieldsCount: number;
      } | null;
      userErrors: { field: string[]; message: string; code: string }[];
    };
  }
  const create = (definition: Record<string, unknown>) =>
    asMerchant<Created>(shop, METAFIELD_DEFINITION_CREATE, { definition });
  const GOES_WITH = {
    name: "Goes with",
    namespace: "custom",
    key: "goes_with",
    type: "product_reference",
    ownerType: "PRODUCT",
    access: { storefront: "PUBLIC_READ" },
  };

  it("is created as asked, listed with the store's, and counts the values set after it", async () => {
    const created = await create(GOES_WITH);
    expect(created.metafieldDefinitionCreate.userErrors).toEqual([]);
    expect(created.metafieldDefinitionCreate.createdDefinition).toMatchObject({
      name: "Goes with",
      namespace: "custom",
      key: "goes_with",
      type: { name: "product_reference" },
      access: { storefront: "PUBLIC_READ" },
      metafieldsCount: 0,
    });
    const [first, second] = shop.state.products();
    const set = await asMerchant(shop, METAFIELDS_SET, {
      metafields: [
        { ownerId: first!.id, namespace: "custom", key: "goes_with", value: second!.id },
      ],
    });
    expect(userErrorsOf(set)).toEqual([]);
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      shop,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCT", after: null },
    );
    expect(
      metafieldDefinitions.nodes.find((d) => `${d.namespace}.${d.key}` === "custom.goes_with"),
    ).toMatchObject({ name: "Goes with", metafieldsCount: 1 });
  });

  it("is refused, with Shopify's codes, when its key is taken, too short or its type unknown; without storefront access it is not readable there", async () => {
    const codes = async (definition: Record<string, unknown>) =>
      (await create(definition)).metafieldDefinitionCreate.userErrors.map((e) => e.code);
    expect(await codes(GOES_WITH)).toEqual(["TAKEN"]);
    expect(await codes({ ...GOES_WITH, key: "g" })).toEqual(["TOO_SHORT"]);
    expect(await codes({ ...GOES_WITH, key: "goes with" })).toEqual(["INVALID_CHARACTER"]);
    expect(await codes({ ...GOES_WITH, key: "other", type: "list.boolean" })).toEqual([
      "INCLUSION",
    ]);
    const hidden = await create({ ...GOES_WITH, key: "goes_with_too", access: undefined });
    expect(hidden.metafieldDefinitionCreate.createdDefinition?.access.storefront).toBe("NONE");
  });
});

describe("the chosen metafields in the products' export", () => {
  it("come with each product that has one, and only the chosen ones", async () => {
    const products = await exportedProducts(CHOSEN);
    const nano = products.get("ipod-nano")!;
    expect(nano.metafields?.map((m) => `${m.namespace}.${m.key}`).sort()).toEqual([
      "reviews.rating",
      "specs.material",
    ]);
    expect(products.get("burton-custom-freestyle-151")?.metafields).toHaveLength(1);
    const result = mapProduct(nano, { primaryDomain: "shop.example.com", metafields: CHOSEN });
    expect(result.indexable && result.item.attributes).toMatchObject({
      Material: ["Anodised aluminium"],
      Rating: ["4.5 of 5"],
    });
    // Products without a value, and the variants, media and collections, are as before.
    const plain = await exportedProducts([]);
    expect(plain.get("ipod-nano")?.metafields).toBeUndefined();
    const { metafields: _m, ...rest } = nano;
    expect(rest).toEqual(plain.get("ipod-nano"));
  });

  it("are read again by id for live updates, the same as the export's", async () => {
    const products = await exportedProducts(CHOSEN);
    const nano = products.get("ipod-nano")!;
    const read = async ({ query, variables }: ReturnType<typeof productsByIdsRead>) => {
      const answer = await data<ProductsByIdsData>(shop, query, {
        ids: [nano.id],
        ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
        ...variables,
      });
      return productsFromNodesResponse([nano.id], answer).products[0]!;
    };
    const withChosen = await read(productsByIdsRead(CHOSEN));
    const byKey = (p: ShopifyProduct) =>
      Object.fromEntries((p.metafields ?? []).map((m) => [`${m.namespace}.${m.key}`, m.value]));
    expect(byKey(withChosen)).toEqual(byKey(nano));
    expect((await read(productsByIdsRead([]))).metafields).toBeUndefined();
  });

  it("cost at most 1,000 points with the most metafields one may choose, 5 ids a query", async () => {
    const ids = shop.state
      .products()
      .slice(0, PRODUCT_IDS_PER_QUERY)
      .map((product) => product.id);
    const chosen = Array.from({ length: MAX_CHOSEN_METAFIELDS }, (_, i) => ({
      namespace: "specs",
      key: `key${i}`,
    }));
    const { query, variables } = productsByIdsRead(chosen);
    for (const [count, sizes] of [
      [PRODUCT_IDS_PER_QUERY, PRODUCT_NODES_DEFAULT_PAGE_SIZES],
      [1, PRODUCT_NODES_LARGE_PAGE_SIZES],
    ] as const) {
      const answer = await graphql(shop, query, {
        ids: ids.slice(0, count),
        ...sizes,
        ...variables,
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.extensions!.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    }
  });

  it("cost at most 1,000 points with a metaobject reference among the most metafields, at its ids a query", async () => {
    const chosen = [
      ...Array.from({ length: MAX_CHOSEN_METAFIELDS - 1 }, (_, i) => ({
        namespace: "specs",
        key: `key${i}`,
        type: "single_line_text_field",
      })),
      { namespace: "specs", key: "size_chart", type: "metaobject_reference" },
    ];
    const { query, variables, idsPerQuery } = productsByIdsRead(chosen);
    const ids = shop.state
      .products()
      .slice(0, idsPerQuery)
      .map((product) => product.id);
    for (const [count, sizes] of [
      [idsPerQuery!, PRODUCT_NODES_DEFAULT_PAGE_SIZES],
      [1, PRODUCT_NODES_LARGE_PAGE_SIZES],
    ] as const) {
      const answer = await graphql(shop, query, {
        ids: ids.slice(0, count),
        ...sizes,
        ...variables,
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.extensions!.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    }
  });
});

describe("product, variant, collection, page and file references", () => {
  let withReferences: FakeShopify;
  beforeAll(async () => {
    withReferences = await startTestShop({
      store: { files: [DOCS_SHOP], productSpecs: true, metaobjects: true },
    });
  });
  afterAll(() => withReferences.close());

  const REFERENCES = [
    {
      namespace: "custom",
      key: "pairs_well_with",
      name: "Pairs well with",
      type: "product_reference",
    },
    { namespace: "custom", key: "featured_in", name: "Featured in", type: "collection_reference" },
  ];

  it("are read with the product, in the export and the live re-read alike, and sent as what they name", async () => {
    const products = await exported(withReferences, REFERENCES);
    const touch = products.get("ipod-touch")!;
    const nano = withReferences.state.products().find((p) => p.handle === "ipod-nano")!;
    const mapped = mapProduct(touch, { primaryDomain: "shop.example.com", metafields: REFERENCES });
    expect(mapped.indexable && mapped.item.attributes).toMatchObject({
      "Pairs well with": [String(nano.title)],
      "Featured in": [expect.any(String)],
    });
    const { query, variables, idsPerQuery } = productsByIdsRead(REFERENCES);
    expect(idsPerQuery).toBeDefined();
    const answer = await data<ProductsByIdsData>(withReferences, query, {
      ids: [touch.id],
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
      ...variables,
    });
    const reread = productsFromNodesResponse([touch.id], answer).products[0]!;
    expect(
      mapProduct(reread, { primaryDomain: "shop.example.com", metafields: REFERENCES }),
    ).toEqual(mapped);
  });

  it("give nothing once what they name is deleted", async () => {
    const nano = withReferences.state.products().find((p) => p.handle === "ipod-nano")!;
    withReferences.state.deleteProduct(nano.id);
    const touch = (await exported(withReferences, REFERENCES)).get("ipod-touch")!;
    const mapped = mapProduct(touch, { primaryDomain: "shop.example.com", metafields: REFERENCES });
    expect(mapped.indexable && mapped.item.attributes).not.toHaveProperty("Pairs well with");
  });
});

describe("lists of references and a variant's references", () => {
  let store: FakeShopify;
  beforeAll(async () => {
    store = await startTestShop({ store: { files: [DOCS_SHOP], productSpecs: true } });
  });
  afterAll(() => store.close());

  const LISTS = [
    { namespace: "custom", key: "related", name: "Related", type: "list.product_reference" },
    { namespace: "custom", key: "shelves", name: "Shelves", type: "list.collection_reference" },
    {
      namespace: "custom",
      key: "spare",
      name: "Spare part",
      type: "variant_reference",
      owner: "PRODUCTVARIANT" as const,
    },
  ];

  /** The definitions and values a merchant makes in Shopify's admin, through the Admin API. */
  async function defineAndFill() {
    for (const { namespace, key, name, type, owner } of LISTS) {
      const created = await asMerchant(store, METAFIELD_DEFINITION_CREATE, {
        definition: {
          namespace,
          key,
          name,
          type,
          ownerType: owner ?? "PRODUCT",
          access: { storefront: "PUBLIC_READ" },
        },
      });
      expect(userErrorsOf(created)).toEqual([]);
    }
    const byHandle = (handle: string) =>
      store.state.products().find((product) => product.handle === handle)!;
    const nano = byHandle("ipod-nano");
    const touch = byHandle("ipod-touch");
    const board = byHandle("burton-custom-freestyle-151");
    const twoColours = byHandle("burton-custom-freestyle-151-2");
    const collections = [
      ...new Map(
        store.state
          .products()
          .flatMap((product) => product.collections)
          .map((collection) => [String(collection.id), collection]),
      ).values(),
    ].slice(0, 2);
    expect(collections).toHaveLength(2);
    const set = await asMerchant(store, METAFIELDS_SET, {
      metafields: [
        {
          ownerId: nano.id,
          namespace: "custom",
          key: "related",
          type: "list.product_reference",
          value: JSON.stringify([touch.id, board.id, touch.id]),
        },
        {
          ownerId: nano.id,
          namespace: "custom",
          key: "shelves",
          type: "list.collection_reference",
          value: JSON.stringify(collections.map((collection) => collection.id)),
        },
        {
          ownerId: String(nano.variants[0]!.id),
          namespace: "custom",
          key: "spare",
          type: "variant_reference",
          value: String(twoColours.variants[0]!.id),
        },
      ],
    });
    expect(userErrorsOf(set)).toEqual([]);
    return { nano, touch, board, twoColours, collections };
  }

  it("are offered in Settings, and sent as the names of what they reference, export and re-read alike", async () => {
    const { nano, touch, board, twoColours, collections } = await defineAndFill();
    const offers = await productMetafieldOffers(await shopifyAdminClient(store.graphqlUrl));
    for (const { namespace, key } of LISTS) {
      expect(offers.find((offer) => offer.key === `${namespace}.${key}`)?.notOffered).toBeNull();
    }

    const requests: string[] = [];
    const admin = await shopifyAdminClient(store.graphqlUrl);
    const counting: AdminGraphql = {
      graphql: (query, options) => {
        requests.push(query);
        return admin.graphql(query, options);
      },
    };
    const names = referenceNamesFor(counting, LISTS)!;
    const exportedNano = (await exported(store, LISTS)).get("ipod-nano")!;
    await names.learn([exportedNano]);
    // Three ids named (the touch listed twice is asked for once) in one query; known ones are not asked again.
    expect(requests).toHaveLength(1);
    expect(names.names.size).toBe(5);
    await names.learn([exportedNano]);
    expect(requests).toHaveLength(1);

    const document = (product: ShopifyProduct) => {
      const mapped = mapProduct(product, {
        primaryDomain: "shop.example.com",
        metafields: LISTS,
        referenceNames: names,
      });
      if (!mapped.indexable) throw new Error("not indexable");
      return mapped.item;
    };
    const item = document(exportedNano);
    expect(item.attributes.Related).toEqual([String(touch.title), String(board.title)]);
    expect(item.attributes.Shelves).toEqual(collections.map((c) => String(c.title)));
    expect(item.variants?.[0]?.attributes).toEqual({
      "Spare part": [`${String(twoColours.title)} - Blue / 155`],
    });

    const { query, variables } = productsByIdsRead(LISTS);
    const answer = await data<ProductsByIdsData>(store, query, {
      ids: [nano.id],
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
      ...variables,
    });
    const reread = productsFromNodesResponse([nano.id], answer).products[0]!;
    expect(document(reread)).toEqual(item);
  });

  it("leave out what was deleted since, and the names' queries stay within 1,000 points", async () => {
    for (const handle of ["burton-custom-freestyle-151", "burton-custom-freestyle-151-2"]) {
      store.state.deleteProduct(store.state.products().find((p) => p.handle === handle)!.id);
    }
    const nano = (await exported(store, LISTS)).get("ipod-nano")!;
    const names = referenceNamesFor(await shopifyAdminClient(store.graphqlUrl), LISTS)!;
    await names.learn([nano]);
    const mapped = mapProduct(nano, {
      primaryDomain: "shop.example.com",
      metafields: LISTS,
      referenceNames: names,
    });
    if (!mapped.indexable) throw new Error("not indexable");
    expect(mapped.item.attributes.Related).toEqual([
      String(store.state.products().find((p) => p.handle === "ipod-touch")!.title),
    ]);
    expect(mapped.item.variants?.[0]).not.toHaveProperty("attributes");

    // The query's cost is the most its ids could name, whether they exist or not.
    const ids = Array.from(
      { length: REFERENCED_NAMES_PER_QUERY },
      (_, n) => `gid://shopify/ProductVariant/${n + 1}`,
    );
    const answer = await graphql(store, REFERENCED_NAMES_QUERY, { ids });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.extensions!.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    // Their names in a storefront domain's language, as many a query.
    const products = ids.map((id) => id.replace("ProductVariant", "Product"));
    const translated = await graphql(store, REFERENCE_TRANSLATIONS_QUERY, {
      ids: products,
      first: products.length,
      locale: "fr",
    });
    expect(translated.body.errors).toBeUndefined();
    expect(translated.body.extensions!.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
  });
});
