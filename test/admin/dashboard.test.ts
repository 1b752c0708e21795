import type { LoaderFunctionArgs } from "@remix-run/node";
import type { PrismaClient } from "@prisma/client";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  prepareAppEnvironment,
  TEST_API_KEY,
  TEST_API_SECRET,
  TEST_APP_URL,
} from "../../testkit/app-environment";

const SHOP = "dashboard-shop.myshopify.com";
let prisma: PrismaClient;
let loader: (args: LoaderFunctionArgs) => Promise<unknown>;
let recordShopAfterAuth: typeof import("../../app/shopify/app.server").recordShopAfterAuth;

/** Admin API calls of the loader (the theme's app embed): answered here, never sent out. */
const adminCalls: string[] = [];

beforeAll(async () => {
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== SHOP) return realFetch(input, init);
    adminCalls.push(String(init?.body ?? ""));
    return Response.json({ data: { themes: { nodes: [] } } });
  });
  await prepareAppEnvironment();
  // Imported after the fetch stub above: Shopify's node adapter keeps the fetch it finds when loaded.
  prisma = (await import("../../app/models/db.server")).default;
  loader = (await import("../../app/routes/app._index")).loader as typeof loader;
  ({ recordShopAfterAuth } = await import("../../app/shopify/app.server"));
  await prisma.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      accessToken: "shpat_test",
      scope: "read_products,read_online_store_pages",
      expires: new Date(Date.now() + 24 * 3600_000),
      refreshToken: "shprt_test",
      refreshTokenExpires: new Date(Date.now() + 30 * 24 * 3600_000),
    },
  });
});

/** The shop's primary domain as Shopify's Admin API answers the app's ShopInfo query. */
function adminAnswering(primaryDomainHost: string) {
  return {
    graphql: async (query: string) => {
      expect(query).toMatch(/primaryDomain/);
      return Response.json({
        data: {
          shop: {
            myshopifyDomain: SHOP,
            currencyCode: "EUR",
            primaryDomain: { host: primaryDomainHost, url: `https://${primaryDomainHost}` },
          },
        },
      });
    },
  };
}

async function loadDashboard() {
  const request = await setUpValidRequest(
    {
      type: RequestType.Bearer,
      store: SHOP.replace(".myshopify.com", ""),
      apiKey: TEST_API_KEY,
      apiSecretKey: TEST_API_SECRET,
    },
    new Request(`${TEST_APP_URL}/app`),
  );
  return (await loader({ request, params: {}, context: {} })) as Record<string, unknown>;
}

describe("install and dashboard", () => {
  it("afterAuth stores the shop with its storefront domain and the workspace id made from it", async () => {
    await recordShopAfterAuth(SHOP, "read_products", adminAnswering("Shop.Example.com"));
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(shop).toMatchObject({
      primaryDomain: "Shop.Example.com",
      workspaceId: "shop-example-com",
      currencyCode: "EUR",
      state: "active",
    });
  });

  it("the dashboard shows the shop's real state from the database", async () => {
    const data = await loadDashboard();
    expect(data).toMatchObject({
      shopDomain: SHOP,
      primaryDomain: "Shop.Example.com",
      workspaceId: "shop-example-com",
      connection: { kind: "not-connected" },
    });
    // The checklist asked the store about its live theme, and does not assume the chat is on.
    expect(adminCalls.some((body) => body.includes("MainThemeSettings"))).toBe(true);
    expect(data.checklist).toMatchObject({
      complete: false,
      steps: expect.arrayContaining([expect.objectContaining({ id: "chat-on", done: false })]),
    });

    await prisma.shop.update({
      where: { shopDomain: SHOP },
      data: { state: "paused", pauseReason: "The service refused the secret key (revoked)." },
    });
    expect(await loadDashboard()).toMatchObject({
      connection: { kind: "paused", message: expect.stringContaining("revoked") },
    });
  });

  it("never says connected while the workspace the storefront asks holds nothing", async () => {
    await prisma.shop.update({
      where: { shopDomain: SHOP },
      data: {
        state: "active",
        pauseReason: null,
        secretKeyCiphertext: "sealed",
        publishableKey: "svc_pk_test",
        tier: "professional",
      },
    });
    expect(await loadDashboard()).toMatchObject({
      connection: {
        kind: "storefront-empty",
        message:
          "Connected on the Professional plan, but the storefront chat asks workspace shop-example-com, which holds none of the catalogue yet: shoppers get no products until a sync has sent it there.",
      },
    });
    await prisma.indexedItem.create({
      data: {
        shopDomain: SHOP,
        workspaceId: "shop-example-com",
        kind: "product",
        itemId: "1",
        contentHash: "h",
        sentAt: new Date(),
      },
    });
    expect(await loadDashboard()).toMatchObject({
      connection: { kind: "connected", message: "Connected on the Professional plan." },
    });
    await prisma.indexedItem.deleteMany({ where: { shopDomain: SHOP } });
    await prisma.shop.update({
      where: { shopDomain: SHOP },
      data: { secretKeyCiphertext: null, publishableKey: null, tier: null },
    });
  });

  it("shows every quota: what the service last reported, warned near and at the limit, and the plan's figure for what it never reported", async () => {
    await prisma.shop.update({
      where: { shopDomain: SHOP },
      // A key this ENCRYPTION_KEY cannot open: the service is not asked, the last readings stay.
      data: { secretKeyCiphertext: "sealed", publishableKey: "svc_pk_test", tier: "professional" },
    });
    const month = new Date().toISOString().slice(0, 7);
    await prisma.quotaUsage.createMany({
      data: [
        { shopDomain: SHOP, month, kind: "product", used: 850, limit: 1_000 },
        { shopDomain: SHOP, month, kind: "chat", used: 4_000, limit: 4_000 },
        { shopDomain: SHOP, month, kind: "recommendation", used: 1_200, limit: 5_000 },
      ],
    });
    const { quotas } = (await loadDashboard()) as {
      quotas: Array<{ kind: string; line: string; level: string; warning: string | null }>;
    };
    const byKind = Object.fromEntries(quotas.map((quota) => [quota.kind, quota]));
    expect(quotas.map((quota) => quota.kind)).toEqual([
      "product",
      "post",
      "chat",
      "search",
      "recommendation",
    ]);
    expect(byKind.product).toMatchObject({ line: "Products: 850 of 1,000", level: "near" });
    expect(byKind.product!.warning).toMatch(
      /^Products: 85% of this month's quota is used \(150 left\)\. When it runs out, new products are not added to the index/,
    );
    expect(byKind.chat).toMatchObject({ line: "Chat messages: 4,000 of 4,000", level: "out" });
    expect(byKind.chat!.warning).toMatch(
      /^Chat messages: none left until \d+ \w+ \d{4}\. The storefront chat does not answer; shoppers who ask a question are offered your store's own search for their words and your contact page instead\./,
    );
    expect(byKind.post).toMatchObject({ line: "Pages and articles: 0 of 1,000", warning: null });
    expect(byKind.recommendation).toMatchObject({ level: "ok", warning: null });
    expect(byKind.search).toMatchObject({
      line: "Search queries: 50,000 a month (use not reported by the search service)",
      warning: null,
    });
    await prisma.quotaUsage.deleteMany({ where: { shopDomain: SHOP } });
    await prisma.shop.update({
      where: { shopDomain: SHOP },
      data: { secretKeyCiphertext: null, publishableKey: null, tier: null },
    });
  });

  it("a reinstall after an uninstall makes the shop active again with a fresh domain", async () => {
    await prisma.shop.update({
      where: { shopDomain: SHOP },
      data: { state: "uninstalled", uninstalledAt: new Date() },
    });
    await recordShopAfterAuth(SHOP, "read_products", adminAnswering("www.new-domain.example"));
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(shop).toMatchObject({
      state: "active",
      uninstalledAt: null,
      workspaceId: "www-new-domain-example",
    });
  });

  it("a request without a valid session token is not let in", async () => {
    const request = new Request(`${TEST_APP_URL}/app`, {
      headers: { Authorization: "Bearer not-a-jwt" },
    });
    await expect(loader({ request, params: {}, context: {} })).rejects.toSatisfy(
      (thrown) => thrown instanceof Response && thrown.status >= 400,
    );
  });
});
