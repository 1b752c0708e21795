/** The fake Admin API over HTTP: authentication, validation, the shop, nodes(ids), metafields. */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  productsFromNodesResponse,
  type ProductsByIdsData,
} from "../../app/catalogue/product-nodes";
import {
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  PRODUCTS_BY_IDS_QUERY,
  SHOP_QUERY,
  type ShopDomainsData,
} from "../../app/catalogue/queries";
import { data, graphql, startTestShop, type FakeShopify } from "./helpers";

const DOCS_SHOP = fileURLToPath(
  new URL("../../dev/sample-store/shopify-docs-shop.jsonl", import.meta.url),
);

let shop: FakeShopify;

beforeAll(async () => {
  shop = await startTestShop({
    store: { files: [DOCS_SHOP], generated: { products: 20, pages: 2, articles: 2, seed: 3 } },
  });
});
afterAll(async () => {
  await shop.close();
});

describe("authentication and routing", () => {
  it("answers 401 with Shopify's body without the access token or with a wrong one", async () => {
    for (const token of [null, "shpat_wrong"]) {
      const answer = await graphql(shop, SHOP_QUERY, undefined, { token });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      });
    }
  });

  it("serves only API version 2026-10", async () => {
    const answer = await fetch(`${shop.url}/admin/api/2025-01/graphql.json`, {
      method: "POST",
      headers: { "X-Shopify-Access-Token": "shpat_fake_token", "Content-Type": "application/json" },
      body: JSON.stringify({ query: SHOP_QUERY }),
    });
    expect(answer.status).toBe(404);
  });

  it("answers 400 when there is no query", async () => {
    const answer = await fetch(shop.graphqlUrl, {
      method: "POST",
      headers: { "X-Shopify-Access-Token": "shpat_fake_token", "Content-Type": "application/json" },
      body: JSON.stringify({ variables: {} }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      errors: { query: "Required parameter missing or invalid" },
    });
  });
});

describe("validation against the 2026-10 schema", () => {
  it("refuses an unknown field with HTTP 200 and Shopify's undefinedField error", async () => {
    const answer = await graphql(shop, "query { shop { name notAField } }");
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      {
        message: "Field 'notAField' doesn't exist on type 'Shop'",
        locations: [{ line: 1, column: 21 }],
        extensions: { code: "undefinedField", typeName: "Shop", fieldName: "notAField" },
      },
    ]);
  });

  it("reports unknown arguments and missing required arguments with their codes", async () => {
    const answer = await graphql(
      shop,
      "{ node { id } products(first: 1, color: RED) { nodes { id } } }",
    );
    const codes = (answer.body.errors as { extensions?: { code?: string } }[]).map(
      (error) => error.extensions?.code,
    );
    expect(codes).toEqual(
      expect.arrayContaining(["missingRequiredArguments", "argumentNotAccepted"]),
    );
  });

  it("reports a syntax error", async () => {
    const answer = await graphql(shop, "{ shop { name ");
    expect(answer.status).toBe(200);
    expect((answer.body.errors as { message: string }[])[0]?.message).toMatch(/Syntax Error/);
  });

  it("refuses a connection without first or last", async () => {
    const answer = await graphql(shop, "{ products { nodes { id } } }");
    expect((answer.body.errors as { message: string }[])[0]?.message).toBe(
      "you must provide one of first or last",
    );
  });

  it("refuses a query above 1000 points with MAX_COST_EXCEEDED", async () => {
    const answer = await graphql(
      shop,
      "{ products(first: 250) { nodes { variants(first: 250) { nodes { id } } } } }",
    );
    const [error] = answer.body.errors as { extensions?: Record<string, unknown> }[];
    expect(error?.extensions).toMatchObject({ code: "MAX_COST_EXCEEDED", maxCost: 1000 });
    expect(error?.extensions?.cost).toBeGreaterThan(1000);
  });
});

describe("shop", () => {
  it("answers the app's SHOP_QUERY with the configured domains, currency and contact email, and its cost", async () => {
    const answer = await graphql<ShopDomainsData>(shop, SHOP_QUERY);
    expect(answer.body.data).toEqual({
      shop: {
        myshopifyDomain: "demo-store.myshopify.com",
        primaryDomain: { host: "demo-store.example.com", url: "https://demo-store.example.com" },
        currencyCode: "EUR",
        email: "owner@demo-store.example.com",
      },
    });
    expect(answer.body.extensions?.cost).toMatchObject({
      requestedQueryCost: 2,
      actualQueryCost: 2,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
  });

  it("resolves other valid fields to values or null", async () => {
    const result = await data<{ shop: Record<string, unknown> }>(
      shop,
      "{ shop { id name ianaTimezone billingAddress { city } } }",
    );
    expect(result.shop).toMatchObject({ id: expect.stringMatching(/^gid:\/\/shopify\/Shop\//) });
    expect(result.shop.billingAddress).toEqual({ city: null });
  });
});

describe("nodes(ids:) with PRODUCTS_BY_IDS_QUERY", () => {
  it("gives what productsFromNodesResponse reads, with deleted ids missing", async () => {
    const [first, second] = shop.state.products();
    const ids = [first!.id, "gid://shopify/Product/1", second!.id];
    const response = await data<ProductsByIdsData>(shop, PRODUCTS_BY_IDS_QUERY, {
      ids,
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
    });
    expect(response.nodes[1]).toBeNull();
    const { products, missing } = productsFromNodesResponse(ids, response);
    expect(missing).toEqual(["gid://shopify/Product/1"]);
    expect(products).toEqual([shop.state.product(first!.id), shop.state.product(second!.id)]);
  });

  it("marks connections cut short by first: as truncated", async () => {
    // Product 1 of a generated store has 100 variants.
    const manyVariants = shop.state.products().find((product) => product.variants.length === 100);
    expect(manyVariants).toBeDefined();
    const ids = [manyVariants!.id];
    const response = await data<ProductsByIdsData>(shop, PRODUCTS_BY_IDS_QUERY, {
      ids,
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
    });
    const [product] = productsFromNodesResponse(ids, response).products;
    expect(product?.truncated).toEqual(["variants"]);
    expect(product?.variants).toEqual(manyVariants!.variants.slice(0, 50));
  });

  it("charges the requested cost of 5 ids below 1000 points and the actual cost by what it returned", async () => {
    const ids = shop.state
      .products()
      .slice(0, 5)
      .map((product) => product.id);
    const answer = await graphql(shop, PRODUCTS_BY_IDS_QUERY, {
      ids,
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
    });
    const cost = answer.body.extensions!.cost;
    expect(cost.requestedQueryCost).toBeGreaterThan(900);
    expect(cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    expect(cost.actualQueryCost).toBeLessThan(cost.requestedQueryCost);
  });

  it("answers an invalid gid with Shopify's coercion error", async () => {
    const answer = await graphql(shop, "query($id: ID!) { node(id: $id) { id } }", { id: "42" });
    expect((answer.body.errors as { message: string }[])[0]?.message).toBe(
      "Invalid global id '42'",
    );
  });
});

describe("metafields", () => {
  const SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { key namespace value type }
      userErrors { field message code }
    }
  }`;
  const READ = `query Read($namespace: String, $key: String!) {
    currentAppInstallation { id metafield(namespace: $namespace, key: $key) { value type } }
  }`;

  it("stores app-data metafields on the AppInstallation and reads them back", async () => {
    const { currentAppInstallation } = await data<{ currentAppInstallation: { id: string } }>(
      shop,
      "{ currentAppInstallation { id } }",
    );
    const value = JSON.stringify({ publishableKey: "svc_pk_test", enabled: true });
    const set = await data<{ metafieldsSet: { metafields: unknown[]; userErrors: unknown[] } }>(
      shop,
      SET,
      {
        metafields: [
          {
            ownerId: currentAppInstallation.id,
            namespace: "$app",
            key: "settings",
            type: "json",
            value,
          },
        ],
      },
    );
    expect(set.metafieldsSet.userErrors).toEqual([]);
    expect(set.metafieldsSet.metafields).toEqual([
      { key: "settings", namespace: expect.stringMatching(/^app--\d+$/), value, type: "json" },
    ]);
    for (const namespace of ["$app", null]) {
      const read = await data<{ currentAppInstallation: { metafield: unknown } }>(shop, READ, {
        namespace,
        key: "settings",
      });
      expect(read.currentAppInstallation.metafield).toEqual({ value, type: "json" });
    }
    expect(shop.state.metafields()).toEqual([
      expect.objectContaining({ ownerId: currentAppInstallation.id, key: "settings", value }),
    ]);
    const missing = await data<{ currentAppInstallation: { metafield: unknown } }>(shop, READ, {
      key: "other",
    });
    expect(missing.currentAppInstallation.metafield).toBeNull();
  });

  it("answers userErrors for an unknown owner and stores nothing", async () => {
    const before = shop.state.metafields().length;
    const set = await data<{ metafieldsSet: { metafields: unknown; userErrors: unknown[] } }>(
      shop,
      SET,
      {
        metafields: [
          { ownerId: shop.state.appInstallationId, key: "fine", type: "boolean", value: "true" },
          {
            ownerId: "gid://shopify/AppInstallation/1",
            key: "settings",
            type: "json",
            value: "{}",
          },
        ],
      },
    );
    expect(set.metafieldsSet.metafields).toBeNull();
    expect(set.metafieldsSet.userErrors).toEqual([
      { field: ["metafields", "1", "ownerId"], message: "Owner does not exist.", code: "INVALID" },
    ]);
    expect(shop.state.metafields()).toHaveLength(before);
  });
});
