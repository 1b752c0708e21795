/**
 * Live changes in the storefront domains' workspaces (decision 0037): after a batch settled in
 * the shop's own workspace, its products go to each domain workspace a full sync filled, in that
 * storefront's language, by the same send-and-settle path, pacer and ledger (the domain's own
 * rows, under `presenceLedgerKey`). What they are to get is read and mapped before the shop's own
 * send (planDomainSends, decision 0063), and sent right after it (sendToDomainWorkspaces). A
 * product the primary re-read whole is translated with one more query for every domain's locale
 * at once (`productTranslationsQuery`), and its chosen variant metafields by their ids
 * (`metafieldTranslationsQuery`, decision 0048); a stock change puts the primary's new stock into
 * the domain's kept document, without reading anything. A domain that fails keeps the change in
 * the outbox (the primary's ledger then says "nothing to send" for it); the worker tries it again
 * later, like a product the service refused.
 */
import { heldByOtherShops } from "../../models/workspace-claims.server";
import type { PendingChange, Shop } from "@prisma/client";
import {
  applyTranslations,
  contentHash,
  isLocaleTag,
  metafieldKey,
  numericId,
  productMetafieldsOf,
  toGid,
  withTranslatedOptions,
  type IndexProduct,
  type MapContext,
  type MarketLinesReport,
  type ShopifyProduct,
  type ShopifyVariant,
  type MetafieldChoice,
  VARIANT_METAFIELD_ALIAS,
  variantMetafields,
  variantMetafieldsOf,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { LineSplitter, type BulkSource } from "../../shopify/bulk-source";
import { indexedDocuments, productsSentAt, type LedgerScope } from "../../models/ledger.server";
import { presenceRowsOf } from "../../models/storefront-presences.server";
import type { StorefrontPresence } from "../../shopify/storefront-presences.server";
import { keysWithSucceededRun } from "../../models/sync-runs.server";
import { LeaseLostError, type LeaseFence } from "../../models/shop-leases.server";
import { serviceClientForWorkspace } from "../../shop/service-keys.server";
import { catalogueEntry } from "../engine/catalogue-entry";
import { sendAndSettle, type SettleJob } from "../engine/send-and-settle.server";
import { bulkRequestsFor } from "../../index-service/bulk";
import { referenceNamesByLocale } from "../engine/reference-names.server";
import { presenceWorkspacesOf, type PresenceWorkspace } from "../full/presence-workspaces.server";
import { rereadProducts } from "./reread-products.server";
import { presenceMarketPlan, type PresenceMarketPlan } from "../full/presence-market.server";
import { productInMarket, readMarketContexts } from "./domain-market.server";
import { parseKept } from "./restock-products.server";
import type { ApplyContext } from "./apply-changes.server";
import { logFor } from "../../server/log";

const log = logFor("live");

/** Shopify refuses a query whose requested cost is over this. */
const MAX_QUERY_COST = 1000;

/**
 * Product ids per `productTranslationsQuery`, so that its requested cost stays within Shopify's
 * 1,000 points (`nodes(ids:)` takes at most 250): an id costs 1, and for each locale 1 for its
 * own translations, 4 for its options' and option values' and, with chosen product metafields,
 * 2 + 2 a metafield for theirs (a connection). One locale and no metafield: 6 an id, 166 ids.
 */
export function translationIdsPerQuery(localeCount: number, metafieldCount = 0): number {
  const metafields = metafieldCount > 0 ? 2 + 2 * metafieldCount : 0;
  const perId = 1 + localeCount * (1 + 4 + metafields);
  return Math.max(1, Math.min(250, Math.floor(MAX_QUERY_COST / perId)));
}

/**
 * The translations of metafields by id (the chosen variant metafields the re-read read: their
 * gids are in it), one aliased `translations(locale:)` per locale (`t0`, …). Asked by id rather
 * than through each product's variants, which would cost a variant connection per product.
 */
export function metafieldTranslationsQuery(locales: readonly string[]): string {
  const fields = locales.map((locale, index) => {
    if (!isLocaleTag(locale)) throw new Error(`"${locale}" is not a locale`);
    return `t${index}: translations(locale: ${JSON.stringify(locale)}) { key value outdated }`;
  });
  return `query MetafieldTranslations($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Metafield {
      id
      ${fields.join("\n      ")}
    }
  }
}`;
}

/** Metafield ids per `metafieldTranslationsQuery`: 1 an id and 1 a locale, within 1,000. */
export function metafieldTranslationIdsPerQuery(localeCount: number): number {
  return Math.max(1, Math.min(250, Math.floor(MAX_QUERY_COST / (1 + localeCount))));
}

/**
 * The products' translations into each locale, in one query: one aliased
 * `translations(locale:)` per locale (`t0`, `t1`, …, in the order given), and, when the shop chose
 * product metafields (`metafieldKeys`, `namespace.key`), each one's translations too (`m0`, …), so
 * a live change keeps a translated metafield as the full sync's fill sends it.
 */
export function productTranslationsQuery(
  locales: readonly string[],
  metafieldKeys: readonly string[] = [],
): string {
  const keys = metafieldKeys.map((key) => JSON.stringify(key)).join(", ");
  const fields = locales.flatMap((locale, index) => {
    if (!isLocaleTag(locale)) throw new Error(`"${locale}" is not a locale`);
    const translations = `translations(locale: ${JSON.stringify(locale)}) { key value outdated }`;
    const own = `t${index}: ${translations}`;
    const options = `o${index}: options { name ${translations} optionValues { name ${translations} } }`;
    if (metafieldKeys.length === 0) return [own, options];
    return [
      own,
      options,
      `m${index}: metafields(first: ${metafieldKeys.length}, keys: [${keys}]) { nodes { namespace key ${translations} } }`,
    ];
  });
  return `query ProductTranslations($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Product {
      id
      ${fields.join("\n      ")}
    }
  }
}`;
}

type TranslationLines = { key: string; value: string | null; outdated: boolean }[];
interface TranslationsData {
  nodes: ({ id: string; [alias: string]: unknown } | null)[];
}

/**
 * One product's translations into one locale: its own, its options' (as read: `name
 * translations optionValues`), and its chosen metafields' by `namespace.key`.
 */
export interface ProductTranslations {
  lines: TranslationLines;
  options: unknown[];
  metafields: Map<string, TranslationLines>;
}

/** Product id → locale → its translations, read for every locale at once. */
export async function readProductTranslations(
  admin: AdminGraphql,
  productIds: readonly string[],
  locales: readonly string[],
  metafieldKeys: readonly string[] = [],
): Promise<Map<string, Map<string, ProductTranslations>>> {
  const found = new Map<string, Map<string, ProductTranslations>>();
  if (productIds.length === 0 || locales.length === 0) return found;
  const query = productTranslationsQuery(locales, metafieldKeys);
  const perQuery = translationIdsPerQuery(locales.length, metafieldKeys.length);
  for (let start = 0; start < productIds.length; start += perQuery) {
    const ids = productIds.slice(start, start + perQuery);
    const data = await queryAdmin<TranslationsData>(admin, query, {
      ids: ids.map((id) => toGid("Product", id)),
    });
    for (const node of data.nodes) {
      if (!node || typeof node.id !== "string") continue;
      const byLocale = new Map<string, ProductTranslations>();
      locales.forEach((locale, index) => {
        const lines = node[`t${index}`];
        const metafields = new Map<string, TranslationLines>();
        const read = (node[`m${index}`] as { nodes?: unknown } | undefined)?.nodes;
        for (const metafield of Array.isArray(read) ? read : []) {
          const { namespace, key, translations } = metafield as Record<string, unknown>;
          if (
            typeof namespace === "string" &&
            typeof key === "string" &&
            Array.isArray(translations)
          )
            metafields.set(metafieldKey({ namespace, key }), translations as TranslationLines);
        }
        const options = node[`o${index}`];
        byLocale.set(locale, {
          lines: Array.isArray(lines) ? lines : [],
          options: Array.isArray(options) ? options : [],
          metafields,
        });
      });
      found.set(numericId(node.id), byLocale);
    }
  }
  return found;
}

/** The gids of the chosen variant metafields a product's variants hold (their aliases). */
function variantMetafieldIdsOf(product: ShopifyProduct): string[] {
  return product.variants.flatMap((variant) =>
    variantMetafields(variant).flatMap((metafield) => {
      const { id } = metafield as { id?: unknown };
      return typeof id === "string" ? [id] : [];
    }),
  );
}

/** Metafield gid → locale → its translations, read for every locale at once. */
async function readMetafieldTranslations(
  admin: AdminGraphql,
  metafieldIds: readonly string[],
  locales: readonly string[],
): Promise<Map<string, Map<string, TranslationLines>>> {
  const found = new Map<string, Map<string, TranslationLines>>();
  if (metafieldIds.length === 0 || locales.length === 0) return found;
  const query = metafieldTranslationsQuery(locales);
  const perQuery = metafieldTranslationIdsPerQuery(locales.length);
  const unique = [...new Set(metafieldIds)];
  for (let start = 0; start < unique.length; start += perQuery) {
    const ids = unique.slice(start, start + perQuery);
    const data = await queryAdmin<TranslationsData>(admin, query, { ids });
    for (const node of data.nodes) {
      if (!node || typeof node.id !== "string") continue;
      const byLocale = new Map<string, TranslationLines>();
      locales.forEach((locale, index) => {
        const lines = node[`t${index}`];
        byLocale.set(locale, Array.isArray(lines) ? (lines as TranslationLines) : []);
      });
      found.set(node.id, byLocale);
    }
  }
  return found;
}

/**
 * The product read in the primary language, as a shopper reading `translations` sees it; its
 * variants' chosen metafields with `variantLines` (by metafield gid), applied as the fill's
 * translated export applies them (applyTranslations on each aliased metafield).
 */
function translatedProduct(
  product: ShopifyProduct,
  read: ProductTranslations | undefined,
  variantLines: (metafieldId: string) => TranslationLines | undefined,
): ShopifyProduct {
  let value = withTranslatedOptions(
    applyTranslations({ ...product, translations: read?.lines ?? [] }) as unknown as ShopifyProduct,
    read?.options ?? [],
  );
  if (read && read.metafields.size > 0 && value.metafields) {
    value = {
      ...value,
      metafields: value.metafields.map((metafield) => {
        const lines = read.metafields.get(metafieldKey(metafield));
        return lines
          ? (applyTranslations({
              ...metafield,
              translations: lines,
            }) as unknown as typeof metafield)
          : metafield;
      }),
    };
  }
  return {
    ...value,
    variants: value.variants.map((variant) => {
      const entries = Object.entries(variant).map(([field, metafield]) => {
        if (
          !field.startsWith(VARIANT_METAFIELD_ALIAS) ||
          !metafield ||
          typeof metafield !== "object"
        )
          return [field, metafield];
        const id = (metafield as { id?: unknown }).id;
        const lines = typeof id === "string" ? variantLines(id) : undefined;
        return [field, applyTranslations({ ...metafield, translations: lines ?? [] })];
      });
      return Object.fromEntries(entries) as ShopifyVariant;
    }),
  };
}

/**
 * A storefront domain's market (its country, currency, prices), kept between passes; `read` asks
 * Shopify when none is kept (ShopMemory.marketPlanOf).
 */
export type MarketPlanKeeper = (
  webPresenceId: string,
  read: () => Promise<PresenceMarketPlan>,
) => Promise<PresenceMarketPlan>;

/** The shop's storefront presences, and the domain workspaces known to have been filled. */
export interface PresencesView {
  presences: StorefrontPresence[];
  /** Ledger keys with a succeeded fill, as found so far; filledPresenceWorkspaces adds to it. */
  filled: Set<string>;
}

/** How the view is had: read now, or kept by the live worker between passes (ShopMemory). */
export type PresencesReader = (shop: Shop) => Promise<PresencesView>;

/** The view read from the database, nothing known filled yet. */
export const readPresences: PresencesReader = async (shop) => ({
  presences: await presenceRowsOf(shop.shopDomain),
  filled: new Set(),
});

/**
 * The domain workspaces a full sync filled: only those follow live changes. Only the workspaces
 * not yet known to be filled are looked up.
 */
export async function filledPresenceWorkspaces(
  shop: Shop,
  presencesOf: PresencesReader = readPresences,
): Promise<PresenceWorkspace[]> {
  const { presences, filled } = await presencesOf(shop);
  const { workspaces } = presenceWorkspacesOf(shop, presences);
  const unknown = workspaces.map((w) => w.ledgerKey).filter((key) => !filled.has(key));
  for (const key of await keysWithSucceededRun(unknown)) filled.add(key);
  const ours = workspaces.filter((workspace) => filled.has(workspace.ledgerKey));
  // Never into another store's workspace (one filled before claims found it was another's).
  const held = await heldByOtherShops(
    shop.shopDomain,
    ours.map((workspace) => workspace.workspaceId),
  );
  return ours.filter((workspace) => !held.has(workspace.workspaceId));
}

/** What the primary's pass learnt of the batch, for the domains to reuse. */
export interface PrimaryOutcome {
  /** The filled domain workspaces, each with its ledger scope and its hashes of the batch. */
  workspaces: readonly (PresenceWorkspace & {
    scope: LedgerScope;
    indexed: ReadonlyMap<string, string>;
  })[];
  /** Changes the shop's workspace is to send or settled as unchanged (none held for quota). */
  candidates: readonly PendingChange[];
  /** Products read whole from Shopify (primary language). */
  read: readonly ShopifyProduct[];
  /** Products gone or no longer indexable. */
  gone: ReadonlySet<string>;
  /** Stock changes: the primary's document with its new stock. */
  restocked: ReadonlyMap<string, IndexProduct>;
  mapContext: MapContext;
}

interface DomainUpsert {
  id: string;
  item: IndexProduct;
  hash: string;
  collectionIds: string | null;
  isNew: boolean;
}

/** What one domain workspace is to get of a batch: its changed documents and its deletions. */
interface DomainSend {
  workspace: PresenceWorkspace & { scope: LedgerScope };
  upserts: DomainUpsert[];
  deletes: string[];
}

/**
 * The batch's sends to the storefront domains' workspaces, planned before the shop's own send
 * (decision 0063): what is read for them (translations, markets, prices) and what they are to
 * get, so that the pass's requests then go one after another.
 */
export interface DomainSends {
  sends: DomainSend[];
  /** Changes whose domain sends could not be planned (a read failed): they stay in the outbox. */
  failed: Map<string, string>;
  /** The bulk requests the sends take, if the shop's own settles every candidate. */
  requests: number;
}

/** A send stopped on purpose (lease, shop paused, full sync): the pass stops, nothing is noted. */
function stoppedOnPurpose(error: unknown): boolean {
  return (
    error instanceof LeaseLostError ||
    (error instanceof Error && error.name === "LiveSendInterrupted")
  );
}

/**
 * Reads and maps what each filled domain workspace is to get of the batch's candidates. A domain
 * whose reads fail keeps the changes in the outbox, with the reason; the shop's own send goes on.
 */
export async function planDomainSends(
  context: ApplyContext,
  primary: PrimaryOutcome,
): Promise<DomainSends> {
  const planned: DomainSends = { sends: [], failed: new Map(), requests: 0 };
  const { workspaces } = primary;
  if (primary.candidates.length === 0 || workspaces.length === 0) return planned;
  const ids = primary.candidates.map((row) => row.productId);
  try {
    await planInto(planned, context, primary, ids);
  } catch (error) {
    if (stoppedOnPurpose(error)) throw error;
    const hosts = workspaces.map((workspace) => workspace.host).join(", ");
    const reason = error instanceof Error ? error.message : String(error);
    log.warn(
      { err: error, shop: context.shop.shopDomain },
      `${hosts}: live changes not read; they are tried again`,
    );
    for (const id of ids) planned.failed.set(id, `${hosts}: ${reason}`);
  }
  planned.requests = planned.sends.reduce(
    (sum, send) =>
      sum + bulkRequestsFor(send.upserts.length) + bulkRequestsFor(send.deletes.length),
    0,
  );
  return planned;
}

async function planInto(
  planned: DomainSends,
  context: ApplyContext,
  primary: PrimaryOutcome,
  ids: readonly string[],
): Promise<void> {
  const { workspaces } = primary;
  const readById = new Map(primary.read.map((product) => [numericId(product.id), product]));

  // Stock changes whose domain document cannot take the primary's stock are read whole, once;
  // those of products the domain's workspace does not hold are nothing to it.
  const byWorkspace = new Map<string, { whole: string[]; stock: DomainUpsert[] }>();
  const extra = new Set<string>();
  for (const workspace of workspaces) {
    const documents = await indexedDocuments(workspace.scope, "product", [
      ...primary.restocked.keys(),
    ]);
    const whole: string[] = [];
    const stock: DomainUpsert[] = [];
    for (const id of ids) {
      const restocked = primary.restocked.get(id);
      if (!restocked) {
        if (readById.has(id)) whole.push(id);
        continue;
      }
      const kept = documents.get(id);
      // Not in this domain's workspace (not sold in its market, say): a stock change does not
      // put it there. Read whole, it was read again with each order (a sale's favourite, with
      // its translations and market prices each time).
      if (!kept) continue;
      const previous = parseKept(kept.content, kept.contentHash);
      const item = previous ? withStockOf(previous, restocked) : null;
      if (item) {
        stock.push({
          id,
          item,
          hash: contentHash(item),
          collectionIds: kept.collectionIds,
          isNew: false,
        });
      } else {
        whole.push(id);
        if (!readById.has(id)) extra.add(id);
      }
    }
    byWorkspace.set(workspace.workspaceId, { whole, stock });
  }
  if (extra.size > 0) {
    const again = await rereadProducts(context.admin, [...extra], primary.mapContext.metafields);
    await primary.mapContext.referenceNames?.learn(again.products);
    for (const product of again.products) readById.set(numericId(product.id), product);
  }
  const toTranslate = [...new Set([...byWorkspace.values()].flatMap((w) => w.whole))].filter((id) =>
    readById.has(id),
  );
  const locales = [...new Set(workspaces.map((workspace) => workspace.locale))];
  const translations = await readProductTranslations(
    context.admin,
    toTranslate,
    locales,
    productMetafieldsOf(primary.mapContext.metafields ?? []).map(metafieldKey),
  );
  const variantTranslations = await readMetafieldTranslations(
    context.admin,
    toTranslate.flatMap((id) => variantMetafieldIdsOf(readById.get(id)!)),
    locales,
  );

  // Each domain's market, as its fill reads it: its prices and product selection (decision 0036).
  const plans = new Map<string, PresenceMarketPlan>();
  if (toTranslate.length > 0) {
    for (const workspace of workspaces) {
      const read = () =>
        presenceMarketPlan(context.admin, workspace.webPresenceId, context.shop.currencyCode);
      plans.set(
        workspace.workspaceId,
        await (context.marketPlanOf ? context.marketPlanOf(workspace.webPresenceId, read) : read()),
      );
    }
  }
  const countries = [...new Set([...plans.values()].flatMap((plan) => plan.country ?? []))];
  const contexts = await readMarketContexts(
    context.admin,
    toTranslate.map((id) => readById.get(id)!),
    countries,
  );

  const { currency: _shopCurrency, ...primaryContext } = primary.mapContext;
  const referenceNamesOf = referenceNamesByLocale(
    context.admin,
    primaryContext.metafields ?? [],
    primaryContext.referenceNames,
  );
  for (const workspace of workspaces) {
    const { whole, stock } = byWorkspace.get(workspace.workspaceId)!;
    const { indexed } = workspace;
    try {
      const plan = plans.get(workspace.workspaceId);
      const mapContext: MapContext = {
        ...primaryContext,
        primaryDomain: workspace.host,
        referenceNames: referenceNamesOf(workspace.locale),
        ...(plan?.currency ? { currency: plan.currency } : {}),
      };
      await mapContext.referenceNames?.learn(whole.flatMap((id) => readById.get(id) ?? []));
      const report: MarketLinesReport = { unshowable: 0, unpublished: 0 };
      const upserts: DomainUpsert[] = [];
      const deletes = new Set<string>();
      for (const id of whole) {
        const product = readById.get(id);
        if (!product) continue;
        const translated = translatedProduct(
          product,
          translations.get(id)?.get(workspace.locale),
          (metafieldId) => variantTranslations.get(metafieldId)?.get(workspace.locale),
        );
        const value = plan ? productInMarket(translated, plan, contexts, report) : translated;
        const entry = catalogueEntry({ type: "Product", value }, mapContext);
        if (!entry.indexable) {
          if (indexed.has(id)) deletes.add(id);
          continue;
        }
        upserts.push({
          id,
          item: entry.item as IndexProduct,
          hash: entry.hash,
          collectionIds: entry.collectionIds,
          isNew: !indexed.has(id),
        });
      }
      upserts.push(...stock);
      for (const id of primary.gone) if (ids.includes(id) && indexed.has(id)) deletes.add(id);
      planned.sends.push({
        workspace,
        upserts: upserts.filter((upsert) => indexed.get(upsert.id) !== upsert.hash),
        deletes: [...deletes],
      });
    } catch (error) {
      if (stoppedOnPurpose(error)) throw error;
      noteDomainFailure(planned.failed, context, workspace, ids, error);
    }
  }
}

/** The domain's changes stay in the outbox with the reason; logged once per batch. */
function noteDomainFailure(
  failed: Map<string, string>,
  context: ApplyContext,
  workspace: PresenceWorkspace,
  ids: readonly string[],
  error: unknown,
): void {
  const reason = error instanceof Error ? error.message : String(error);
  log.warn(
    { err: error, shop: context.shop.shopDomain, workspaceId: workspace.workspaceId },
    `${workspace.host}: live changes not sent; they are tried again`,
  );
  for (const id of ids) if (!failed.has(id)) failed.set(id, `${workspace.host}: ${reason}`);
}

/**
 * Sends the planned documents of the changes the shop's own workspace settled to every filled
 * domain workspace. Returns the changes a domain did not settle (its reads or service failed,
 * or it refused them): they stay in the outbox, with the reason.
 */
export async function sendToDomainWorkspaces(
  context: ApplyContext & Pick<SettleJob<unknown>, "prepaid" | "deferredLedger">,
  planned: DomainSends,
  settled: readonly PendingChange[],
): Promise<{ failed: Map<string, string>; upserted: number; deleted: number }> {
  const ids = settled.map((row) => row.productId);
  const failed = new Map([...planned.failed].filter(([id]) => ids.includes(id)));
  const counts = { failed, upserted: 0, deleted: 0 };
  if (settled.length === 0) return counts;
  const isSettled = new Set(ids);
  for (const { workspace, upserts, deletes } of planned.sends) {
    try {
      const client = serviceClientForWorkspace(context.shop, workspace.workspaceId);
      const sent = await sendAndSettle({
        ...context,
        client,
        scope: workspace.scope,
        kind: "product",
        action: "upsert",
        items: upserts.filter((upsert) => isSettled.has(upsert.id)),
        idOf: (u) => u.id,
        payloadOf: (u) => u.item,
        hashOf: (u) => u.hash,
        collectionIdsOf: (u) => u.collectionIds,
        isNew: (u) => u.isNew,
        seenMark: "live",
        quotaShopDomain: context.shop.shopDomain,
        // A product new to a domain that the month's quota cannot hold waits for the next full
        // sync's fill (which plans within the quota); updates go on.
        holdBack: async (refused) => refused.filter((u) => !u.isNew),
      });
      for (const { item, error } of sent.refused) {
        failed.set(item.id, `${workspace.host}: ${error ?? "not acknowledged"}`);
      }
      const removed = await sendAndSettle({
        ...context,
        client,
        scope: workspace.scope,
        kind: "product",
        action: "delete",
        items: deletes.filter((id) => isSettled.has(id)),
        idOf: (id) => id,
        payloadOf: () => null,
        hashOf: () => "",
        isNew: () => false,
        seenMark: "live",
        quotaShopDomain: context.shop.shopDomain,
        holdBack: async () => [],
      });
      for (const { item, error } of removed.refused) {
        failed.set(item, `${workspace.host}: ${error ?? "not acknowledged"}`);
      }
      counts.upserted += sent.acknowledged.length;
      counts.deleted += removed.acknowledged.length;
    } catch (error) {
      if (stoppedOnPurpose(error)) throw error;
      noteDomainFailure(failed, context, workspace, ids, error);
    }
  }
  return counts;
}

/** A domain workspace's ledger, under its own key; fenced by the shop's lease when given. */
export function domainScopeOf(workspace: PresenceWorkspace, fence?: LeaseFence): LedgerScope {
  return {
    shopDomain: workspace.ledgerKey,
    workspaceId: workspace.workspaceId,
    ...(fence ? { fence } : {}),
  };
}

/**
 * The domain's document with the stock of the primary's new one (stock does not depend on the
 * language): null when their variants are not the same ones, in the same order.
 */
export function withStockOf(kept: IndexProduct, primary: IndexProduct): IndexProduct | null {
  const listed = kept.variants ?? [];
  const fresh = primary.variants ?? [];
  if (listed.length !== fresh.length) return null;
  if (listed.some((variant, index) => variant.id !== fresh[index]!.id)) return null;
  const next: IndexProduct = {
    ...kept,
    stock_status: primary.stock_status,
    updated_at: primary.updated_at,
  };
  delete next.stock_quantity;
  if (primary.stock_quantity !== undefined) next.stock_quantity = primary.stock_quantity;
  if (kept.variants) {
    next.variants = listed.map((variant, index) => ({
      ...variant,
      available: fresh[index]!.available,
    }));
  }
  return next;
}

/**
 * A domain's document sent this long after a translation changed was read after it: the check
 * leaves it out (a re-read then takes seconds; a fill's longer export is settled by the next
 * daily fill).
 */
const SENT_AFTER_MARGIN_MS = 60_000;

/**
 * Bulk export of every product's translations into `locale`, with when each was last changed:
 * Shopify has no webhook for a translation (2026-10), so the hourly check finds them here.
 */
export function translationsChangedBulkQuery(
  locale: string,
  /** The chosen variant metafields: theirs are on each variant, under their aliases. */
  variantMetafields: readonly MetafieldChoice[] = [],
  /** The chosen product metafields: theirs are lines of their own, under their product. */
  productMetafields: readonly MetafieldChoice[] = [],
): string {
  if (!isLocaleTag(locale)) throw new Error(`"${locale}" is not a locale`);
  const dated = `translations(locale: ${JSON.stringify(locale)}) { key updatedAt }`;
  const aliased = variantMetafields.map(
    (metafield, index) =>
      `${VARIANT_METAFIELD_ALIAS}${index}: metafield(namespace: ${JSON.stringify(metafield.namespace)}, key: ${JSON.stringify(metafield.key)}) { ${dated} }`,
  );
  const variants =
    aliased.length === 0
      ? ""
      : `
        variants {
          edges {
            node {
              id
              ${aliased.join("\n              ")}
            }
          }
        }`;
  const keys = productMetafields.map((metafield) => JSON.stringify(metafieldKey(metafield)));
  const metafields =
    keys.length === 0
      ? ""
      : `
        metafields(keys: [${keys.join(", ")}]) {
          edges {
            node {
              id
              ${dated}
            }
          }
        }`;
  return `{
  products {
    edges {
      node {
        id
        title
        ${dated}
        options { ${dated} optionValues { ${dated} } }${variants}${metafields}
      }
    }
  }
}`;
}

/**
 * For the hourly check: the products a domain workspace holds whose translation into its
 * language was registered since `since` (one bulk export per language, no query points). The
 * worker then re-reads them: the shop's workspace finds nothing to send, the domain's its new
 * text. A translation removed leaves no date behind: the daily full sync's fill finds it.
 */
export async function productsWithNewTranslations(
  shop: Shop,
  since: Date,
  runExport: (query: string) => Promise<string | null>,
  open: (url: string) => BulkSource,
  /** The shop's chosen metafields: their translations are compared too. */
  chosen: readonly MetafieldChoice[] = [],
): Promise<{ id: string; title: string }[]> {
  const workspaces = await filledPresenceWorkspaces(shop);
  const found = new Map<string, string>();
  const variantChosen = variantMetafieldsOf(chosen);
  for (const locale of new Set(workspaces.map((workspace) => workspace.locale))) {
    const url = await runExport(
      translationsChangedBulkQuery(locale, variantChosen, productMetafieldsOf(chosen)),
    );
    if (!url) continue;
    const changed = new Map<string, { title: string; at: number }>();
    const titles = new Map<string, string>();
    const splitter = new LineSplitter();
    const onLine = (text: string) => {
      type Dated = { translations?: { updatedAt?: string }[] };
      const line = JSON.parse(text) as Dated & {
        id?: string;
        title?: string;
        __parentId?: string;
        options?: (Dated & { optionValues?: Dated[] })[];
        [alias: `${typeof VARIANT_METAFIELD_ALIAS}${number}`]: Dated | null | undefined;
      };
      if (typeof line.id !== "string") return;
      let product: string;
      let dated: { updatedAt?: string }[];
      if (line.id.includes("/Product/")) {
        product = numericId(line.id);
        titles.set(product, line.title ?? product);
        // The product's own translations, and its options' and option values' (resources of
        // their own).
        dated = [
          line,
          ...(line.options ?? []).flatMap((option) => [option, ...(option.optionValues ?? [])]),
        ].flatMap((resource) => resource.translations ?? []);
      } else if (line.id.includes("/Metafield/") && typeof line.__parentId === "string") {
        // A chosen product metafield's line (after its product's): its translations.
        product = numericId(line.__parentId);
        dated = line.translations ?? [];
      } else if (line.id.includes("/ProductVariant/") && typeof line.__parentId === "string") {
        // A variant's line (after its product's): its chosen metafields' translations.
        product = numericId(line.__parentId);
        dated = variantChosen.flatMap(
          (_, index) => line[`${VARIANT_METAFIELD_ALIAS}${index}`]?.translations ?? [],
        );
      } else return;
      const latest = Math.max(
        0,
        ...dated.map((translation) =>
          typeof translation.updatedAt === "string" ? Date.parse(translation.updatedAt) || 0 : 0,
        ),
      );
      if (latest >= +since && latest > (changed.get(product)?.at ?? 0)) {
        changed.set(product, { title: titles.get(product) ?? product, at: latest });
      }
    };
    for await (const chunk of await open(url)()) splitter.push(chunk, onLine);
    splitter.end(onLine);
    const ids = [...changed.keys()];
    for (const workspace of workspaces.filter((w) => w.locale === locale)) {
      // Held by the domain, and not sent well after the translation changed (a send read
      // before the change but written after it is within the margin: queued again).
      const sent = await productsSentAt(domainScopeOf(workspace), ids);
      for (const [id, at] of sent) {
        const translation = changed.get(id)!;
        if (at.getTime() < translation.at + SENT_AFTER_MARGIN_MS) found.set(id, translation.title);
      }
    }
  }
  return [...found].map(([id, title]) => ({ id, title }));
}
