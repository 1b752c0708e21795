/**
 * Shopify's cost throttling met through Shopify's own Admin API client (shopify-app-remix's
 * `admin.graphql`), only its transport pointed at the fake Admin API: the client throws a
 * THROTTLED answer, and queryAdmin still waits it out by the answer's throttleStatus.
 */
import { GraphqlQueryError } from "@shopify/shopify-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProductsByIdsData, type ShopDomainsData } from "../../app/catalogue";
import { AdminApiError, queryAdmin, type AdminGraphql } from "../../app/shopify/admin-graphql";
import {
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  PRODUCTS_BY_IDS_QUERY,
  SHOP_QUERY,
} from "../../app/catalogue/queries";
import { startTestShop, type FakeShopify } from "../fake-shopify/helpers";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";

let shop: FakeShopify;
let admin: AdminGraphql;
let clock = Date.UTC(2026, 10, 25);
let ids: string[];
/** The waits queryAdmin asked for; each moves the fake's clock, so the bucket refills. */
let waits: number[] = [];
const sleep = async (ms: number) => {
  waits.push(ms);
  clock += ms;
};

beforeAll(async () => {
  shop = await startTestShop({
    store: { generated: { products: 10, seed: 5 } },
    bucket: { maximumAvailable: 400, restoreRate: 50 },
    now: () => clock,
  });
  admin = await shopifyAdminClient(shop.graphqlUrl);
  ids = shop.state
    .products()
    .slice(1, 3)
    .map((product) => product.id);
});
afterAll(async () => {
  await shop?.close();
});

const productsByIds = { ids: [] as string[], ...PRODUCT_NODES_DEFAULT_PAGE_SIZES };
const throttledFlags = (operation: string) =>
  shop.state
    .requests()
    .filter((entry) => entry.operationName === operation)
    .map((entry) => entry.throttled);

describe("THROTTLED through Shopify's own client", () => {
  it("the client throws Shopify's THROTTLED answer, throttle status included", async () => {
    shop.state.throttleNextRequests(1);
    const thrown = await admin.graphql(SHOP_QUERY).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(GraphqlQueryError);
    const body = (thrown as GraphqlQueryError).body as {
      errors: { graphQLErrors: unknown[] };
      extensions: { cost: { throttleStatus: unknown } };
    };
    expect(body.errors.graphQLErrors).toEqual([
      expect.objectContaining({
        message: "Throttled",
        extensions: expect.objectContaining({ code: "THROTTLED" }),
      }),
    ]);
    expect(body.extensions.cost.throttleStatus).toEqual({
      maximumAvailable: 400,
      currentlyAvailable: 400,
      restoreRate: 50,
    });
  });

  it("queryAdmin waits until the bucket holds the query's cost, then the same request succeeds", async () => {
    waits = [];
    shop.state.setAvailablePoints(100);
    const data = await queryAdmin<ProductsByIdsData>(
      admin,
      PRODUCTS_BY_IDS_QUERY,
      { ...productsByIds, ids },
      { sleep },
    );
    expect(data.nodes.map((node) => (node && "id" in node ? node.id : null))).toEqual(ids);
    // The query costs 372 points, 100 are left, 50 come back a second: 5.44 s.
    expect(waits).toEqual([5440]);
    expect(throttledFlags("ProductsByIds")).toEqual([true, false]);
  });

  it("waits out several THROTTLED answers in a row (readShopInfo's query too)", async () => {
    waits = [];
    shop.state.throttleNextRequests(3);
    const data = await queryAdmin<ShopDomainsData>(admin, SHOP_QUERY, undefined, { sleep });
    expect(data.shop.primaryDomain.host).toBeTruthy();
    expect(waits).toHaveLength(3);
    expect(throttledFlags("ShopDomains").slice(-4)).toEqual([true, true, true, false]);
  });

  it("gives up after the bounded number of waits with an error that says Shopify kept throttling", async () => {
    waits = [];
    const before = throttledFlags("ShopDomains").length;
    shop.state.throttleNextRequests(4);
    const failure = await queryAdmin(admin, SHOP_QUERY, undefined, {
      sleep,
      maxThrottledRetries: 3,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AdminApiError);
    expect((failure as Error).message).toMatch(
      /^Shopify throttled the app's Admin API request 4 times in a row \(THROTTLED, .*restoring 50\/s\); gave up after 3 waits\.$/,
    );
    expect(waits).toHaveLength(3);
    expect(throttledFlags("ShopDomains").length - before).toBe(4);
  });

  it("another GraphQL error the client throws is an AdminApiError with Shopify's message", async () => {
    const failure = await queryAdmin(admin, "query { shop { notAField } }").catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AdminApiError);
    expect((failure as Error).message).toMatch(/^Shopify Admin API error: .*notAField/);
  });
});
