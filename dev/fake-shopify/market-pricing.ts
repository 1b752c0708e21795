/**
 * A market's prices and product selection, as Shopify 2026-10 models them: a market has a
 * catalog (`Market.catalogs` → `MarketCatalog`) with a price list (`PriceList`, in the market's
 * currency, holding fixed prices for some variants) and a publication (`Publication`, the
 * products its shoppers can see).
 *
 * `ProductVariant.contextualPricing(context: {country:})` answers, for the active market whose
 * countries include `country`, the price list's fixed price when the variant has one, else the
 * shop's price converted into the market's currency at the fake's fixed rate (`RATES_PER_EUR`),
 * rounded to the currency's minor unit (fixed prices set in a currency the market no longer
 * has are ignored). Shopify converts at its live rate and, with the market's
 * rounding on, then rounds to each currency's usual ending (help.shopify.com/manual/markets/
 * pricing/rounding); the fake does not do that (`roundingEnabled: false`). A country no active
 * market holds gets the shop's own prices. `Product.publishedInContext(context: {country:})` is
 * true when the product is on the Online Store and in that market's publication.
 *
 * The merchant's changes are `priceListFixedPricesAdd` / `priceListFixedPricesDelete` and
 * `publishablePublish` / `publishableUnpublish` with the market's publication. None sends a
 * webhook the app could follow: 2026-10 has no price-list topic, and `product_publications/*`
 * are sent only for the subscribing app's own publication (the topics' descriptions).
 */
import { connection, type ConnectionArgs } from "./connection";
import { gid, parseGid } from "./gid";
import type { MarketRecord } from "./presences";
import type { Json } from "./store";

/** The fake's fixed exchange rates: units of a currency per euro. */
export const RATES_PER_EUR: Readonly<Record<string, number>> = {
  EUR: 1,
  USD: 1.08,
  USDC: 1.08,
  GBP: 0.85,
  CHF: 0.94,
  CAD: 1.47,
  JPY: 160,
  SEK: 11.5,
  DKK: 7.46,
};

/** The number of decimals a currency's amounts have (JPY 0, EUR 2). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits as number;
  } catch {
    return 2;
  }
}

/** `amount` (a decimal string in `from`) in `to`, at the fixed rates, to `to`'s minor unit. */
export function convertAmount(amount: string, from: string, to: string): string {
  const digits = minorDigits(to);
  if (from === to) return Number(amount).toFixed(digits);
  const rate = (RATES_PER_EUR[to] ?? 1) / (RATES_PER_EUR[from] ?? 1);
  const factor = 10 ** digits;
  return (Math.round(Number(amount) * rate * factor) / factor).toFixed(digits);
}

interface FixedPrice {
  price: string;
  compareAtPrice: string | null;
  /** The price list's currency when it was set: a market whose currency changed since ignores it. */
  currency: string;
}

export interface MarketCatalogRecord {
  marketId: number;
  catalogId: number;
  priceListId: number;
  publicationId: number;
  /** Variant gid → its fixed price in the market's currency. */
  fixedPrices: Map<string, FixedPrice>;
  /** Product gids taken out of the publication (every other product is in it: autoPublish). */
  unpublished: Set<string>;
}

export interface MarketPricingSources {
  markets(): MarketRecord[];
  shopCurrency(): string;
  /** Whether the variant exists. */
  hasVariant(id: string): boolean;
  /** A product by gid: whether it is on the Online Store; undefined when there is none. */
  product(id: string): { onlineStore: boolean } | undefined;
  /** Every product's gid, in store order. */
  productIds(): string[];
}

function money(amount: string, currencyCode: string): Json {
  return { __typename: "MoneyV2", amount, currencyCode };
}

export class MarketPricingStore {
  catalogs: MarketCatalogRecord[] = [];
  /** A product's or variant's view by gid (set by the resolvers, which build them). */
  viewOf: (id: string) => Json | null = () => null;
  #next = 1;

  constructor(private readonly sources: MarketPricingSources) {}

  /** A catalog, price list and publication for the market (Shopify makes them with the market). */
  addCatalog(marketId: number): MarketCatalogRecord {
    const id = () => 78_100_000_000 + this.#next++;
    const record: MarketCatalogRecord = {
      marketId,
      catalogId: id(),
      priceListId: id(),
      publicationId: id(),
      fixedPrices: new Map(),
      unpublished: new Set(),
    };
    this.catalogs.push(record);
    return record;
  }

  catalogOf(marketId: number): MarketCatalogRecord | undefined {
    return this.catalogs.find((c) => c.marketId === marketId);
  }

  #market(record: MarketCatalogRecord): MarketRecord | undefined {
    return this.sources.markets().find((m) => m.id === record.marketId);
  }

  /** The active market whose countries include `country`. */
  #marketFor(country: string | null | undefined): MarketRecord | undefined {
    if (!country) return undefined;
    return this.sources
      .markets()
      .find((m) => m.status === "ACTIVE" && m.countries.includes(country));
  }

  // ——— Fields on products and variants ———

  /** `ProductVariant.contextualPricing(context:)`. */
  variantPricing(variant: Json) {
    return ({ context }: { context: { country?: string | null } }): Json => {
      const shopCurrency = this.sources.shopCurrency();
      const base = String(variant.price ?? "0");
      const baseCompare =
        typeof variant.compareAtPrice === "string" ? variant.compareAtPrice : null;
      const market = this.#marketFor(context.country);
      const currency = market?.currencyCode ?? shopCurrency;
      const set = market && this.catalogOf(market.id)?.fixedPrices.get(String(variant.id));
      const fixed = set?.currency === currency ? set : undefined;
      const price = fixed ? fixed.price : convertAmount(base, shopCurrency, currency);
      const compare = fixed
        ? fixed.compareAtPrice
        : baseCompare === null
          ? null
          : convertAmount(baseCompare, shopCurrency, currency);
      return {
        __typename: "ProductVariantContextualPricing",
        price: money(price, currency),
        compareAtPrice: compare === null ? null : money(compare, currency),
        unitPrice: null,
      };
    };
  }

  /** `Product.publishedInContext(context:)`. */
  publishedInContext(productId: string, onlineStore: boolean) {
    return ({ context }: { context: { country?: string | null } }): boolean => {
      if (!onlineStore) return false;
      const market = this.#marketFor(context.country);
      const catalog = market && this.catalogOf(market.id);
      return !catalog?.unpublished.has(productId);
    };
  }

  // ——— Views ———

  /** `Market.catalogs`. */
  marketCatalogs(marketId: number) {
    return (args: ConnectionArgs): unknown =>
      connection(
        this.catalogs.filter((c) => c.marketId === marketId),
        args,
        (c) => this.catalogView(c),
      );
  }

  catalogView(record: MarketCatalogRecord): Json {
    const market = this.#market(record);
    return {
      __typename: "MarketCatalog",
      id: gid("MarketCatalog", record.catalogId),
      title: market?.name ?? "",
      status: "ACTIVE",
      operations: [],
      priceList: () => this.priceListView(record),
      publication: () => this.publicationView(record),
    };
  }

  priceListView(record: MarketCatalogRecord): Json {
    const market = this.#market(record);
    const currency = market?.currencyCode ?? this.sources.shopCurrency();
    const prices = [...record.fixedPrices.entries()].filter(([, p]) => p.currency === currency);
    return {
      __typename: "PriceList",
      id: gid("PriceList", record.priceListId),
      name: `${market?.name ?? ""} price list`,
      currency,
      fixedPricesCount: prices.length,
      parent: null,
      catalog: () => this.catalogView(record),
      prices: (args: ConnectionArgs & { originType?: string | null }) =>
        connection(args.originType === "RELATIVE" ? [] : prices, args, ([variantId, fixed]) => ({
          __typename: "PriceListPrice",
          originType: "FIXED",
          price: money(fixed.price, currency),
          compareAtPrice:
            fixed.compareAtPrice === null ? null : money(fixed.compareAtPrice, currency),
          variant: () => this.viewOf(variantId),
        })),
    };
  }

  publicationView(record: MarketCatalogRecord): Json {
    const included = () =>
      this.sources
        .productIds()
        .filter((id) => this.sources.product(id)?.onlineStore && !record.unpublished.has(id));
    const view = (id: string) => this.viewOf(id) ?? {};
    return {
      __typename: "Publication",
      id: gid("Publication", record.publicationId),
      autoPublish: true,
      supportsFuturePublishing: false,
      catalog: () => this.catalogView(record),
      products: (args: ConnectionArgs) => connection(included(), args, view),
      includedProducts: (args: ConnectionArgs) => connection(included(), args, view),
    };
  }

  /** Catalogs, price lists and publications by gid (null when there is none). */
  node(id: string): Json | null {
    const parsed = parseGid(id);
    const number = Number(parsed?.id);
    const by = (key: "catalogId" | "priceListId" | "publicationId") =>
      this.catalogs.find((c) => c[key] === number);
    if (parsed?.type === "MarketCatalog") {
      const record = by("catalogId");
      return record ? this.catalogView(record) : null;
    }
    if (parsed?.type === "PriceList") {
      const record = by("priceListId");
      return record ? this.priceListView(record) : null;
    }
    if (parsed?.type === "Publication") {
      const record = by("publicationId");
      return record ? this.publicationView(record) : null;
    }
    return null;
  }

  // ——— The Admin API ———

  queries(): Json {
    const typed = (type: string) => (args: { id: string }) =>
      parseGid(args.id)?.type === type ? this.node(args.id) : null;
    return {
      priceList: typed("PriceList"),
      publication: typed("Publication"),
      catalog: typed("MarketCatalog"),
    };
  }

  mutations(): Json {
    const priceError = (field: string[], message: string, code: string): Json => ({
      __typename: "PriceListPriceUserError",
      field,
      message,
      code,
    });
    const byPriceList = (id: string) =>
      this.catalogs.find((c) => gid("PriceList", c.priceListId) === id);
    const byPublication = (id: string | null | undefined) =>
      this.catalogs.find((c) => gid("Publication", c.publicationId) === id);
    const publish = (published: boolean) => (args: { id: string; input: PublicationInput[] }) => {
      const product = this.sources.product(args.id);
      if (!product) {
        return {
          publishable: null,
          userErrors: [{ __typename: "UserError", field: ["id"], message: "Product not found" }],
        };
      }
      for (const [index, input] of args.input.entries()) {
        const catalog = byPublication(input.publicationId);
        if (!catalog) {
          return {
            publishable: null,
            userErrors: [
              {
                __typename: "UserError",
                field: ["input", String(index), "publicationId"],
                message: "Publication does not exist",
              },
            ],
          };
        }
        if (published) catalog.unpublished.delete(args.id);
        else catalog.unpublished.add(args.id);
      }
      return { publishable: this.viewOf(args.id), userErrors: [] };
    };
    return {
      priceListFixedPricesAdd: (args: { priceListId: string; prices: PriceInput[] }) => {
        const catalog = byPriceList(args.priceListId);
        if (!catalog) {
          return {
            prices: null,
            userErrors: [
              priceError(["priceListId"], "Price list does not exist.", "PRICE_LIST_NOT_FOUND"),
            ],
          };
        }
        const currency = this.#market(catalog)?.currencyCode ?? this.sources.shopCurrency();
        for (const [index, input] of args.prices.entries()) {
          const field = ["prices", String(index)];
          if (!this.sources.hasVariant(input.variantId)) {
            return {
              prices: null,
              userErrors: [
                priceError([...field, "variantId"], "Variant not found.", "VARIANT_NOT_FOUND"),
              ],
            };
          }
          const moneys = [input.price, ...(input.compareAtPrice ? [input.compareAtPrice] : [])];
          if (moneys.some((m) => m.currencyCode !== currency)) {
            return {
              prices: null,
              userErrors: [
                priceError(
                  [...field, "price", "currencyCode"],
                  "The specified currency doesn't match the price list's currency.",
                  "PRICE_LIST_CURRENCY_MISMATCH",
                ),
              ],
            };
          }
        }
        for (const input of args.prices) {
          catalog.fixedPrices.set(input.variantId, {
            price: String(input.price.amount),
            compareAtPrice: input.compareAtPrice ? String(input.compareAtPrice.amount) : null,
            currency,
          });
        }
        const view = this.priceListView(catalog) as { prices: (a: ConnectionArgs) => Json };
        const nodes = (view.prices({ first: 250 }) as { nodes: Json[] }).nodes;
        const added = new Set(args.prices.map((p) => p.variantId));
        return {
          prices: nodes.filter((node) => {
            const variant = (node.variant as () => Json | null)();
            return variant !== null && added.has(String(variant.id));
          }),
          userErrors: [],
        };
      },
      priceListFixedPricesDelete: (args: { priceListId: string; variantIds: string[] }) => {
        const catalog = byPriceList(args.priceListId);
        if (!catalog) {
          return {
            deletedFixedPriceVariantIds: null,
            userErrors: [
              priceError(["priceListId"], "Price list does not exist.", "PRICE_LIST_NOT_FOUND"),
            ],
          };
        }
        const deleted = args.variantIds.filter((id) => catalog.fixedPrices.delete(id));
        return { deletedFixedPriceVariantIds: deleted, userErrors: [] };
      },
      publishablePublish: publish(true),
      publishableUnpublish: publish(false),
    };
  }
}

interface PriceInput {
  variantId: string;
  price: { amount: string | number; currencyCode: string };
  compareAtPrice?: { amount: string | number; currencyCode: string } | null;
}

interface PublicationInput {
  publicationId?: string | null;
}
