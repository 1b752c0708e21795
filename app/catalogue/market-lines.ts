/**
 * A market's storefront, line by line: a product export asked with `marketBulkQuery` carries,
 * on each product, `publishedInContext` (whether the market's shoppers can see it) and, on each
 * variant, `contextualPricing { price compareAtPrice }` (the market's price: a price list's
 * fixed price, else the converted one, in the market's currency). A product the market does not
 * show becomes one the mapper leaves out (no storefront URL, as an unpublished product); a
 * variant takes the market's price and notes its currency. A price in a currency the widget
 * cannot show keeps the shop's own price and currency, and is counted as a problem.
 */
import type { BulkSource } from "../shopify/bulk-source";
import { mappedSource } from "./translated-lines";

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * `code` when it is an ISO 4217 code the widget can format (`Intl`), else undefined: Shopify's
 * `CurrencyCode` also has codes that are not (`USDC`, and withdrawn ones such as `VEF`).
 */
export function showableCurrency(code: string | null | undefined): string | undefined {
  return code && KNOWN_CURRENCIES.has(code) ? code : undefined;
}

interface Money {
  amount?: unknown;
  currencyCode?: unknown;
}

export interface MarketLinesReport {
  /** Variants whose market price was in a currency the widget cannot show: each kept the shop's. */
  unshowable: number;
  /** That currency, as Shopify named it. */
  unshowableCode?: string;
  /** Products the market does not show. */
  unpublished: number;
}

/** What a market export's line becomes (see the file's comment); `shopCurrency` is the fallback. */
export function applyMarket(
  line: Record<string, unknown>,
  shopCurrency: string | undefined,
  report: MarketLinesReport,
): Record<string, unknown> {
  if ("publishedInContext" in line) {
    const { publishedInContext, ...product } = line;
    if (publishedInContext !== false) return product;
    report.unpublished += 1;
    return { ...product, onlineStoreUrl: null };
  }
  if (!("contextualPricing" in line)) return line;
  const { contextualPricing, ...variant } = line;
  const pricing = (contextualPricing ?? {}) as { price?: Money; compareAtPrice?: Money | null };
  const code = typeof pricing.price?.currencyCode === "string" ? pricing.price.currencyCode : "";
  const currency = showableCurrency(code);
  if (!currency || typeof pricing.price?.amount !== "string") {
    report.unshowable += 1;
    report.unshowableCode ??= code;
    return shopCurrency ? { ...variant, currency: shopCurrency } : variant;
  }
  const compare = pricing.compareAtPrice;
  return {
    ...variant,
    price: pricing.price.amount,
    compareAtPrice: compare && typeof compare.amount === "string" ? compare.amount : null,
    currency,
  };
}

/** The source with every line's market applied; `report` counts what was left out or kept. */
export function marketSource(
  source: BulkSource,
  shopCurrency: string | undefined,
  report: MarketLinesReport,
): BulkSource {
  return mappedSource(source, (line) => applyMarket(line, shopCurrency, report));
}

/** The primary workspace's documents' `currency`: the shop's, when the widget can show it. */
export function documentCurrencyOf(shop: { currencyCode: string | null }): { currency?: string } {
  const currency = showableCurrency(shop.currencyCode);
  return currency ? { currency } : {};
}
