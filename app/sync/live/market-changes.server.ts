/**
 * For the hourly check (decision 0047): the products a storefront domain's market now prices or
 * shows otherwise than that domain's workspace holds them. Shopify 2026-10 sends no webhook for a
 * price list's fixed prices nor for a market's publication, and neither moves a product's
 * `updatedAt`, so each domain market's storefront is read whole, as fields of one bulk export per
 * market (no query points): every product's `publishedInContext` and, when the workspace carries
 * the market's prices, every variant's `contextualPricing`. Those are compared with the prices
 * of the workspace's kept documents; what differs is re-read by the worker, which sends the
 * domain its new document (or deletes it there) and the shop's workspace nothing.
 */
import type { Shop } from "@prisma/client";
import {
  applyMarket,
  documentPricingOf,
  isCountryCode,
  MAX_INDEXED_VARIANTS,
  numericId,
  priceFieldsOf,
  variantPriceOf,
  type IndexProduct,
  type MarketLinesReport,
  type ShopifyVariant,
} from "../../catalogue";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { LineSplitter, type BulkSource } from "../../shopify/bulk-source";
import { indexedDocuments, indexedHashes, type LedgerScope } from "../../models/ledger.server";
import { workspaceOf } from "../../models/shops.server";
import type { RepairedItem } from "../../models/check-history.server";
import { presenceMarketPlan, type PresenceMarketPlan } from "../full/presence-market.server";
import type { PresenceWorkspace } from "../full/presence-workspaces.server";
import { filledPresenceWorkspaces } from "./domain-workspaces.server";
import { parseKept } from "./restock-products.server";

/** Ledger rows compared per query. */
const COMPARE_BATCH = 500;

/**
 * Bulk export of the catalogue as a shopper in `country` sees it: whether each product is shown
 * there and, with `prices`, each variant's price there (a price list's fixed price, else the
 * converted one), beside its own (kept when the market's currency cannot be shown).
 */
export function marketChangesBulkQuery(country: string, prices: boolean): string {
  if (!isCountryCode(country)) throw new Error(`"${country}" is not a country code`);
  const context = `context: { country: ${country} }`;
  const variants = prices
    ? `
        variants {
          edges {
            node {
              id
              price
              compareAtPrice
              contextualPricing(${context}) { price { amount currencyCode } compareAtPrice { amount currencyCode } }
            }
          }
        }`
    : "";
  return `{
  products {
    edges {
      node {
        id
        title
        publishedInContext(${context})${variants}
      }
    }
  }
}`;
}

interface MarketProduct {
  title: string;
  published: boolean;
  variants: Record<string, unknown>[];
}

/** Product id (numeric) → how the market shows it, read from the export's lines. */
async function readMarketExport(source: BulkSource): Promise<Map<string, MarketProduct>> {
  const products = new Map<string, MarketProduct>();
  const byGid = new Map<string, MarketProduct>();
  const splitter = new LineSplitter();
  const onLine = (text: string) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    if (typeof line.id !== "string") return;
    if (line.id.includes("/Product/")) {
      const product: MarketProduct = {
        title: typeof line.title === "string" ? line.title : numericId(line.id),
        published: line.publishedInContext !== false,
        variants: [],
      };
      products.set(numericId(line.id), product);
      byGid.set(line.id, product);
    } else if (typeof line.__parentId === "string") {
      byGid.get(line.__parentId)?.variants.push(line);
    }
  };
  for await (const chunk of await source()) splitter.push(chunk, onLine);
  splitter.end(onLine);
  return products;
}

/** The prices a document shows, as one comparable string. */
function pricesOf(item: {
  price?: number;
  regular_price?: number;
  sale_price?: number;
  currency?: string;
  variants?: { id: string; price?: number; currency?: string }[];
}): string {
  return JSON.stringify([
    item.price ?? null,
    item.regular_price ?? null,
    item.sale_price ?? null,
    item.currency ?? null,
    (item.variants ?? []).map((v) => [v.id, v.price ?? null, v.currency ?? null]),
  ]);
}

/** The prices the domain's document would show for the market's lines (as `mapProduct` sets them). */
function marketPricesOf(product: MarketProduct, plan: PresenceMarketPlan): string {
  const report: MarketLinesReport = { unshowable: 0, unpublished: 0 };
  const variants = product.variants.map(
    (line) => applyMarket(line, plan.currency, report) as unknown as ShopifyVariant,
  );
  const listed = variants.slice(0, MAX_INDEXED_VARIANTS);
  return pricesOf({
    ...priceFieldsOf(documentPricingOf(variants, plan.currency)),
    ...(plan.currency ? { currency: plan.currency } : {}),
    ...(listed.length > 0
      ? {
          variants: listed.map((v) => ({
            id: numericId(v.id),
            ...variantPriceOf(v, plan.currency),
          })),
        }
      : {}),
  });
}

/**
 * The products whose market price or market publication differs from what a filled domain
 * workspace holds: shown there at another price ("updated"), no longer shown there but held
 * ("removed"), or shown there again while the shop's workspace holds it and the domain's does not
 * ("updated"). One market query and one export per domain market; nothing when no domain is
 * filled.
 */
export async function productsWithMarketChanges(
  shop: Shop,
  admin: AdminGraphql,
  runExport: (query: string) => Promise<string | null>,
  open: (url: string) => BulkSource,
): Promise<RepairedItem[]> {
  const primaryId = workspaceOf(shop);
  if (!primaryId) return [];
  const primary: LedgerScope = { shopDomain: shop.shopDomain, workspaceId: primaryId };
  const found = new Map<string, RepairedItem>();
  const exports = new Map<string, Map<string, MarketProduct>>();
  for (const workspace of await filledPresenceWorkspaces(shop)) {
    const plan = await presenceMarketPlan(admin, workspace.webPresenceId, shop.currencyCode);
    if (!plan.country) continue;
    const key = `${plan.country}:${plan.prices}`;
    let market = exports.get(key);
    if (!market) {
      const url = await runExport(marketChangesBulkQuery(plan.country, plan.prices));
      market = url ? await readMarketExport(open(url)) : new Map<string, MarketProduct>();
      exports.set(key, market);
    }
    await compareWorkspace(workspace, plan, market, primary, found);
  }
  return [...found.values()];
}

async function compareWorkspace(
  workspace: PresenceWorkspace,
  plan: PresenceMarketPlan,
  market: ReadonlyMap<string, MarketProduct>,
  primary: LedgerScope,
  found: Map<string, RepairedItem>,
): Promise<void> {
  const scope: LedgerScope = {
    shopDomain: workspace.ledgerKey,
    workspaceId: workspace.workspaceId,
  };
  const ids = [...market.keys()];
  for (let start = 0; start < ids.length; start += COMPARE_BATCH) {
    const batch = ids.slice(start, start + COMPARE_BATCH);
    const [held, inPrimary, kept] = await Promise.all([
      indexedHashes(scope, "product", batch),
      indexedHashes(primary, "product", batch),
      plan.prices ? indexedDocuments(scope, "product", batch) : Promise.resolve(null),
    ]);
    for (const id of batch) {
      const product = market.get(id)!;
      const note = (action: RepairedItem["action"]) => {
        if (!found.has(id)) found.set(id, { id, title: product.title, action });
      };
      if (!product.published) {
        if (held.has(id)) note("removed");
        continue;
      }
      if (!held.has(id)) {
        if (inPrimary.has(id)) note("updated");
        continue;
      }
      const document = kept?.get(id);
      const item: IndexProduct | null = document
        ? parseKept(document.content, document.contentHash)
        : null;
      if (item && pricesOf(item) !== marketPricesOf(product, plan)) note("updated");
    }
  }
}
