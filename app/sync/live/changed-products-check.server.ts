/**
 * The changed-products check: every RECONCILE_CHECK_EVERY_MINUTES (hourly by default), each shop's
 * products are compared with the ledger without relying on a webhook, and what differs is repaired
 * through the live outbox. Its history (with the reconciling full syncs', as "full" checks) is the
 * ReconcileCheck table (models/check-history.server.ts). Not the key check of Settings, which
 * proves a secret key (shop/service-keys.server.ts).
 */
import type { ReconcileCheck } from "@prisma/client";
import {
  documentCurrencyOf,
  COLLECTIONS_CHANGED_QUERY,
  numericId,
  PRODUCT_SHAPES_BULK_QUERY,
  productsChangedSinceBulkQuery,
  readBulkExport,
  updatedAfterTerm,
  type IndexProduct,
  type CollectionsChangedData,
  type MapContext,
  type ShopifyProduct,
} from "../../catalogue";
import { startBulkQuery, waitForBulkOperation } from "../../shopify/bulk-operation";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { urlSource } from "../../shopify/bulk-source";
import {
  chosenMetafieldsOf,
  findShop,
  noteDomainMarketsChanged,
  productSyncingShops,
  workspaceOf,
} from "../../models/shops.server";
import {
  indexedHashes,
  indexedMembersOf,
  indexedProductRows,
  indexedProducts,
  type LedgerScope,
} from "../../models/ledger.server";
import { enqueueProductUpdates } from "../../models/outbox.server";
import {
  CHECK_ITEMS_KEPT,
  lastCheckWithoutError,
  latestChangedProductsCheck,
  latestFinishedCheck,
  latestRepairingCheck,
  recordCheckFailed,
  recordCheckFinished,
  recordChangedProductsCheckStarted,
  type RepairedItem,
} from "../../models/check-history.server";
import { lastSucceededRun, unfinishedRun } from "../../models/sync-runs.server";
import { catalogueEntry, collectionIdsOf } from "../engine/catalogue-entry";
import { rereadProducts } from "./reread-products.server";
import { differingInStockAlone } from "./restock-products.server";
import { productsWithNewTranslations } from "./domain-workspaces.server";
import { productsWithMarketChanges } from "./market-changes.server";
import { logFor } from "../../server/log";
import { repeatWithoutOverlap } from "../../server/repeat-without-overlap";
import { referenceNamesFor } from "../engine/reference-names.server";

const log = logFor("reconcile");

/**
 * Shopify's `updated_at` and this server's clock may differ a little: each check looks this far
 * before the previous one began (re-reading a few unchanged products costs nothing: their hashes
 * match the ledger).
 */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** Ledger rows (and exported ids) compared per query. */
const COMPARE_BATCH = 500;
/** Collections per page of the changed-collections query (ids only: ~252 points requested). */
const COLLECTIONS_PAGE_SIZE = 250;

export interface ChangedProductsCheckOptions {
  shopDomain: string;
  admin: AdminGraphql;
  now?: () => Date;
  /** How often the bulk operation's status is asked (default 1 s). */
  pollMs?: number;
  /** Give up waiting for the export after this long (default 30 min). */
  timeoutMs?: number;
}

/** Where an incremental check starts: the previous check, else the last finished full sync. */
async function changedProductsCheckedUpTo(shopDomain: string): Promise<Date | null> {
  const [check, run] = await Promise.all([
    lastCheckWithoutError(shopDomain),
    lastSucceededRun(shopDomain),
  ]);
  const times = [check?.startedAt, run?.startedAt].filter((time): time is Date => !!time);
  if (times.length === 0) return null;
  return new Date(Math.max(...times.map((time) => time.getTime())));
}

/**
 * The hourly check, in three parts, none of which relies on a webhook:
 * 1. the products Shopify changed since the last check (a bulk export by `updated_at`), mapped,
 *    hashed and compared with the ledger: a lost stock, publication or product webhook;
 * 2. every product's id, status, Online Store URL and collections (a second, small bulk export of
 *    the whole catalogue) against the ledger: an indexed product deleted, unpublished or archived
 *    whose webhook was lost, and one whose collections changed without it (taken out of a
 *    collection on the collection's page, a collection deleted);
 * 3. the collections changed since the last check (renamed; a paged query of ids): the products
 *    the ledger has in them are re-read and compared;
 * 4. for each filled storefront domain, the translations into its language changed since then,
 *    and its market's prices and selection against its workspace's documents (decision 0047).
 * What differs goes into the live outbox, so the worker sends it by the one path; the check is
 * stored with what it repaired, by title. Returns null when the shop is not one to check now (not
 * active, nothing synced yet, a full sync under way). Neither export costs query points.
 */
export async function checkChangedProducts(
  options: ChangedProductsCheckOptions,
): Promise<ReconcileCheck | null> {
  const now = options.now ?? (() => new Date());
  const { shopDomain, admin } = options;
  const shop = await findShop(shopDomain);
  const workspaceId = shop && workspaceOf(shop);
  if (!shop || shop.state !== "active" || !shop.syncProducts || !workspaceId) return null;
  if (!shop.secretKeyCiphertext || (await unfinishedRun(shopDomain))) return null;
  const upTo = await changedProductsCheckedUpTo(shopDomain);
  if (!upTo) return null;
  const since = new Date(upTo.getTime() - CLOCK_MARGIN_MS);
  const check = await recordChangedProductsCheckStarted(shopDomain, since, now());
  try {
    const scope: LedgerScope = { shopDomain, workspaceId };
    const metafields = chosenMetafieldsOf(shop);
    const context: MapContext = {
      primaryDomain: shop.primaryDomain ?? shop.shopDomain,
      metafields,
      referenceNames: referenceNamesFor(admin, metafields),
      ...documentCurrencyOf(shop),
    };
    const repaired = new Map<string, RepairedItem>();
    // On the clock of the stock model's times (Shopify's stamps and this server's reads).
    const exportedAt = new Date();
    const changed = await runExport(
      admin,
      productsChangedSinceBulkQuery(since, metafields),
      options,
    );
    /** Products that differ in stock alone, with Shopify's `updatedAt` of the exported product. */
    const stockAlone = new Map<string, Date>();
    const compared = changed
      ? await compareChanged(changed, scope, context, repaired, { ids: stockAlone, exportedAt })
      : new Set<string>();
    const shapes = await runExport(admin, PRODUCT_SHAPES_BULK_QUERY, options);
    if (shapes) await compareShapes(shapes, scope, compared, check.startedAt, repaired);
    const suspects = await membersOfChangedCollections(admin, scope, since);
    const rest = suspects.filter((id) => !compared.has(id) && !repaired.has(id));
    await compareRereads(admin, rest, scope, context, repaired);
    // No webhook tells of a translation: each storefront domain's language is compared here.
    const translated = await productsWithNewTranslations(
      shop,
      since,
      (query) => runExport(admin, query, options),
      urlSource,
      metafields,
    );
    for (const { id, title } of translated) {
      if (!repaired.has(id)) repaired.set(id, { id, title, action: "updated" });
    }
    // Nor of a market's price list or publication: each domain market's prices are compared.
    const marketChanged = await productsWithMarketChanges(
      shop,
      admin,
      (query) => runExport(admin, query, options),
      urlSource,
    );
    for (const item of marketChanged) if (!repaired.has(item.id)) repaired.set(item.id, item);
    // The worker may keep a market older than the one this check read (decision 0064).
    if (marketChanged.length > 0) await noteDomainMarketsChanged(shopDomain);
    const items = [...repaired.values()];
    const at = now();
    const ids = items.map((item) => item.id);
    await enqueueProductUpdates(
      shopDomain,
      ids.filter((id) => !stockAlone.has(id)),
      at,
      at,
    );
    // A difference in stock alone is settled by a stock read (restock-products.server.ts), or by
    // the stock model; stamped with Shopify's time of the product, which the document takes.
    for (const id of ids) {
      const updatedAt = stockAlone.get(id);
      if (updatedAt) await enqueueProductUpdates(shopDomain, [id], updatedAt, at, "stock");
    }
    return await recordCheckFinished(check.id, {
      finishedAt: now(),
      compared: compared.size + rest.length,
      repaired: items.length,
      items: items.slice(0, CHECK_ITEMS_KEPT),
    });
  } catch (error) {
    await recordCheckFailed(check.id, {
      finishedAt: now(),
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/** Compares exported products with the ledger by hash; returns the ids compared. */
async function compareChanged(
  url: string,
  scope: LedgerScope,
  context: MapContext,
  repaired: Map<string, RepairedItem>,
  /** Gets the ids of those that differ from the ledger's kept document in stock alone. */
  stockAlone: { ids: Map<string, Date>; exportedAt: Date },
): Promise<Set<string>> {
  const compared = new Set<string>();
  const exported = await readBulkExport(urlSource(url));
  const batch: { id: string; title: string; hash: string | null; item?: IndexProduct }[] = [];
  const flush = async () => {
    await noteDifferences(scope, batch, repaired);
    const differing = batch.flatMap((entry) =>
      entry.item && repaired.get(entry.id)?.action === "updated" ? [entry.item] : [],
    );
    const alone = await differingInStockAlone(scope, differing, stockAlone.exportedAt);
    for (const item of differing) {
      const updatedAt = new Date(item.updated_at);
      if (alone.has(item.id)) {
        stockAlone.ids.set(item.id, Number.isNaN(updatedAt.getTime()) ? new Date() : updatedAt);
      }
    }
    for (const entry of batch) compared.add(entry.id);
    batch.length = 0;
  };
  const add = (product: ShopifyProduct) => {
    const entry = catalogueEntry({ type: "Product", value: product }, context);
    batch.push({
      id: entry.id,
      title: product.title,
      hash: entry.indexable ? entry.hash : null,
      ...(entry.indexable && entry.kind === "product" ? { item: entry.item as IndexProduct } : {}),
    });
  };
  // With references to name, products are kept as read until their names are learnt.
  const unnamed: ShopifyProduct[] = [];
  const compare = async () => {
    if (unnamed.length > 0) {
      await context.referenceNames?.learn(unnamed);
      unnamed.splice(0).forEach(add);
    }
    await flush();
  };
  for await (const object of exported.items()) {
    if (object.type !== "Product") continue;
    if (context.referenceNames) unnamed.push(object.value);
    else add(object.value);
    if (batch.length + unnamed.length >= COMPARE_BATCH) await compare();
  }
  await compare();
  return compared;
}

/** Products whose content (hash, or null when not indexable) differs from the ledger's. */
async function noteDifferences(
  scope: LedgerScope,
  entries: readonly { id: string; title: string; hash: string | null }[],
  repaired: Map<string, RepairedItem>,
): Promise<void> {
  const ledger = await indexedHashes(
    scope,
    "product",
    entries.map((entry) => entry.id),
  );
  for (const entry of entries) {
    const held = ledger.get(entry.id);
    if (entry.hash !== null && held !== entry.hash) {
      repaired.set(entry.id, { id: entry.id, title: entry.title, action: "updated" });
    } else if (entry.hash === null && held !== undefined) {
      repaired.set(entry.id, { id: entry.id, title: entry.title, action: "removed" });
    }
  }
}

/**
 * The whole catalogue's shapes against the ledger: an indexed product Shopify no longer has, or
 * no longer lets be indexed, is "removed" (named by the ledger's title); one whose collections
 * are not those its indexed content was built from is "updated". Products compared by content
 * already (`compared`), and those sent after the check began (the worker may have sent what the
 * export did not see yet), are left out.
 */
async function compareShapes(
  url: string,
  scope: LedgerScope,
  compared: ReadonlySet<string>,
  began: Date,
  repaired: Map<string, RepairedItem>,
): Promise<void> {
  const exported = await readBulkExport(urlSource(url));
  const indexable = new Set<string>();
  const batch: { id: string; collectionIds: string | null }[] = [];
  const flush = async () => {
    const rows = await indexedProductRows(
      scope,
      batch.map((entry) => entry.id),
      began,
    );
    for (const entry of batch) {
      const row = rows.get(entry.id);
      if (!row || row.collectionIds === null || entry.collectionIds === null) continue;
      if (row.collectionIds !== entry.collectionIds && !compared.has(entry.id)) {
        repaired.set(entry.id, { id: entry.id, title: row.title ?? entry.id, action: "updated" });
      }
    }
    batch.length = 0;
  };
  for await (const object of exported.items()) {
    if (object.type !== "Product") continue;
    const product = object.value;
    if (product.status !== "ACTIVE" || !product.onlineStoreUrl) continue;
    const id = numericId(product.id);
    indexable.add(id);
    batch.push({ id, collectionIds: collectionIdsOf(product) });
    if (batch.length >= COMPARE_BATCH) await flush();
  }
  await flush();
  for (let after = ""; ;) {
    const rows = await indexedProducts(scope, began, COMPARE_BATCH, after);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.itemId;
    for (const row of rows) {
      if (indexable.has(row.itemId) || compared.has(row.itemId)) continue;
      repaired.set(row.itemId, {
        id: row.itemId,
        title: row.title ?? row.itemId,
        action: "removed",
      });
    }
  }
}

/** The products the ledger has in the collections Shopify changed since `since` (renamed). */
async function membersOfChangedCollections(
  admin: AdminGraphql,
  scope: LedgerScope,
  since: Date,
): Promise<string[]> {
  const members = new Set<string>();
  for (let after: string | null = null; ;) {
    const data: CollectionsChangedData = await queryAdmin<CollectionsChangedData>(
      admin,
      COLLECTIONS_CHANGED_QUERY,
      { query: updatedAfterTerm(since), first: COLLECTIONS_PAGE_SIZE, after },
    );
    for (const node of data.collections.nodes) {
      for (const id of await indexedMembersOf(scope, numericId(node.id))) members.add(id);
    }
    const page = data.collections.pageInfo;
    if (!page.hasNextPage || !page.endCursor) return [...members];
    after = page.endCursor;
  }
}

/** Re-reads products by id (a few query points each) and compares them with the ledger. */
async function compareRereads(
  admin: AdminGraphql,
  ids: readonly string[],
  scope: LedgerScope,
  context: MapContext,
  repaired: Map<string, RepairedItem>,
): Promise<void> {
  if (ids.length === 0) return;
  const read = await rereadProducts(admin, ids, context.metafields);
  await context.referenceNames?.learn(read.products);
  const entries = read.products.map((product) => {
    const entry = catalogueEntry({ type: "Product", value: product }, context);
    return { id: entry.id, title: product.title, hash: entry.indexable ? entry.hash : null };
  });
  await noteDifferences(scope, entries, repaired);
  if (read.missing.length > 0) {
    const rows = await indexedProductRows(scope, read.missing);
    for (const row of rows.values()) {
      repaired.set(row.itemId, {
        id: row.itemId,
        title: row.title ?? row.itemId,
        action: "removed",
      });
    }
  }
}

/** Runs a bulk export and waits for it; the result's URL, or null when it found nothing. */
async function runExport(
  admin: AdminGraphql,
  query: string,
  options: Pick<ChangedProductsCheckOptions, "pollMs" | "timeoutMs">,
): Promise<string | null> {
  const id = await startBulkQuery(admin, query);
  const state = await waitForBulkOperation(admin, id, {
    pollEveryMs: options.pollMs ?? 1_000,
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
  });
  if (state.status !== "COMPLETED") {
    throw new Error(`The check's export ended ${state.status} (${state.errorCode})`);
  }
  return state.url;
}

/**
 * Every shop due a check (none in the last `everyMinutes`) gets one, one shop after another
 * (a full sweep records its own check as it finishes). Returns the checks made.
 */
export async function checkChangedProductsOfDueShops(
  everyMinutes: number,
  options: { admin: (shopDomain: string) => Promise<AdminGraphql>; now?: () => Date },
): Promise<ReconcileCheck[]> {
  const now = options.now ?? (() => new Date());
  const since = new Date(now().getTime() - everyMinutes * 60_000);
  const shops = await productSyncingShops();
  const made: ReconcileCheck[] = [];
  for (const shop of shops) {
    try {
      const admin = await options.admin(shop.shopDomain);
      const latest = await latestChangedProductsCheck(shop.shopDomain);
      if (latest && latest.startedAt > since) continue;
      const check = await checkChangedProducts({ shopDomain: shop.shopDomain, admin, now });
      if (check) made.push(check);
    } catch (error) {
      log.error({ err: error, shop: shop.shopDomain }, "the check of changed products failed");
    }
  }
  return made;
}

/** Checks due shops regularly (never two passes at once); returns a stop function. */
export function scheduleChangedProductsChecks(
  everyMinutes: number,
  admin: (shopDomain: string) => Promise<AdminGraphql>,
): () => void {
  return repeatWithoutOverlap(
    Math.max(1_000, Math.min(5 * 60_000, (everyMinutes * 60_000) / 4)),
    () => checkChangedProductsOfDueShops(everyMinutes, { admin }),
    (error) => log.error({ err: error }, "the scheduled check failed"),
  );
}

export interface ChangedProductsCheckSummary {
  at: string;
  kind: "incremental" | "full";
  compared: number;
  repaired: number;
  items: RepairedItem[];
  error: string | null;
}

function summary(check: ReconcileCheck): ChangedProductsCheckSummary {
  return {
    at: (check.finishedAt ?? check.startedAt).toISOString(),
    kind: check.kind === "full" ? "full" : "incremental",
    compared: check.compared,
    repaired: check.repaired,
    items: JSON.parse(check.items) as RepairedItem[],
    error: check.error,
  };
}

/**
 * For the dashboard: the latest finished check, and the latest one that repaired something (when
 * it is another, within the last 7 days), with the repaired items by name.
 */
export async function reconcileStatus(
  shopDomain: string,
  now: Date = new Date(),
): Promise<{
  last: ChangedProductsCheckSummary | null;
  lastRepair: ChangedProductsCheckSummary | null;
}> {
  const [last, lastRepair] = await Promise.all([
    latestFinishedCheck(shopDomain),
    latestRepairingCheck(shopDomain, new Date(now.getTime() - 7 * 24 * 3_600_000)),
  ]);
  return {
    last: last ? summary(last) : null,
    lastRepair: lastRepair && lastRepair.id !== last?.id ? summary(lastRepair) : null,
  };
}
