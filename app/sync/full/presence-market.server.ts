/**
 * Which market a storefront domain's workspace shows, and in which currency: the first active
 * market its web presence serves, asked for by that market's first country (Shopify resolves a
 * shopper's market from the country: `contextualPricing(context: {country:})`,
 * `publishedInContext(context: {country:})`). A currency the widget cannot show
 * (`showableCurrency`) is a problem: the workspace then carries the shop's own prices and
 * currency, and the market's selection still applies. Decision 0036.
 */
import { PRESENCE_MARKET_QUERY, showableCurrency, type PresenceMarketData } from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";

export interface PresenceMarketPlan {
  /** ISO 3166 code the export asks for; undefined: no active market with a country. */
  country?: string;
  /** Whether the market's own prices are read (its currency can be shown). */
  prices: boolean;
  /** The documents' `currency`: the market's, or the shop's as the fallback (undefined: none). */
  currency?: string;
  /** What the merchant should know, in words; none when all is well. */
  problem?: string;
}

export async function presenceMarketPlan(
  admin: AdminGraphql,
  webPresenceId: string,
  shopCurrencyCode: string | null,
): Promise<PresenceMarketPlan> {
  const shopCurrency = showableCurrency(shopCurrencyCode);
  const data = await queryAdmin<PresenceMarketData>(admin, PRESENCE_MARKET_QUERY, {
    id: webPresenceId,
  });
  const markets = data.node?.markets?.nodes ?? [];
  const market = markets.find(
    (m) =>
      m.status === "ACTIVE" && m.conditions?.regionsCondition?.regions.nodes.some((r) => r.code),
  );
  const country = market?.conditions?.regionsCondition?.regions.nodes.find((r) => r.code)?.code;
  if (!market || !country) {
    return {
      prices: false,
      ...(shopCurrency ? { currency: shopCurrency } : {}),
      problem:
        "no active market with a country serves it: its products are the Online Store's, at the shop's prices",
    };
  }
  const code = market.currencySettings?.baseCurrency.currencyCode ?? null;
  const currency = showableCurrency(code);
  if (!currency) {
    return {
      country,
      prices: false,
      ...(shopCurrency ? { currency: shopCurrency } : {}),
      problem: `the market ${market.name}'s currency "${code ?? ""}" is not an ISO 4217 currency the chat can show: its products carry the shop's prices in ${shopCurrency ?? "the shop's currency"} instead`,
    };
  }
  return { country, prices: true, currency };
}
