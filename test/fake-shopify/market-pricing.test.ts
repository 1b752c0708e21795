/**
 * A market's prices and product selection in the fake shop (dev/fake-shopify/market-pricing.ts),
 * asked with documents validated against the 2026-10 schema: the France market's countries and
 * catalog (price list in EUR with fixed prices, publication), each variant's
 * `contextualPricing(context: {country: FR})` (the fixed price, else the converted one) and each
 * product's `publishedInContext`, also in a bulk export; the merchant's changes through
 * Shopify's mutations, which send no webhook the app could follow.
 */
import { parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import { marketBulkQuery, productsBulkQuery } from "../../app/catalogue/queries";
import { urlSource } from "../../app/shopify/bulk-source";
import { adminSchema } from "../../dev/fake-shopify/schema";
import {
  asMerchant,
  data,
  pollBulk,
  runBulk,
  startShopWithReceiver,
  type FakeShopify,
  type Receiver,
} from "./helpers";

let fake: FakeShopify;
let receiver: Receiver;
let close: () => Promise<void>;

beforeAll(async () => {
  ({
    shop: fake,
    receiver,
    close,
  } = await startShopWithReceiver({
    store: { generated: { products: 9, seed: 5 } },
  }));
});

afterAll(async () => {
  await close?.();
});

function valid(query: string): string {
  expect(validate(adminSchema(), parse(query)).map((e) => e.message)).toEqual([]);
  return query;
}

const FRANCE = valid(`{
  markets(first: 5) {
    nodes {
      id
      handle
      currencySettings { baseCurrency { currencyCode } roundingEnabled }
      conditions { regionsCondition { regions(first: 5) { nodes { ... on MarketRegionCountry { code } } } } }
      catalogs(first: 1) {
        nodes {
          ... on MarketCatalog {
            id
            priceList { id currency fixedPricesCount }
            publication { id }
          }
        }
      }
    }
  }
}`);

interface FranceData {
  markets: {
    nodes: {
      id: string;
      handle: string;
      currencySettings: { baseCurrency: { currencyCode: string } };
      conditions: { regionsCondition: { regions: { nodes: { code: string }[] } } };
      catalogs: {
        nodes: {
          id: string;
          priceList: { id: string; currency: string; fixedPricesCount: number };
          publication: { id: string };
        }[];
      };
    }[];
  };
}

const france = async () =>
  (await data<FranceData>(fake, FRANCE)).markets.nodes.find((m) => m.handle === "fr")!;

const FIXED_PRICES = valid(`query Fixed($id: ID!) {
  priceList(id: $id) { prices(first: 200, originType: FIXED) { nodes { price { amount currencyCode } variant { id } } } }
}`);

/** Variant gid → its fixed price in the France price list. */
async function fixedPrices(): Promise<Map<string, string>> {
  const { id } = (await france()).catalogs.nodes[0]!.priceList;
  const read = await data<{
    priceList: { prices: { nodes: { price: { amount: string }; variant: { id: string } }[] } };
  }>(fake, FIXED_PRICES, { id });
  return new Map(read.priceList.prices.nodes.map((p) => [p.variant.id, p.price.amount]));
}

const PRICING = valid(`query Pricing($id: ID!) {
  product(id: $id) {
    publishedInContext(context: { country: FR })
    variants(first: 10) {
      nodes {
        id
        price
        contextualPricing(context: { country: FR }) {
          price { amount currencyCode }
          compareAtPrice { amount currencyCode }
        }
      }
    }
  }
}`);

interface PricingData {
  product: {
    publishedInContext: boolean;
    variants: {
      nodes: {
        id: string;
        price: string;
        contextualPricing: { price: { amount: string; currencyCode: string } };
      }[];
    };
  };
}

const pricing = async (id: string) => (await data<PricingData>(fake, PRICING, { id })).product;

describe("the fake shop's market prices and selection", () => {
  it("reads the France market's countries, its EUR price list with fixed prices, and its publication", async () => {
    const market = await france();
    expect(market.currencySettings.baseCurrency.currencyCode).toBe("EUR");
    expect(market.conditions.regionsCondition.regions.nodes.map((r) => r.code)).toEqual(["FR"]);
    const catalog = market.catalogs.nodes[0]!;
    expect(catalog.priceList.currency).toBe("EUR");
    expect(catalog.priceList.fixedPricesCount).toBeGreaterThan(0);
    expect((await fixedPrices()).size).toBe(catalog.priceList.fixedPricesCount);
    expect(catalog.publication.id).toMatch(/^gid:\/\/shopify\/Publication\//);
  });

  it("prices a variant in France at its fixed price when it has one, else at the converted price, in EUR; one product is not published there", async () => {
    const fixed = await fixedPrices();
    let sawFixed = 0;
    let sawConverted = 0;
    const unpublished: string[] = [];
    for (const product of fake.state.products()) {
      const read = await pricing(product.id);
      if (!read.publishedInContext) unpublished.push(product.id);
      for (const variant of read.variants.nodes) {
        expect(variant.contextualPricing.price.currencyCode).toBe("EUR");
        const amount = fixed.get(variant.id);
        if (amount) sawFixed += 1;
        else sawConverted += 1;
        // The shop is in EUR: the converted price is the shop's, to the cent.
        expect(Number(variant.contextualPricing.price.amount)).toBe(
          Number(amount ?? variant.price),
        );
      }
    }
    expect(sawFixed).toBeGreaterThan(0);
    expect(sawConverted).toBeGreaterThan(0);
    // Off the Online Store, or (the sample's second product) out of the France market's publication.
    const products = fake.state.products();
    const offline = products.filter((p) => !p.onlineStoreUrl).map((p) => p.id);
    expect(offline).not.toContain(products[1]!.id);
    expect(unpublished.sort()).toEqual([...offline, products[1]!.id].sort());
  });

  it("answers the same in a bulk export, with the app's market query", async () => {
    const started = await runBulk(fake, valid(marketBulkQuery(productsBulkQuery(), "FR")));
    expect(started.userErrors).toEqual([]);
    const { final } = await pollBulk(fake, started.bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    const products = [];
    for await (const item of (await readBulkExport(urlSource(final.url!))).items()) {
      if (item.type === "Product") products.push(item.value as unknown as Record<string, unknown>);
    }
    const offline = fake.state.products().filter((p) => !p.onlineStoreUrl).length;
    expect(products.filter((p) => p.publishedInContext === false)).toHaveLength(offline + 1);
    const variants = products.flatMap(
      (p) => p.variants as { contextualPricing: { price: { currencyCode: string } } }[],
    );
    expect(variants.every((v) => v.contextualPricing.price.currencyCode === "EUR")).toBe(true);
  });

  it("follows the merchant's fixed prices, publication and currency, sending no webhook", async () => {
    const market = await france();
    const { priceList, publication } = market.catalogs.nodes[0]!;
    const product = fake.state.products()[2]!;
    const variant = (await pricing(product.id)).variants.nodes[0]!;
    const before = receiver.received.length;

    const added = await asMerchant<{
      priceListFixedPricesAdd: { prices: { price: { amount: string } }[]; userErrors: unknown[] };
    }>(
      fake,
      `mutation Add($id: ID!, $prices: [PriceListPriceInput!]!) {
        priceListFixedPricesAdd(priceListId: $id, prices: $prices) {
          prices { price { amount currencyCode } }
          userErrors { field message code }
        }
      }`,
      {
        id: priceList.id,
        prices: [{ variantId: variant.id, price: { amount: "99.90", currencyCode: "EUR" } }],
      },
    );
    expect(added.priceListFixedPricesAdd).toMatchObject({
      prices: [{ price: { amount: "99.90" } }],
      userErrors: [],
    });
    expect((await pricing(product.id)).variants.nodes[0]!.contextualPricing.price.amount).toBe(
      "99.90",
    );

    const mismatch = await asMerchant<{ priceListFixedPricesAdd: { userErrors: unknown[] } }>(
      fake,
      `mutation Add($id: ID!, $prices: [PriceListPriceInput!]!) {
        priceListFixedPricesAdd(priceListId: $id, prices: $prices) { userErrors { code } }
      }`,
      {
        id: priceList.id,
        prices: [{ variantId: variant.id, price: { amount: "9", currencyCode: "USD" } }],
      },
    );
    expect(mismatch.priceListFixedPricesAdd.userErrors).toEqual([
      { code: "PRICE_LIST_CURRENCY_MISMATCH" },
    ]);

    await asMerchant(
      fake,
      `mutation Delete($id: ID!, $variantIds: [ID!]!) {
        priceListFixedPricesDelete(priceListId: $id, variantIds: $variantIds) {
          deletedFixedPriceVariantIds
          userErrors { code }
        }
      }`,
      { id: priceList.id, variantIds: [variant.id] },
    );
    expect(
      Number((await pricing(product.id)).variants.nodes[0]!.contextualPricing.price.amount),
    ).toBe(Number(variant.price));

    const publishing = (name: "publishablePublish" | "publishableUnpublish") =>
      asMerchant(
        fake,
        `mutation P($id: ID!, $input: [PublicationInput!]!) {
          ${name}(id: $id, input: $input) { publishable { ... on Product { id } } userErrors { field message } }
        }`,
        { id: product.id, input: [{ publicationId: publication.id }] },
      );
    await publishing("publishableUnpublish");
    expect((await pricing(product.id)).publishedInContext).toBe(false);
    await publishing("publishablePublish");
    expect((await pricing(product.id)).publishedInContext).toBe(true);

    // Another currency for the market: the shop's prices converted at the fake's fixed rate.
    await asMerchant(
      fake,
      `mutation M($id: ID!, $input: MarketUpdateInput!) {
        marketUpdate(id: $id, input: $input) { userErrors { message } }
      }`,
      { id: market.id, input: { currencySettings: { baseCurrency: "GBP" } } },
    );
    const inPounds = (await pricing(product.id)).variants.nodes[0]!;
    expect(inPounds.contextualPricing.price).toEqual({
      amount: (Math.round(Number(variant.price) * 0.85 * 100) / 100).toFixed(2),
      currencyCode: "GBP",
    });
    await fake.state.settled();
    // markets/update for the currency; nothing for the prices or the publication.
    expect(receiver.received.slice(before).map((r) => r.headers["x-shopify-topic"])).toEqual([
      "markets/update",
    ]);
  });
});
