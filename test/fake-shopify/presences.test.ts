/**
 * Where the fake shop sells (dev/fake-shopify/presences.ts): `webPresences`, `markets`,
 * `shopLocales` and the domains, asked with the app's own document through Shopify's own client
 * and validated against the 2026-10 schema; the merchant's changes as Shopify's mutations, each
 * sending the webhook Shopify has a topic for (none for a web presence of its own).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAdmin, isAccessDenied, type AdminGraphql } from "../../app/shopify/admin-graphql";
import { readStorefrontPresences } from "../../app/shopify/storefront-presences.server";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import {
  asMerchant,
  API_SECRET,
  graphql,
  startShopWithReceiver,
  startTestShop,
  validShopifyHmac,
  type FakeShopify,
  type Receiver,
} from "./helpers";

let fake: FakeShopify;
let receiver: Receiver;
let close: () => Promise<void>;
let admin: AdminGraphql;

beforeAll(async () => {
  ({ shop: fake, receiver, close } = await startShopWithReceiver({}));
  admin = await shopifyAdminClient(fake.graphqlUrl);
});

afterAll(async () => {
  await close?.();
});

/** A merchant's change: the Admin API's own mutation, with a token that may write. */
const storefronts = async () =>
  (await readStorefrontPresences(admin)).map((p) => ({
    url: p.url,
    language: `${p.localeName}${p.localePublished ? "" : " (unpublished)"}`,
    markets: p.markets.map((m) => `${m.name} ${m.currencyCode}`),
    primary: p.primary,
  }));

describe("the fake shop's markets and languages", () => {
  it("ships three storefronts: the primary domain in English, German at /de, a French market on its own domain in EUR", async () => {
    expect(await storefronts()).toEqual([
      {
        url: "https://demo-store.example.com/",
        language: "English",
        markets: ["International EUR"],
        primary: true,
      },
      {
        url: "https://demo-store.example.com/de/",
        language: "German",
        markets: ["International EUR"],
        primary: false,
      },
      {
        url: "https://demo-store.fr/",
        language: "French",
        markets: ["France EUR"],
        primary: false,
      },
    ]);
    const asked = fake.state.requests().find((r) => r.operationName === "StorefrontPresences");
    // Within Shopify's 1,000-point limit for one query, a full page of 25 presences included.
    expect(asked?.requestedQueryCost).toBeGreaterThan(0);
    expect(asked?.requestedQueryCost).toBeLessThanOrEqual(1000);
  });

  it("answers markets with their countries and currency, shopLocales, and domains' web presences, as the schema names them", async () => {
    const data = await queryAdmin<{
      markets: {
        nodes: {
          name: string;
          handle: string;
          status: string;
          currencySettings: { baseCurrency: { currencyCode: string; currencyName: string } };
          conditions: { regionsCondition: { regions: { nodes: { code?: string }[] } } };
          webPresences: { nodes: { domain: { host: string } | null }[] };
        }[];
      };
      shopLocales: { locale: string; primary: boolean; published: boolean }[];
      shop: {
        primaryDomain: { host: string; marketWebPresence: { defaultLocale: { locale: string } } };
      };
    }>(
      admin,
      `query Markets {
        markets(first: 10) {
          nodes {
            name handle status
            currencySettings { baseCurrency { currencyCode currencyName } }
            conditions { regionsCondition { regions(first: 10) { nodes { ... on MarketRegionCountry { code } } } } }
            webPresences(first: 5) { nodes { domain { host } } }
          }
        }
        shopLocales { locale primary published }
        shop { primaryDomain { host marketWebPresence { defaultLocale { locale } } } }
      }`,
    );
    const france = data.markets.nodes.find((m) => m.handle === "fr");
    expect(france).toMatchObject({
      name: "France",
      status: "ACTIVE",
      currencySettings: { baseCurrency: { currencyCode: "EUR", currencyName: "Euro" } },
      conditions: { regionsCondition: { regions: { nodes: [{ code: "FR" }] } } },
      webPresences: { nodes: [{ domain: { host: "demo-store.fr" } }] },
    });
    expect(data.shopLocales).toEqual([
      { locale: "en", primary: true, published: true },
      { locale: "de", primary: false, published: true },
      { locale: "fr", primary: false, published: true },
    ]);
    expect(data.shop.primaryDomain.marketWebPresence.defaultLocale.locale).toBe("en");
  });

  it("refuses the reads without read_markets or read_locales, as Shopify does", async () => {
    const narrow = await startTestShop({ scopes: ["read_products"] });
    try {
      const client = await shopifyAdminClient(narrow.graphqlUrl);
      const refused = await readStorefrontPresences(client).catch((error: unknown) => error);
      expect(isAccessDenied(refused)).toBe(true);
    } finally {
      await narrow.close();
    }
  });

  it("refuses a merchant's mutation sent with the app's read-only token", async () => {
    const answer = await graphql(
      fake,
      `
        mutation Enable($locale: String!) {
          shopLocaleEnable(locale: $locale) {
            shopLocale {
              locale
            }
            userErrors {
              field
              message
            }
          }
        }
      `,
      { locale: "it" },
    );
    const errors = answer.body.errors as { extensions?: { code?: string } }[];
    expect(errors[0]?.extensions?.code).toBe("ACCESS_DENIED");
  });

  it("enables a language on the primary domain (locales/create), publishes it (locales/update), and the app's read shows it", async () => {
    const presences = fake.state.presences();
    const primaryId = presences.webPresences[0]!.id;
    const enabled = await asMerchant<{
      shopLocaleEnable: { shopLocale: { locale: string; published: boolean } };
    }>(
      fake,
      `mutation Enable($locale: String!, $ids: [ID!]) {
        shopLocaleEnable(locale: $locale, marketWebPresenceIds: $ids) {
          shopLocale { locale published }
          userErrors { field message }
        }
      }`,
      { locale: "it", ids: [primaryId] },
    );
    expect(enabled.shopLocaleEnable.shopLocale).toEqual({ locale: "it", published: false });
    expect(await storefronts()).toContainEqual({
      url: "https://demo-store.example.com/it/",
      language: "Italian (unpublished)",
      markets: ["International EUR"],
      primary: false,
    });

    await asMerchant(
      fake,
      `mutation Publish($locale: String!) {
        shopLocaleUpdate(locale: $locale, shopLocale: { published: true }) {
          shopLocale { locale published }
          userErrors { field message }
        }
      }`,
      { locale: "it" },
    );
    await fake.state.settled();
    const topics = receiver.received.map((w) => w.headers["x-shopify-topic"]);
    expect(topics).toEqual(expect.arrayContaining(["locales/create", "locales/update"]));
    const created = receiver.received.find(
      (w) => w.headers["x-shopify-topic"] === "locales/create",
    )!;
    expect(created.path).toBe("/webhooks/presences");
    expect(JSON.parse(created.body)).toEqual({ locale: "it", published: false });
    expect(validShopifyHmac(API_SECRET, created)).toBe(true);
    expect((await storefronts()).find((s) => s.url.endsWith("/it/"))?.language).toBe("Italian");
  });

  it("answers an unknown language with a userError, not an error", async () => {
    const answer = await asMerchant<{ shopLocaleEnable: { userErrors: { message: string }[] } }>(
      fake,
      `mutation Enable($locale: String!) { shopLocaleEnable(locale: $locale) { shopLocale { locale } userErrors { field message } } }`,
      { locale: "!!" },
    );
    expect(answer.shopLocaleEnable.userErrors[0]?.message).toBe("Locale '!!' is invalid");
  });

  it("disables a language (locales/destroy) and refuses to disable a presence's default one", async () => {
    const refused = await asMerchant<{ shopLocaleDisable: { userErrors: { message: string }[] } }>(
      fake,
      `mutation Disable($locale: String!) { shopLocaleDisable(locale: $locale) { locale userErrors { field message } } }`,
      { locale: "fr" },
    );
    expect(refused.shopLocaleDisable.userErrors[0]?.message).toContain("default");
    await asMerchant(
      fake,
      `mutation Disable($locale: String!) { shopLocaleDisable(locale: $locale) { locale userErrors { field message } } }`,
      { locale: "it" },
    );
    await fake.state.settled();
    expect(receiver.received.map((w) => w.headers["x-shopify-topic"])).toContain("locales/destroy");
    expect((await storefronts()).some((s) => s.url.endsWith("/it/"))).toBe(false);
  });

  it("creates, changes and deletes a subfolder web presence with no webhook (Shopify has no topic), and a market change sends markets/update", async () => {
    const before = receiver.received.length;
    const created = await asMerchant<{
      webPresenceCreate: { webPresence: { id: string; rootUrls: { url: string }[] } };
    }>(
      fake,
      `mutation Create($input: WebPresenceCreateInput!) {
        webPresenceCreate(input: $input) {
          webPresence { id rootUrls { locale url } }
          userErrors { field message code }
        }
      }`,
      { input: { defaultLocale: "de", subfolderSuffix: "ch" } },
    );
    const presence = created.webPresenceCreate.webPresence;
    expect(presence.rootUrls.map((r) => r.url)).toEqual(["https://demo-store.example.com/de-ch/"]);

    const market = fake.state.presences().webPresences[1]!.markets[0]!;
    const updated = await asMerchant<{
      marketUpdate: { market: { status: string; webPresences: { nodes: { id: string }[] } } };
    }>(
      fake,
      `mutation Market($id: ID!, $input: MarketUpdateInput!) {
        marketUpdate(id: $id, input: $input) {
          market { status webPresences(first: 5) { nodes { id } } }
          userErrors { field message code }
        }
      }`,
      { id: market.id, input: { status: "DRAFT", webPresencesToAdd: [presence.id] } },
    );
    expect(updated.marketUpdate.market.status).toBe("DRAFT");
    expect(updated.marketUpdate.market.webPresences.nodes.map((n) => n.id)).toContain(presence.id);
    await asMerchant(
      fake,
      `mutation Delete($id: ID!) { webPresenceDelete(id: $id) { deletedId userErrors { field message code } } }`,
      { id: presence.id },
    );
    await fake.state.settled();
    const topics = receiver.received.slice(before).map((w) => w.headers["x-shopify-topic"]);
    expect(topics).toEqual(["markets/update"]);
    expect(fake.state.presences().webPresences).toHaveLength(2);
  });

  it("connects a domain (domains/create) that a new web presence can then use", async () => {
    const before = receiver.received.length;
    const { id, delivery } = fake.state.addDomain("demo-store.de");
    await delivery;
    const created = await asMerchant<{
      webPresenceCreate: { webPresence: { domain: { host: string } }; userErrors: unknown[] };
    }>(
      fake,
      `mutation Create($input: WebPresenceCreateInput!) {
        webPresenceCreate(input: $input) { webPresence { domain { host } } userErrors { field message code } }
      }`,
      { input: { defaultLocale: "de", domainId: id } },
    );
    expect(created.webPresenceCreate.webPresence.domain.host).toBe("demo-store.de");
    const sent = receiver.received.slice(before);
    expect(sent.map((w) => w.headers["x-shopify-topic"])).toEqual(["domains/create"]);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ host: "demo-store.de", ssl_enabled: true });
    expect((await storefronts()).map((s) => s.url)).toContain("https://demo-store.de/");
  });

  it("a shop that never set up Markets has one storefront: the primary domain in English", async () => {
    const plain = await startTestShop({ store: { presences: "primary-only" } });
    try {
      const client = await shopifyAdminClient(plain.graphqlUrl);
      const read = await readStorefrontPresences(client);
      expect(read.map((p) => [p.url, p.localeName, p.primary])).toEqual([
        ["https://demo-store.example.com/", "English", true],
      ]);
    } finally {
      await plain.close();
    }
  });
  it("names each storefront URL once, the primary's first, even when the primary domain moves to a domain another presence names", async () => {
    const moved = await startTestShop({});
    try {
      await moved.state.setPrimaryDomain("demo-store.fr", { webhook: false });
      const read = await readStorefrontPresences(await shopifyAdminClient(moved.graphqlUrl));
      const urls = read.map((p) => p.url);
      expect(new Set(urls).size).toBe(urls.length);
      expect(read[0]).toMatchObject({ url: "https://demo-store.fr/", primary: true });
    } finally {
      await moved.close();
    }
  });
});
