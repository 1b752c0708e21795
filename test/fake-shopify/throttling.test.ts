/**
 * Cost-based throttling: a leaky bucket per shop, THROTTLED answers that charge nothing; and
 * Shopify's internal error, on demand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  PRODUCTS_BY_IDS_QUERY,
  SHOP_QUERY,
} from "../../app/catalogue/queries";
import { graphql, startTestShop, type FakeShopify } from "./helpers";

let shop: FakeShopify;
let clock = Date.UTC(2026, 9, 1);
let ids: string[];

beforeAll(async () => {
  shop = await startTestShop({
    store: { generated: { products: 10, seed: 5 } },
    bucket: { maximumAvailable: 400, restoreRate: 50 },
    now: () => clock,
  });
  ids = shop.state
    .products()
    .slice(1, 3)
    .map((product) => product.id);
});
afterAll(async () => {
  await shop.close();
});

const productsByIds = () =>
  graphql(shop, PRODUCTS_BY_IDS_QUERY, { ids, ...PRODUCT_NODES_DEFAULT_PAGE_SIZES });

describe("cost throttling", () => {
  it("throttles the app's query when the bucket is short, and lets it through after the restore", async () => {
    const first = await productsByIds();
    expect(first.body.errors).toBeUndefined();
    const requested = first.body.extensions!.cost.requestedQueryCost;
    expect(requested).toBe(372);
    const left = first.body.extensions!.cost.throttleStatus.currentlyAvailable;
    expect(left).toBe(400 - first.body.extensions!.cost.actualQueryCost!);

    shop.state.setAvailablePoints(100);
    const throttled = await productsByIds();
    expect(throttled.status).toBe(200);
    expect(throttled.body).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: {
            code: "THROTTLED",
            documentation: "https://shopify.dev/api/usage/limits#rate-limits",
          },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 372,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 400, currentlyAvailable: 100, restoreRate: 50 },
        },
      },
    });
    // Nothing was charged.
    expect(shop.state.throttleStatus().currentlyAvailable).toBe(100);

    // (372 - 100) / 50 = 5.44 s later the bucket holds enough again.
    clock += 5_000;
    expect((await productsByIds()).body.errors).toEqual([
      expect.objectContaining({ message: "Throttled" }),
    ]);
    clock += 500;
    const after = await productsByIds();
    expect(after.body.errors).toBeUndefined();
    expect(after.body.data).toBeDefined();

    const log = shop.state.requests().filter((entry) => entry.operationName === "ProductsByIds");
    expect(log.map((entry) => entry.throttled)).toEqual([false, true, true, false]);
    expect(log.every((entry) => entry.requestedQueryCost === 372)).toBe(true);
  });

  it("never refills beyond the maximum", async () => {
    clock += 3_600_000;
    expect(shop.state.throttleStatus().currentlyAvailable).toBe(400);
  });

  it("throttles the next requests on demand, whatever the bucket holds", async () => {
    shop.state.throttleNextRequests(2);
    const answers = [
      await graphql(shop, SHOP_QUERY),
      await graphql(shop, SHOP_QUERY),
      await graphql(shop, SHOP_QUERY),
    ];
    expect(answers.map((answer) => answer.body.data === undefined)).toEqual([true, true, false]);
    expect(answers[0]!.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(400);
  });

  it("answers one operation's next requests with Shopify's internal error, others as usual", async () => {
    shop.state.failNextOperation("ProductsByIds", 1);
    const shopRead = await graphql(shop, SHOP_QUERY);
    expect(shopRead.body.errors).toBeUndefined();
    const failed = await productsByIds();
    // As Shopify answers one: HTTP 200, no data, the request's id in the message and the code.
    expect(failed.status).toBe(200);
    expect(failed.body.data).toBeUndefined();
    const [error] = failed.body.errors as {
      message: string;
      extensions: { code: string; requestId: string };
    }[];
    expect(error!.extensions.code).toBe("INTERNAL_SERVER_ERROR");
    expect(error!.message).toBe(
      `Internal error. Looks like something went wrong on our end.\nRequest ID: ${error!.extensions.requestId} (include this in support requests).`,
    );
    expect((await productsByIds()).body.data).toBeDefined();
  });
});
