/**
 * Contract: indexing products and posts (§4, service-gaps bulk rules), search, the success
 * envelope and tier detection (§2, §8), monthly quotas and their reset (§8.2).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sendInBatches } from "../../app/index-service/bulk";
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
} from "../../app/index-service/errors";
import type { IndexProduct } from "../../app/index-service/types";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor, product, products } from "./helpers";

let emulator: RunningEmulator;
let now = Date.UTC(2025, 2, 10, 12, 0, 0);

beforeAll(async () => {
  emulator = await startEmulator({
    tokenDelayMs: 0,
    now: () => now,
    accounts: [
      {
        name: "custom",
        tier: "enterprise",
        secretKeys: ["svc_sk_test_custom"],
        quotas: { searchQueries: 123_456, products: 3 },
      },
    ],
  });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.state.reset();
  now = Date.UTC(2025, 2, 10, 12, 0, 0);
});

const shop = (key: string = KEYS.personal) =>
  clientFor(emulator, key, { workspaceId: "shop.example.com" });

describe("products", () => {
  it("upserts, reads, updates and deletes one product", async () => {
    const client = shop();
    const full: IndexProduct = {
      id: "gid-1",
      name: "Café mug",
      price: 12.5,
      categories: ["Kitchen"],
      content: "Stoneware mug",
      url: "https://shop.example.com/products/cafe-mug",
      image: "https://cdn.example.com/mug.png",
      brands: ["Acme"],
      tags: ["mug"],
      stock_status: "instock",
      attributes: { Colour: ["Blue", "Red"] },
      source: "shopify",
    };
    await client.upsertProduct(full);
    expect((await client.getProduct("gid-1")).data).toEqual(full);
    await client.upsertProduct({ ...full, price: 10 });
    expect((await client.getProduct("gid-1")).data.price).toBe(10);
    await client.deleteProduct("gid-1");
    expect(await caught(() => client.getProduct("gid-1"))).toBeInstanceOf(NotFoundError);
    expect(await caught(() => client.deleteProduct("gid-1"))).toBeInstanceOf(NotFoundError);
  });

  it("keeps ids with slashes and spaces intact", async () => {
    const id = "gid://shopify/Product/1 a";
    await shop().upsertProduct(product(id, "Odd id"));
    expect((await shop().getProduct(id)).data.id).toBe(id);
  });

  it("bulk-upserts up to 100 and reports invalid items as failed items", async () => {
    const batch: IndexProduct[] = [
      ...products(97),
      { id: "", name: "no id" },
      { id: "no-name" } as IndexProduct,
      { id: "bad-price", name: "x", price: "free" } as unknown as IndexProduct,
    ];
    const { data } = await shop().bulkUpsertProducts(batch);
    expect(data.processed).toBe(100);
    expect(data.successfulIds).toHaveLength(97);
    expect(data.failedItems.map((item) => item.id)).toEqual(["", "no-name", "bad-price"]);
    for (const item of data.failedItems) expect(item.error).toEqual(expect.any(String));
    expect(emulator.state.workspace("personal", "shop-example-com")?.products).toHaveLength(97);
  });

  it("refuses an empty bulk with 400 and more than 100 items with 413", async () => {
    expect(await caught(() => shop().bulkUpsertProducts([]))).toBeInstanceOf(BadRequestError);
    expect(await caught(() => shop().bulkUpsertProducts(products(101)))).toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(await caught(() => shop().bulkDeleteProducts([]))).toBeInstanceOf(BadRequestError);
    expect(
      await caught(() => shop().bulkDeleteProducts(products(101).map((item) => item.id))),
    ).toBeInstanceOf(PayloadTooLargeError);
    expect(emulator.state.workspaces()).toEqual([]);
  });

  it("sends any number of items in batches of at most 100, halving a batch answered 413", async () => {
    const client = shop(KEYS.enterprise);
    const sizes: number[] = [];
    const send = async (batch: IndexProduct[]) => {
      sizes.push(batch.length);
      return (await client.bulkUpsertProducts(batch)).data;
    };
    const result = await sendInBatches(products(250), send, { idOf: (item) => item.id });
    expect(result.successfulIds).toHaveLength(250);
    expect(sizes).toEqual([100, 100, 50]);

    sizes.length = 0;
    emulator.state.injectFault({ status: 413, match: { path: "/products/bulk" } });
    const split = await sendInBatches(products(60, "q"), send, { idOf: (item) => item.id });
    expect(split).toMatchObject({ processed: 60, failedItems: [] });
    expect(sizes).toEqual([60, 30, 30]);
  });

  it("bulk-deletes, reporting unknown ids as failed items", async () => {
    await shop().bulkUpsertProducts(products(3));
    const { data } = await shop().bulkDeleteProducts(["p0", "p2", "ghost"]);
    expect(data.successfulIds).toEqual(["p0", "p2"]);
    expect(data.failedItems).toEqual([
      { id: "ghost", error: expect.stringContaining("NOT_FOUND") },
    ]);
    expect(data.processed).toBe(3);
    expect(emulator.state.workspace("personal", "shop-example-com")?.products).toEqual([
      { id: "p1", name: "Item 1" },
    ]);
  });
});

describe("posts", () => {
  it("upserts, bulk-upserts, reads and deletes posts", async () => {
    const client = shop();
    await client.upsertPost({ id: "a1", title: "Brewing guide", post_type: "article" });
    const { data } = await client.bulkUpsertPosts([
      { id: "pg1", title: "Shipping", post_type: "page" },
      { id: "pg2" } as never,
    ]);
    expect(data).toEqual({
      successfulIds: ["pg1"],
      failedItems: [{ id: "pg2", error: expect.stringContaining("title") }],
      processed: 2,
    });
    expect((await client.getPost("a1")).data.title).toBe("Brewing guide");
    await client.deletePost("a1");
    expect((await client.bulkDeletePosts(["pg1"])).data.successfulIds).toEqual(["pg1"]);
    expect(emulator.state.workspace("personal", "shop-example-com")?.posts).toEqual([]);
  });
});

describe("search", () => {
  it("ranks by text relevance over name, categories, tags and content", async () => {
    await shop().bulkUpsertProducts([
      product("1", "Blue ceramic mug", { content: "A mug for coffee" }),
      product("2", "Espresso cup", { tags: ["coffee"], content: "Small cup for espresso coffee" }),
      product("3", "Garden hose", { categories: ["Garden"] }),
      product("4", "Coffee grinder", { categories: ["Coffee"], content: "Grinds coffee beans" }),
    ]);
    const { data } = await shop().search({ text: "coffee" });
    expect(data.results.map((hit) => hit.id)).toEqual(["4", "2", "1"]);
    expect(data.total).toBe(3);
    expect(data.results[0]).toMatchObject({ name: "Coffee grinder", score: expect.any(Number) });
    expect((await shop().search("café")).data.total).toBe(0);
    expect((await shop().search({ text: "mugs" })).data.results.map((hit) => hit.id)).toEqual([
      "1",
    ]);
    expect((await shop().search({ text: "coffee", limit: 1 })).data.results).toHaveLength(1);
  });

  it("finds accented names from unaccented queries", async () => {
    await shop().upsertProduct(product("1", "Crème brûlée torch"));
    expect((await shop().search("creme brulee")).data.results.map((hit) => hit.id)).toEqual(["1"]);
  });

  it("refuses an empty query with 400", async () => {
    expect(await caught(() => shop().search(""))).toBeInstanceOf(BadRequestError);
  });

  it("gives the pages and articles that match beside the products", async () => {
    await shop().upsertPost({ id: "page-1", title: "Shipping and returns", post_type: "page" });
    await shop().upsertProduct(product("1", "Returns label printer"));
    const { data } = await shop().search("returns");
    expect(data.results.map((hit) => hit.id)).toEqual(["1"]);
    expect(data.posts.map((hit) => hit.id)).toEqual(["page-1"]);
    expect((await shop().search("printer")).data.posts).toEqual([]);
  });
});

describe("success envelope and tier detection (§2, §8)", () => {
  it.each([
    ["personal", KEYS.personal, 3_000, 250],
    ["starter", KEYS.starter, 10_000, 1_200],
    ["professional", KEYS.professional, 50_000, 4_000],
    ["enterprise", KEYS.enterprise, 150_000, 12_000],
  ] as const)("detects %s from tierLimits", async (tier, key, searches, chats) => {
    const client = shop(key);
    const response = await client.search("mug");
    expect(response.tier).toBe(tier);
    expect(client.tier).toBe(tier);
    expect(response.tierLimits).toEqual({
      search: { enabled: true, queriesPerMonth: searches },
      chat: { enabled: true, messagesPerMonth: chats },
    });
    expect(client.lastEnvelope?.tierLimits).toEqual(response.tierLimits);
  });

  it("reports usage after every call: rate limit left, reset time, quota", async () => {
    const client = shop();
    const first = await client.upsertProduct(product("p1", "Mug"));
    expect(first.usage).toEqual({
      rateLimit: {
        remaining: { perMinute: 99, perHour: 999 },
        resetTime: Date.UTC(2025, 2, 10, 12, 1, 0),
      },
      quota: { current: 1, limit: 200, resetDate: "2025-04-01" },
    });
    await client.bulkUpsertProducts(products(5, "x"));
    expect(client.usage?.quota.current).toBe(6);
    expect(client.usage?.rateLimit.remaining).toEqual({ perMinute: 98, perHour: 998 });
    const search = await client.search("mug");
    expect(search.usage?.quota).toEqual({ current: 1, limit: 3_000, resetDate: "2025-04-01" });
  });

  it("names no tier for custom limits", async () => {
    const response = await clientFor(emulator, "svc_sk_test_custom").search("mug");
    expect(response.tierLimits?.search.queriesPerMonth).toBe(123_456);
    expect(response.tier).toBeUndefined();
  });
});

describe("monthly quotas (§8)", () => {
  it("counts new items only, refuses the one over the quota with 403, and resets on the 1st UTC", async () => {
    now = Date.UTC(2025, 2, 31, 23, 58, 0);
    const client = shop();
    await client.bulkUpsertProducts(products(100, "a"));
    await client.bulkUpsertProducts(products(100, "b"));
    // Updates of existing products do not count.
    const update = await client.upsertProduct(product("a0", "Renamed"));
    expect(update.usage?.quota).toEqual({ current: 200, limit: 200, resetDate: "2025-04-01" });

    const refused = await caught(() => client.upsertProduct(product("c0", "One too many")));
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused).toMatchObject({ status: 403, code: "QUOTA_EXCEEDED", retryable: false });
    // A bulk with any new item over the quota writes nothing.
    const bulk = await caught(() =>
      client.bulkUpsertProducts([product("a1", "x"), product("c1", "y")]),
    );
    expect(bulk).toBeInstanceOf(QuotaExceededError);
    expect(emulator.state.workspace("personal", "shop-example-com")?.products).toHaveLength(200);

    now = Date.UTC(2025, 2, 31, 23, 59, 59, 999);
    expect(await caught(() => client.upsertProduct(product("c0", "Still no")))).toBeInstanceOf(
      QuotaExceededError,
    );

    now = Date.UTC(2025, 3, 1, 0, 0, 0);
    const fresh = await client.upsertProduct(product("c0", "New month"));
    expect(fresh.usage?.quota).toEqual({ current: 1, limit: 200, resetDate: "2025-05-01" });
  });

  it("answers every quota's use at once on GET /usage, to the secret key only (decision 0024)", async () => {
    await shop().bulkUpsertProducts(products(3));
    await shop().search("mug");
    emulator.state.spendQuota("personal", "chatMessages", 200);
    const { data } = await shop().usageReport();
    expect(data).toEqual({
      products: { current: 3, limit: 200, resetDate: "2025-04-01" },
      posts: { current: 0, limit: 100, resetDate: "2025-04-01" },
      chatMessages: { current: 200, limit: 250, resetDate: "2025-04-01" },
      searchQueries: { current: 1, limit: 3_000, resetDate: "2025-04-01" },
      recommendations: { current: 0, limit: 500, resetDate: "2025-04-01" },
    });
    const publishable = clientFor(emulator, KEYS.personalPublishable);
    expect(await caught(() => publishable.usageReport())).toMatchObject({ status: 403 });
  });

  it("gives each account its own quota", async () => {
    const custom = clientFor(emulator, "svc_sk_test_custom", { workspaceId: "shop.example.com" });
    await custom.bulkUpsertProducts(products(3));
    expect(await caught(() => custom.upsertProduct(product("x", "x")))).toBeInstanceOf(
      QuotaExceededError,
    );
    await expect(shop().upsertProduct(product("x", "x"))).resolves.toMatchObject({ status: 200 });
  });
});
