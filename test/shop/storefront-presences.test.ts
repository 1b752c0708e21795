/**
 * Following where the shop sells (issue 24, item 1): the app reads the store's presences at
 * install, again when domains/*, locales/* or markets/* arrives, and on the periodic check that
 * alone sees a web presence's own change; a shop that did not grant read_markets/read_locales
 * keeps what was read, with the reason. Against the fake Shopify through Shopify's own client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_API_SECRET } from "../../testkit/app-environment";
import { SHOP, startLiveServices, waitFor, type LiveServices } from "../../testkit/live-stack";
import { callAction } from "../../testkit/route-call";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import { startFakeShopify } from "../../dev/fake-shopify/server";
import { asMerchant as merchantChange, userErrorsOf } from "../fake-shopify/helpers";
import { action as presencesWebhook } from "../../app/routes/webhooks.presences";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { recordShopAfterAuth } from "../../app/shopify/app.server";
import { refreshStorefrontPresences } from "../../app/shopify/storefront-presences.server";
import { followStorefrontPresences } from "../../app/shop/follow-storefront-presences.server";
import { storefrontPresencesOf } from "../../app/models/storefront-presences.server";

let env: LiveServices;

beforeAll(async () => {
  env = await startLiveServices({ products: 3, pages: 0, articles: 0, presences: "sample" });
  await recordShopAfterAuth(SHOP, "read_products,read_markets,read_locales", await adminFor(SHOP));
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const urls = async () => (await storefrontPresencesOf(SHOP)).presences.map((p) => p.url);

/** A merchant's change in the fake store, through the Admin API's own mutation. */
async function asMerchant(query: string, variables: Record<string, unknown>): Promise<void> {
  expect(userErrorsOf(await merchantChange(env.shopify, query, variables))).toEqual([]);
}

describe("the store's storefront presences", () => {
  it("are read at install: three storefronts, the primary one marked as the one indexed", async () => {
    const kept = await storefrontPresencesOf(SHOP);
    expect(kept.problem).toBeNull();
    expect(kept.readAt).not.toBeNull();
    expect(
      kept.presences.map((p) => [
        p.url,
        p.localeName,
        p.markets.map((m) => m.currencyCode),
        p.primary,
      ]),
    ).toEqual([
      ["https://live-store.example.com/", "English", ["EUR"], true],
      ["https://live-store.example.com/de/", "German", ["EUR"], false],
      ["https://live-store.fr/", "French", ["EUR"], false],
    ]);
  });

  it("are read again when locales/create arrives, answered at once", async () => {
    const primary = env.shopify.state.presences().webPresences[0]!.id;
    await asMerchant(
      `mutation Enable($locale: String!, $ids: [ID!]) {
        shopLocaleEnable(locale: $locale, marketWebPresenceIds: $ids) { shopLocale { locale } userErrors { message } }
      }`,
      { locale: "nl", ids: [primary] },
    );
    const answer = await callAction(
      presencesWebhook,
      shopifyWebhookRequest({
        topic: "locales/create",
        shop: SHOP,
        body: JSON.stringify({ locale: "nl", published: false }),
        secret: TEST_API_SECRET,
      }),
    );
    expect(answer.status).toBe(200);
    await waitFor("the Dutch storefront to be kept", async () =>
      (await urls()).includes("https://live-store.example.com/nl/"),
    );
    const dutch = (await storefrontPresencesOf(SHOP)).presences.find((p) => p.locale === "nl");
    expect(dutch).toMatchObject({
      localeName: "Dutch",
      localePublished: false,
      defaultLocale: false,
    });
  });

  it("a web presence created in Shopify (no webhook exists for it) is seen by the periodic check", async () => {
    await asMerchant(
      `mutation Create($input: WebPresenceCreateInput!) {
        webPresenceCreate(input: $input) { webPresence { id } userErrors { message } }
      }`,
      { input: { defaultLocale: "fr", subfolderSuffix: "be" } },
    );
    expect(await urls()).not.toContain("https://live-store.example.com/fr-be/");
    expect(await followStorefrontPresences(adminFor)).toBe(1);
    expect(await urls()).toContain("https://live-store.example.com/fr-be/");
  });

  it("without read_markets and read_locales, keeps what was read and says which permissions are missing", async () => {
    const before = await urls();
    const narrow = await startFakeShopify({ port: 0, scopes: ["read_products"] });
    try {
      const outcome = await refreshStorefrontPresences(
        SHOP,
        await shopifyAdminClient(narrow.graphqlUrl),
      );
      expect(outcome.kind).toBe("no-access");
      const kept = await storefrontPresencesOf(SHOP);
      expect(kept.problem).toContain("read_markets and read_locales");
      expect(kept.presences.map((p) => p.url)).toEqual(before);
    } finally {
      await narrow.close();
    }
    // The next read that works clears the problem.
    await refreshStorefrontPresences(SHOP, await adminFor(SHOP));
    expect((await storefrontPresencesOf(SHOP)).problem).toBeNull();
  });
});
