/**
 * A live re-read as a storefront domain's market shows it (decision 0036 for the fill, 0037 for
 * live changes): the products the primary re-read whole are asked, in one `nodes(ids:)` query
 * beside the translations, whether each market's shoppers can see them (`publishedInContext`)
 * and each variant's price there (`contextualPricing`: a price list's fixed price, else the
 * converted one, in the market's currency). Without it, a live edit would send a domain the
 * shop's base prices and currency, and the next fill would put the market's back.
 */
import {
  applyMarket,
  isCountryCode,
  numericId,
  type MarketLinesReport,
  type ShopifyProduct,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import type { PresenceMarketPlan } from "../full/presence-market.server";

/** Ids per query: `nodes(ids:)` takes at most 250 (products and variants alike). */
const IDS_PER_QUERY = 250;

/** One aliased field per country (`p0`, `c0`, … in the order given), products and variants. */
export function marketContextQuery(countries: readonly string[]): string {
  const context = (country: string) => {
    if (!isCountryCode(country)) throw new Error(`"${country}" is not a country code`);
    return `context: { country: ${country} }`;
  };
  const published = countries.map((c, i) => `p${i}: publishedInContext(${context(c)})`);
  const priced = countries.map(
    (c, i) =>
      `c${i}: contextualPricing(${context(c)}) { price { amount currencyCode } compareAtPrice { amount currencyCode } }`,
  );
  return `query MarketContexts($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      id
      ${published.join("\n      ")}
    }
    ... on ProductVariant {
      id
      ${priced.join("\n      ")}
    }
  }
}`;
}

export interface MarketContexts {
  /** Product id (numeric) → country → whether its shoppers can see it. */
  published: Map<string, Map<string, boolean>>;
  /** Variant gid → country → its `contextualPricing`. */
  pricing: Map<string, Map<string, unknown>>;
}

export async function readMarketContexts(
  admin: AdminGraphql,
  products: readonly ShopifyProduct[],
  countries: readonly string[],
): Promise<MarketContexts> {
  const found: MarketContexts = { published: new Map(), pricing: new Map() };
  if (products.length === 0 || countries.length === 0) return found;
  const ids = products.flatMap((product) => [
    product.id,
    ...product.variants.map((variant) => variant.id),
  ]);
  const query = marketContextQuery(countries);
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const data = await queryAdmin<{ nodes: (Record<string, unknown> | null)[] }>(admin, query, {
      ids: ids.slice(start, start + IDS_PER_QUERY),
    });
    for (const node of data.nodes) {
      if (!node || typeof node.id !== "string") continue;
      if (node.id.startsWith("gid://shopify/Product/")) {
        const byCountry = new Map<string, boolean>();
        countries.forEach((country, i) => {
          if (typeof node[`p${i}`] === "boolean") byCountry.set(country, node[`p${i}`] as boolean);
        });
        found.published.set(numericId(node.id), byCountry);
      } else {
        const byCountry = new Map<string, unknown>();
        countries.forEach((country, i) => byCountry.set(country, node[`c${i}`]));
        found.pricing.set(node.id, byCountry);
      }
    }
  }
  return found;
}

/**
 * The product as the market's shoppers see it, as the fill's `marketSource` makes it: not shown
 * there → no storefront URL (the mapper leaves it out); each variant at the market's price.
 */
export function productInMarket(
  product: ShopifyProduct,
  plan: PresenceMarketPlan,
  contexts: MarketContexts,
  report: MarketLinesReport,
): ShopifyProduct {
  const country = plan.country;
  if (!country) return product;
  const published = contexts.published.get(numericId(product.id))?.get(country);
  const shown = applyMarket(
    { ...product, publishedInContext: published ?? true },
    plan.currency,
    report,
  ) as unknown as ShopifyProduct;
  if (!plan.prices) return shown;
  return {
    ...shown,
    variants: shown.variants.map((variant) => {
      const pricing = contexts.pricing.get(variant.id)?.get(country);
      if (pricing === undefined) return variant;
      return applyMarket(
        { ...variant, contextualPricing: pricing },
        plan.currency,
        report,
      ) as unknown as (typeof shown.variants)[number];
    }),
  };
}
