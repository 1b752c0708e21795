import type { PendingChange, Shop } from "@prisma/client";
import {
  compareProductPriority,
  productPriorityKey,
  type AdminGraphql,
  type IndexProduct,
} from "../../catalog";
import { BULK_DELETE_NOT_FOUND_CODE } from "../../index-service/assumptions";
import { sendInBatches } from "../../index-service/bulk";
import type { IndexServiceClient } from "../../index-service/client";
import { QuotaExceededError } from "../../index-service/errors";
import type { Tier } from "../../index-service/tiers";
import type { BulkResult } from "../../index-service/types";
import { workspaceOf } from "../../models/shops.server";
import { catalogueEntry } from "../catalogue-entry";
import { indexedHashes, recordDeleted, recordDelivered, type LedgerScope } from "../ledger.server";
import type { Pacer } from "../pacer";
import { overQuotaReason } from "../plan-quota.server";
import { quotaStanding, recordQuotaSpent, recordReportedQuota } from "../quota-usage.server";
import { holdForQuota, noteAttempt, removeChanges } from "./outbox.server";
import { rereadProducts } from "./reread-products.server";

/** The ledger's "last seen by run" of items live updates sent (a full sync overwrites it). */
export const LIVE_SEEN_MARK = "live";

export interface ApplyContext {
  /** The shop as read just before this batch. */
  shop: Shop;
  tier: Tier;
  /** The service's client with the shop's key, scoped to its workspace. */
  client: IndexServiceClient;
  admin: AdminGraphql;
  pacer: Pacer;
  now: () => Date;
  /**
   * Called right before each request to the service; throws to stop sending at once (the app
   * was uninstalled, the shop paused, a full sync started). Nothing is then removed.
   */
  guard: () => Promise<void>;
  /** Try new products even though the quota looked spent (a periodic probe: the plan may have changed). */
  probeQuota: boolean;
}

export interface ApplyResult {
  upserted: number;
  deleted: number;
  /** Products whose content the service already holds, or that were never indexed and are gone. */
  unchanged: number;
  /** New products waiting for the month's quota. */
  heldForQuota: number;
  /** Products the service refused one by one (they stay in the outbox). */
  refused: number;
}

interface Upsert {
  row: PendingChange;
  item: IndexProduct;
  hash: string;
  isNew: boolean;
}

/**
 * Applies a batch of pending changes of one shop: the products are re-read from Shopify, mapped
 * as the full sync maps them and compared with the ledger; what changed is upserted, what is gone
 * or no longer indexable (draft, archived, unlisted, unpublished) is deleted, in bulk requests
 * through the shop's pacer. A change leaves the outbox only once the service acknowledged it and
 * the ledger says so.
 */
export async function applyChanges(
  context: ApplyContext,
  rows: readonly PendingChange[],
): Promise<ApplyResult> {
  const { shop } = context;
  const workspaceId = workspaceOf(shop);
  if (!workspaceId) throw new Error(`${shop.shopDomain} has no workspace`);
  const scope: LedgerScope = { shopDomain: shop.shopDomain, workspaceId };
  const result: ApplyResult = {
    upserted: 0,
    deleted: 0,
    unchanged: 0,
    heldForQuota: 0,
    refused: 0,
  };
  const byId = new Map(rows.map((row) => [row.productId, row]));

  const read = await rereadProducts(context.admin, [...byId.keys()]);
  const indexed = await indexedHashes(scope, "product", [...byId.keys()]);
  const mapContext = { primaryDomain: shop.primaryDomain ?? shop.shopDomain };

  const upserts: Upsert[] = [];
  const deletes: PendingChange[] = [];
  const settled: PendingChange[] = [];
  const gone = new Set(read.missing);
  for (const product of read.products) {
    const entry = catalogueEntry({ type: "Product", value: product }, mapContext);
    const row = byId.get(entry.id);
    if (!row) continue;
    const previous = indexed.get(entry.id);
    if (!entry.indexable) gone.add(entry.id);
    else if (previous === entry.hash) settled.push(row);
    else {
      upserts.push({
        row,
        item: entry.item as IndexProduct,
        hash: entry.hash,
        isNew: previous === undefined,
      });
    }
  }
  for (const id of gone) {
    const row = byId.get(id);
    if (!row) continue;
    if (indexed.has(id)) deletes.push(row);
    else settled.push(row);
  }

  const toSend = await withinQuota(context, upserts, result);
  const upserted = await sendUpserts(context, scope, toSend, result);
  const deleted = await sendDeletes(context, deletes, result);

  // The ledger first, then the outbox (no transaction, as the sync engine writes): a crash in
  // between leaves the changes pending, and their next pass finds the ledger up to date.
  const sentAt = context.now();
  const items = upserted.map((u) => ({ itemId: u.item.id, contentHash: u.hash }));
  await recordDelivered(scope, "product", items, LIVE_SEEN_MARK, sentAt);
  await recordDeleted(
    scope,
    "product",
    deleted.map((row) => row.productId),
  );
  await removeChanges([...upserted.map((u) => u.row), ...deleted, ...settled]);
  result.upserted = upserted.length;
  result.deleted = deleted.length;
  result.unchanged = settled.length;
  return result;
}

/**
 * New products count against the month's quota: when it cannot hold them all, the most deserving
 * go (buyable first, then most recently updated) and the rest wait in the outbox, marked with the
 * reason, for the reset or a bigger plan. Updates of indexed products always go.
 */
async function withinQuota(
  context: ApplyContext,
  upserts: Upsert[],
  result: ApplyResult,
): Promise<Upsert[]> {
  const fresh = upserts.filter((u) => u.isNew);
  if (fresh.length === 0 || context.probeQuota) return upserts;
  const now = context.now();
  const standing = await quotaStanding(context.shop.shopDomain, context.tier, "product", now);
  if (fresh.length <= standing.remaining) return upserts;
  fresh.sort((a, b) =>
    compareProductPriority(productPriorityKey(a.item), productPriorityKey(b.item)),
  );
  const held = new Set(fresh.slice(standing.remaining));
  const ids = [...held].map((u) => u.row.productId);
  await holdForQuota(context.shop.shopDomain, ids, overQuotaReason("product", standing, now));
  result.heldForQuota += held.size;
  return upserts.filter((u) => !held.has(u));
}

async function sendUpserts(
  context: ApplyContext,
  scope: LedgerScope,
  upserts: Upsert[],
  result: ApplyResult,
): Promise<Upsert[]> {
  if (upserts.length === 0) return [];
  const { client, pacer } = context;
  const send = (batch: Upsert[]) =>
    sendInBatches(
      batch,
      async (items) => {
        const response = await pacer.send(async () => {
          await context.guard();
          return client.bulkUpsertProducts(items.map((u) => u.item));
        });
        pacer.observeUsage(response.usage);
        if (response.usage) {
          await recordReportedQuota(
            scope.shopDomain,
            "product",
            context.now(),
            response.usage.quota,
          );
        }
        return response.data;
      },
      { idOf: (u) => u.item.id },
    );
  let sent = upserts;
  let answer: BulkResult;
  try {
    answer = await send(sent);
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    // The service says the month's quota is spent: new products wait, updates go on.
    const now = context.now();
    await recordQuotaSpent(scope.shopDomain, "product", context.tier, now);
    const standing = await quotaStanding(scope.shopDomain, context.tier, "product", now);
    const fresh = sent.filter((u) => u.isNew);
    await holdForQuota(
      scope.shopDomain,
      fresh.map((u) => u.row.productId),
      overQuotaReason("product", standing, now),
    );
    result.heldForQuota += fresh.length;
    sent = sent.filter((u) => !u.isNew);
    if (sent.length === 0) return [];
    answer = await send(sent);
  }
  return acknowledged(context, sent, (u) => u.item.id, answer, false, result);
}

async function sendDeletes(
  context: ApplyContext,
  deletes: PendingChange[],
  result: ApplyResult,
): Promise<PendingChange[]> {
  if (deletes.length === 0) return [];
  const { client, pacer } = context;
  const answer = await sendInBatches(
    deletes,
    async (rows) => {
      const response = await pacer.send(async () => {
        await context.guard();
        return client.bulkDeleteProducts(rows.map((row) => row.productId));
      });
      pacer.observeUsage(response.usage);
      return response.data;
    },
    { idOf: (row) => row.productId },
  );
  return acknowledged(context, deletes, (row) => row.productId, answer, true, result);
}

/** The items the service acknowledged; the others stay in the outbox with the service's reason. */
async function acknowledged<T>(
  context: ApplyContext,
  items: T[],
  idOf: (item: T) => string,
  answer: BulkResult,
  deleting: boolean,
  result: ApplyResult,
): Promise<T[]> {
  const ok = new Set(answer.successfulIds);
  // Deleting what the service does not hold leaves it as wanted: gone.
  if (deleting) {
    for (const failure of answer.failedItems) {
      if (failure.error.startsWith(BULK_DELETE_NOT_FOUND_CODE)) ok.add(failure.id);
    }
  }
  const refusals = new Map(answer.failedItems.map((failure) => [failure.id, failure.error]));
  const refused = items.filter((item) => !ok.has(idOf(item)));
  for (const item of refused) {
    const id = idOf(item);
    await noteAttempt(
      context.shop.shopDomain,
      [id],
      refusals.get(id) ?? "The search service did not acknowledge this product.",
    );
  }
  result.refused += refused.length;
  return items.filter((item) => ok.has(idOf(item)));
}
