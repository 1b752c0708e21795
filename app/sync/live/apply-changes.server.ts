import type { PendingChange, Shop } from "@prisma/client";
import {
  compareProductPriority,
  documentCurrencyOf,
  productPriorityKey,
  type IndexProduct,
} from "../../catalogue";
import { type AdminGraphql } from "../../shopify/admin-graphql";
import type { IndexServiceClient } from "../../index-service/client";
import type { Tier } from "../../index-service/tiers";
import {
  batchLedger,
  recordDeliveredTogether,
  type DeliveredWrite,
  type LedgerScope,
} from "../../models/ledger.server";
import { ledgerReadWith, type LedgerRead } from "../../models/live-pass.server";
import type { LeaseFence } from "../../models/shop-leases.server";
import { holdForQuota, noteAttempt, removeChanges } from "../../models/outbox.server";
import { quotaStanding } from "../../models/quota-usage.server";
import { chosenMetafieldsOf, workspaceOf } from "../../models/shops.server";
import { catalogueEntry } from "../engine/catalogue-entry";
import type { Pacer, SendGuard } from "../engine/pacer";
import { overQuotaReason } from "../engine/plan-quota.server";
import { sendAndSettle, type SettleJob } from "../engine/send-and-settle.server";
import { bulkRequestsFor } from "../../index-service/bulk";
import { rereadProducts } from "./reread-products.server";
import {
  forgetModelsUnlike,
  restockProducts,
  unchangedBesideStock,
} from "./restock-products.server";
import { referenceNamesFor } from "../engine/reference-names.server";
import {
  domainScopeOf,
  filledPresenceWorkspaces,
  type MarketPlanKeeper,
  type PresencesReader,
  planDomainSends,
  sendToDomainWorkspaces,
} from "./domain-workspaces.server";

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
  guard: SendGuard;
  /** Try new products even though the quota looked spent (a periodic probe: the plan may have changed). */
  probeQuota: boolean;
  /** The shop's lease: the ledger and the outbox are written only while it is still ours. */
  fence?: LeaseFence;
  /** The quota reports this pass recorded already, or read with its runs (SettleJob). */
  quotaReports?: Map<string, string>;
  /** The shop's storefront presences as kept by the worker; read from the database without it. */
  presencesOf?: PresencesReader;
  /** A storefront domain's market as kept by the worker (`read` asks Shopify); asked without it. */
  marketPlanOf?: MarketPlanKeeper;
  /**
   * When the pass read its rows (or a moment before): a change that came in for one of them
   * since waits a coalescing window from then (removeChanges).
   */
  readAt?: Date;
  /** What the pass's first read found in the ledger for these rows, if it read it (passStart). */
  ledgerRead?: LedgerRead | null;
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
  /** The workspaces the batch went to (their ledger scopes), the shop's own first. */
  ledgerScopes: readonly [LedgerScope, ...LedgerScope[]];
}

/** A pass's context while it sends: places taken for its requests, its ledger rows kept. */
type Sending = ApplyContext & Pick<SettleJob<unknown>, "prepaid" | "deferredLedger">;

interface Upsert {
  row: PendingChange;
  item: IndexProduct;
  hash: string;
  collectionIds: string | null;
  isNew: boolean;
}

/**
 * Applies a batch of pending changes of one shop: the products are re-read from Shopify, mapped
 * as the full sync maps them (a stock-only change: its stock read and put into the last document
 * sent, restock-products.server.ts) and compared with the ledger; what changed is upserted, what is gone
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
  const scope: LedgerScope = {
    shopDomain: shop.shopDomain,
    workspaceId,
    ...(context.fence ? { fence: context.fence } : {}),
  };
  const result: ApplyResult = {
    upserted: 0,
    deleted: 0,
    unchanged: 0,
    heldForQuota: 0,
    refused: 0,
    ledgerScopes: [scope],
  };
  const byId = new Map(rows.map((row) => [row.productId, row]));
  const metafields = chosenMetafieldsOf(shop);
  const mapContext = {
    primaryDomain: shop.primaryDomain ?? shop.shopDomain,
    metafields,
    referenceNames: referenceNamesFor(context.admin, metafields),
    ...documentCurrencyOf(shop),
  };

  // The storefront domains that follow the shop's workspace, and what the ledger holds of the
  // batch in each: one read for the pass, or none when the pass's first read had it.
  const workspaces = (await filledPresenceWorkspaces(shop, context.presencesOf)).map(
    (workspace) => ({
      ...workspace,
      scope: domainScopeOf(workspace, context.fence),
    }),
  );
  result.ledgerScopes = [scope, ...workspaces.map((workspace) => workspace.scope)];
  const ledger =
    ledgerReadWith(context.ledgerRead, result.ledgerScopes) ??
    (await batchLedger(result.ledgerScopes, "product", [...byId.keys()], shop.shopDomain));
  // Stock-only changes first: what cannot be sent from the kept document joins the whole re-reads.
  // An order's products/update whose payload matches the kept document is a stock change too;
  // unless metafields are chosen: the payload carries none, so it cannot show that they did not
  // change, and the product is read again whole. So is a change tried before where storefront
  // domains follow: the shop's kept document may be its new content already while a domain that
  // failed it keeps the old one, which a stock change would only give the new stock.
  const asStock =
    mapContext.metafields.length > 0
      ? new Set<string>()
      : unchangedBesideStock(
          ledger.documents,
          rows.filter(
            (row) => row.change === "update" && (workspaces.length === 0 || row.attempts === 0),
          ),
        );
  const isStock = (row: PendingChange) => row.change === "stock" || asStock.has(row.productId);
  const stockOnly = rows
    .filter(isStock)
    .map((row) => ({ productId: row.productId, changedAt: row.changedAt }));
  const restocked = await restockProducts(
    context.admin,
    scope,
    stockOnly,
    mapContext.primaryDomain,
    ledger.documents,
    ledger.models,
  );
  const whole = rows.filter((row) => !isStock(row)).map((row) => row.productId);
  const read = await rereadProducts(
    context.admin,
    [...whole, ...restocked.reread],
    mapContext.metafields,
  );
  await mapContext.referenceNames?.learn(read.products);
  await forgetModelsUnlike(shop.shopDomain, read.products, read.missing, {
    models: ledger.models,
    since: new Set(stockOnly.map((change) => change.productId)),
  });
  const indexed = ledger.hashesIn(scope);

  const upserts: Upsert[] = [];
  const deletes: PendingChange[] = [];
  const settled: PendingChange[] = [];
  const gone = new Set(read.missing);
  const found: Omit<Upsert, "row" | "isNew">[] = [...restocked.entries.values()];
  for (const product of read.products) {
    const entry = catalogueEntry({ type: "Product", value: product }, mapContext);
    if (!entry.indexable) gone.add(entry.id);
    else {
      found.push({
        item: entry.item as IndexProduct,
        hash: entry.hash,
        collectionIds: entry.collectionIds,
      });
    }
  }
  for (const { item, hash, collectionIds } of found) {
    const row = byId.get(item.id);
    if (!row) continue;
    const previous = indexed.get(item.id);
    if (previous === hash) settled.push(row);
    else upserts.push({ row, item, hash, collectionIds, isNew: previous === undefined });
  }
  for (const id of gone) {
    const row = byId.get(id);
    if (!row) continue;
    if (indexed.has(id)) deletes.push(row);
    else settled.push(row);
  }

  const toSend = await withinQuota(context, upserts, result);
  // What the storefront domains' workspaces are to get is read and mapped before anything is
  // sent (decision 0063): the pass's requests then go one after another, their places in the
  // key's window taken in one statement with the check, and their ledger rows written in one.
  const domainSends = await planDomainSends(context, {
    workspaces: workspaces.map((workspace) => ({
      ...workspace,
      indexed: ledger.hashesIn(workspace.scope),
    })),
    candidates: [...toSend.map((u) => u.row), ...deletes, ...settled],
    read: read.products,
    gone,
    restocked: new Map([...restocked.entries].map(([id, entry]) => [id, entry.item])),
    mapContext,
  });
  const requests =
    bulkRequestsFor(toSend.length) + bulkRequestsFor(deletes.length) + domainSends.requests;
  const prepaid = await context.pacer.takePlaces(requests, context.guard);
  // The ledger rows wait for the last request only while the requests go together on those
  // places: one that waits (a retry, a 429, no place left) has them written first.
  const deferredLedger: DeliveredWrite[] = [];
  const writeLedger = () => recordDeliveredTogether(deferredLedger.splice(0));
  if (prepaid) prepaid.apart = writeLedger;
  const sending: Sending = { ...context, ...(prepaid ? { prepaid, deferredLedger } : {}) };
  let upserted: Upsert[];
  let deleted: PendingChange[];
  let done: PendingChange[];
  let domains: Awaited<ReturnType<typeof sendToDomainWorkspaces>>;
  try {
    // Each settles through the one send-and-settle path; the ledger rows are written once all
    // were sent, the outbox rows after them (no transaction, docs/decisions/0001): a crash in
    // between leaves the changes pending, and their next pass finds the ledger up to date.
    upserted = await sendUpserts(sending, scope, toSend, result);
    deleted = await sendDeletes(sending, scope, deletes, result);
    done = [...upserted.map((u) => u.row), ...deleted, ...settled];
    // The storefront domains' workspaces follow what the shop's own settled, after it: one that
    // fails keeps its changes in the outbox (the shop's ledger then has nothing to send for them).
    domains = await sendToDomainWorkspaces(sending, domainSends, done);
  } finally {
    // What the service acknowledged is written even when a later request failed or was stopped.
    await writeLedger();
  }
  await removeChanges(
    done.filter((row) => !domains.failed.has(row.productId)),
    context.fence,
    { windowFrom: context.readAt },
  );
  for (const [id, reason] of domains.failed) {
    await noteAttempt(shop.shopDomain, [id], reason);
  }
  result.refused += domains.failed.size;
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
  context: Sending,
  scope: LedgerScope,
  upserts: Upsert[],
  result: ApplyResult,
): Promise<Upsert[]> {
  const settled = await sendAndSettle({
    ...context,
    scope,
    kind: "product",
    action: "upsert",
    items: upserts,
    idOf: (u) => u.item.id,
    payloadOf: (u) => u.item,
    hashOf: (u) => u.hash,
    collectionIdsOf: (u) => u.collectionIds,
    isNew: (u) => u.isNew,
    seenMark: LIVE_SEEN_MARK,
    // New products wait in the outbox, marked with the reason; updates go on at once.
    holdBack: async (refused, reason) => {
      const fresh = refused.filter((u) => u.isNew);
      await holdForQuota(
        scope.shopDomain,
        fresh.map((u) => u.row.productId),
        reason,
      );
      result.heldForQuota += fresh.length;
      return refused.filter((u) => !u.isNew);
    },
  });
  await noteRefused(context, settled.refused, (u) => u.item.id, result);
  return settled.acknowledged;
}

async function sendDeletes(
  context: Sending,
  scope: LedgerScope,
  deletes: PendingChange[],
  result: ApplyResult,
): Promise<PendingChange[]> {
  const settled = await sendAndSettle({
    ...context,
    scope,
    kind: "product",
    action: "delete",
    items: deletes,
    idOf: (row) => row.productId,
    payloadOf: () => null,
    hashOf: () => "",
    isNew: () => false,
    seenMark: LIVE_SEEN_MARK,
    holdBack: async () => [],
  });
  await noteRefused(context, settled.refused, (row) => row.productId, result);
  return settled.acknowledged;
}

/** The products the service refused stay in the outbox with the service's reason. */
async function noteRefused<T>(
  context: ApplyContext,
  refused: readonly { item: T; error: string | undefined }[],
  idOf: (item: T) => string,
  result: ApplyResult,
): Promise<void> {
  for (const { item, error } of refused) {
    await noteAttempt(
      context.shop.shopDomain,
      [idOf(item)],
      error ?? "The search service did not acknowledge this product.",
    );
  }
  result.refused += refused.length;
}
