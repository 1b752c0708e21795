/**
 * A collection of more products than Shopify's cost bucket lets the app read at once, looked up
 * as the live worker does (collections/update names only the collection), through the Admin API
 * client the app uses for every shop: Shopify's own, its transport pointed at the fake Admin API
 * (the demo shop's, see adminFor). The fake's bucket is Shopify's standard one (2,000 points,
 * 100 a second); the lookup needs about 2,300. Its clock stands still but for the app's waits:
 * each wait for the bucket moves it on by what the app waited, instead of sleeping.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeShopify } from "../../../dev/fake-shopify/server";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { settleLookups } from "../../../app/sync/live/resolve-lookups.server";

const SHOP = "big-collection.myshopify.com";
const PRODUCTS = 2_100;
const COLLECTION_ID = "880001";
/** Pages of 250 (COLLECTION_PRODUCTS_PAGE_SIZE) the collection takes. */
const PAGES = Math.ceil(PRODUCTS / 250);

let shopify: Awaited<ReturnType<typeof startFakeShopify>>;
const members: string[] = [];
let clock = Date.now();
const waits: number[] = [];

beforeAll(async () => {
  shopify = await startFakeShopify({ port: 0, shopDomain: SHOP, now: () => clock });
  for (let index = 0; index < PRODUCTS; index++) {
    const product = shopify.state.createProduct({
      title: `Everyday item ${index}`,
      collections: [{ id: `gid://shopify/Collection/${COLLECTION_ID}`, title: "Everything" }],
    });
    members.push(String(product.id).replace(/^gid:\/\/shopify\/Product\//, ""));
  }
  await prepareAppEnvironment({
    DEMO_SHOP: SHOP,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
    BACKGROUND_WORK: "off",
  });
}, 60_000);

afterAll(async () => {
  await shopify?.close();
});

it("a collection of 2,100 products is read to its end: THROTTLED pages are waited out and asked again from their cursor", async () => {
  const now = new Date();
  await prisma.pendingLookup.create({
    data: {
      shopDomain: SHOP,
      kind: "collection",
      resourceId: COLLECTION_ID,
      changedAt: now,
      receivedAt: now,
      attempts: 0,
    },
  });

  const settled = await settleLookups({
    shopDomain: SHOP,
    admin: await adminFor(SHOP),
    startFullSync: async () => false,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
  });

  expect(settled).toEqual({ resolved: 1, products: PRODUCTS, fullSync: false });
  const queued = await prisma.pendingChange.findMany({ where: { shopDomain: SHOP } });
  expect(queued.map((row) => row.productId).sort()).toEqual([...members].sort());
  expect(await prisma.pendingLookup.count()).toBe(0);

  const pages = shopify.state
    .requests()
    .filter((entry) => entry.operationName === "CollectionProductIds");
  // Shopify throttled the lookup at least once, and no page was read twice: it went on from
  // the cursor it had reached instead of starting over.
  expect(pages.some((entry) => entry.throttled)).toBe(true);
  expect(pages.filter((entry) => !entry.throttled)).toHaveLength(PAGES);
  // Each THROTTLED answer was waited out once before its page was asked again.
  expect(waits).toHaveLength(pages.filter((entry) => entry.throttled).length);
}, 60_000);
