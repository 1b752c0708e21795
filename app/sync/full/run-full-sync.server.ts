/**
 * Running a full sync of a shop, in the order it happens:
 * 1. start (startShopSync): the run is recorded, one unfinished run per shop, and carried on in the
 *    background under the shop's lease (carryUnderLease), so no other process sends for the shop;
 * 2. carry (carryRun, which is also where resume-runs.server.ts carries on a run a stopped process
 *    left): the shop's key is proved and its tier recorded, a former workspace is left;
 * 3. Shopify's export (exportFromShopify): one bulk operation per chosen type, waited for, and
 *    with the products one of inventory items that fills the stock model (fillStockModel);
 * 4. reading, planning, sending, cleaning up (sendExport): the engine, engine/sync-export.server.ts,
 *    from the export's files, resuming at the run's phase;
 * 5. afterwards: a paused shop resumes, then the steps other features registered run
 *    (after-full-sync.server.ts: the storefront is pointed at the run's workspace).
 * When the service or Shopify stops it, the run ends failed with the reason in words, the shop
 * paused first when the reason asks for it (stopRun).
 */
import { appMetrics } from "../../server/metrics";
import type { BulkExport, Shop, SyncRun } from "@prisma/client";
import {
  documentCurrencyOf,
  ARTICLES_BULK_QUERY,
  PAGES_BULK_QUERY,
  productsBulkQuery,
  SHOP_POLICIES_QUERY,
  STOCK_MODEL_BULK_QUERY,
  type ShopPoliciesData,
  type ReferenceNames,
} from "../../catalogue";
import {
  BulkOperationRefusedError,
  isFinishedBulkStatus,
  readBulkOperation,
  startBulkQuery,
} from "../../shopify/bulk-operation";
import { urlSource, type BulkSource } from "../../shopify/bulk-source";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { config } from "../../config.server";
import { IndexServiceError } from "../../index-service/errors";
import type { IndexServiceClient } from "../../index-service/client";
import type { Tier } from "../../index-service/tiers";
import {
  chosenMetafieldsOf,
  chosenMetaobjectsOf,
  findShop,
  isPausedByMerchant,
  recordShopTier,
  resumeShop,
} from "../../models/shops.server";
import {
  exportsOfRun,
  recordExportNotStarted,
  recordExportStarted,
  recordExportState,
} from "../../models/bulk-exports.server";
import { adminFor } from "../../shopify/admin-auth.server";
import { LeaseLostError } from "../../models/shop-leases.server";
import { processLeases, type HeldLease, type ShopLeases } from "../engine/process-leases.server";
import { pacers, sendingTierOf } from "../engine/pacer-registry.server";
import type { CatalogueType } from "../engine/catalogue-entry";
import { runFullSync, SyncStoppedError } from "../engine/sync-export.server";
import {
  serviceClientFor,
  serviceKeyIdOf,
  ShopNotConnectedError,
} from "../../shop/service-keys.server";
import { leaveFormerPlace } from "./leave-former-place.server";
import { runAfterFullSync } from "./after-full-sync.server";
import { detectTier } from "../engine/tier-detection";
import { readMetaobjectEntries } from "./metaobject-entries.server";
import { referenceNamesFor } from "../engine/reference-names.server";
import { fillStorefrontDomains } from "./presence-workspaces.server";
import { fillStockModelFromExport } from "./stock-model-export.server";
import { runExportsOf, STOCK_EXPORT } from "./run-exports";
import {
  exportStopReason,
  pauseForStop,
  stopReasonOf,
  type StopReason,
} from "../../shop/pause.server";
import {
  finishRun,
  isRunUnfinished,
  runById,
  RunInProgressError,
  startRun,
  updateRun,
  type SyncTrigger,
} from "../../models/sync-runs.server";
import { logFor, setLogShop, withLogContext } from "../../server/log";

const log = logFor("sync");

/** The bulk query of each type; the products' asks for the shop's chosen metafields. */
export function bulkQueryOf(type: "product" | "page" | "article", shop: Shop): string {
  switch (type) {
    case "product":
      return productsBulkQuery(chosenMetafieldsOf(shop));
    case "page":
      return PAGES_BULK_QUERY;
    case "article":
      return ARTICLES_BULK_QUERY;
  }
}

/**
 * The run's source that stands for the shop's policies: not a bulk export (a single query), read
 * when the run reads its sources, so a resumed run reads them afresh.
 */
const POLICIES_SOURCE = "shop-policies";

/**
 * The run's source that stands for the entries of the metaobject definitions chosen in Settings:
 * paged queries (metaobject-entries.server.ts), read afresh when the run reads its sources.
 */
const METAOBJECTS_SOURCE = "metaobject-entries";

export interface ExportTiming {
  /** How often the database is checked for the finish webhook's notice. */
  checkEveryMs: number;
  /** How long the webhook may be late before the app asks Shopify itself. */
  webhookGraceMs: number;
  /** How often Shopify is asked once the webhook is late. */
  pollEveryMs: number;
}

export const DEFAULT_EXPORT_TIMING: ExportTiming = {
  checkEveryMs: 500,
  webhookGraceMs: 10_000,
  pollEveryMs: 5_000,
};

/** How often a process that started a run checks whether it ended (startShopSyncUnlessRunning). */
const CHECK_RUN_ENDED_EVERY_MS = 2_000;

/** The merchant paused syncing on the Dashboard: nothing is sent until they resume it. */
export class SyncPausedByMerchantError extends Error {
  constructor(shopDomain: string) {
    super(`${shopDomain} paused syncing.`);
    this.name = "SyncPausedByMerchantError";
  }
}

/** Settings has products, pages and articles all unticked: a sync would have nothing to do. */
export class NothingChosenError extends Error {
  constructor(shopDomain: string) {
    super(`${shopDomain} chose nothing to sync in Settings.`);
    this.name = "NothingChosenError";
  }
}

const CATALOGUE_TYPES: readonly CatalogueType[] = [
  "product",
  "page",
  "policy",
  "article",
  "metaobject",
];

/** The types the shop chose to sync (Settings); the store's policies go with its pages. */
export function chosenTypes(shop: {
  syncProducts: boolean;
  syncPages: boolean;
  syncArticles: boolean;
}): CatalogueType[] {
  return [
    ...(shop.syncProducts ? (["product"] as const) : []),
    ...(shop.syncPages ? (["page", "policy"] as const) : []),
    ...(shop.syncArticles ? (["article"] as const) : []),
  ];
}

/**
 * Everything the shop's index holds: the types ticked in Settings, and the entries of the
 * metaobject definitions it chose there.
 */
export function typesToSync(shop: Shop): CatalogueType[] {
  return [
    ...chosenTypes(shop),
    ...(chosenMetaobjectsOf(shop).length > 0 ? (["metaobject"] as const) : []),
  ];
}

/**
 * 1. Starts a full sync of a connected shop: its run exists (and a second one is refused with
 * RunInProgressError) when this returns; the export and the sending go on in the background.
 */
export async function startShopSync(
  shopDomain: string,
  trigger: SyncTrigger,
  timing: ExportTiming = DEFAULT_EXPORT_TIMING,
  /** Whose lease of the shop carries the run: the caller's when it already holds one. */
  leases: ShopLeases = processLeases(config().live.leaseMs),
  /**
   * The chosen types to export (all of them when absent). Whatever is exported, the run removes
   * from the index every type the shop does not sync (unticked in Settings).
   */
  only?: readonly CatalogueType[],
): Promise<SyncRun> {
  const shop = await findShop(shopDomain);
  const workspaceId = shop?.workspaceOverride ?? shop?.workspaceId;
  if (!shop || !shop.secretKeyCiphertext || !workspaceId)
    throw new ShopNotConnectedError(shopDomain);
  if (isPausedByMerchant(shop)) throw new SyncPausedByMerchantError(shopDomain);
  if (chosenTypes(shop).length === 0) throw new NothingChosenError(shopDomain);
  const chosen = typesToSync(shop);
  const types = only ? chosen.filter((type) => only.includes(type)) : chosen;
  const run = await startRun({
    shopDomain,
    workspaceId,
    trigger,
    sources: [],
    exportedTypes: types,
    phase: "request",
  });
  // The run is in the database: if carrying it fails here (the database or the lease gone), the
  // resumer (resume-runs.server.ts) carries it on later. Logged, never an unhandled rejection.
  carryUnderLease(run, timing, leases).catch((error: unknown) =>
    log.error(
      { err: error, shop: shopDomain, runId: run.id },
      `run ${run.id} could not be carried on now`,
    ),
  );
  return run;
}

/**
 * startShopSync for the background work (the scheduled full sync, the live worker): under this
 * process's leases, which hold the shop's lease until the run ends. Returns the run, or null when
 * one is already unfinished or the shop chose nothing to sync.
 */
export async function startShopSyncUnlessRunning(
  leases: ShopLeases,
  shopDomain: string,
  trigger: SyncTrigger,
): Promise<SyncRun | null> {
  try {
    const run = await startShopSync(shopDomain, trigger, undefined, leases);
    void holdLeaseUntilRunEnds(leases, run).catch(() => undefined);
    return run;
  } catch (error) {
    if (isNoRunToStart(error)) return null;
    throw error;
  }
}

/**
 * Why a sync a flow asked for did not start, when that is no failure: one is already under way,
 * nothing is chosen in Settings (nothing to sync until the merchant ticks something), or the
 * merchant paused syncing.
 */
export function isNoRunToStart(error: unknown): boolean {
  return (
    error instanceof RunInProgressError ||
    error instanceof NothingChosenError ||
    error instanceof SyncPausedByMerchantError
  );
}

/**
 * Holds the shop's lease for as long as the run is unfinished, so that no other process resumes
 * it meanwhile (nor sends live changes for the shop). Resolves when the run ended.
 */
async function holdLeaseUntilRunEnds(
  leases: ShopLeases,
  run: Pick<SyncRun, "id" | "shopDomain">,
  checkEveryMs: number = CHECK_RUN_ENDED_EVERY_MS,
): Promise<void> {
  const lease = await leases.hold(run.shopDomain);
  if (!lease) return;
  try {
    while (await isRunUnfinished(run.id)) {
      await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
    }
  } finally {
    await lease.release();
  }
}

/**
 * Carries the run under the shop's lease, so that no other process (a resumer, a worker) carries
 * or sends for the shop meanwhile; while another holds the lease, waits for it.
 */
async function carryUnderLease(
  run: SyncRun,
  timing: ExportTiming,
  leases: ShopLeases,
): Promise<void> {
  for (;;) {
    const lease = await leases.hold(run.shopDomain);
    if (lease) {
      try {
        await carryRun(run.id, timing, lease);
      } finally {
        await lease.release();
      }
      return;
    }
    if (!(await isRunUnfinished(run.id))) return;
    await new Promise((resolve) => setTimeout(resolve, timing.checkEveryMs * 2));
  }
}

/** The runs this process is carrying now: a run is never carried twice at once. */
const carrying = new Set<string>();

/**
 * 2. Carries a run to its end from its phase, whether just started or left unfinished by a
 * process that stopped (resume-runs.server.ts). A run this process carries already is left to it.
 */
export async function carryRun(
  runId: string,
  timing: ExportTiming = DEFAULT_EXPORT_TIMING,
  /** The shop's lease this process holds: the run writes and sends only while it is ours. */
  lease?: HeldLease,
): Promise<void> {
  if (carrying.has(runId)) return;
  carrying.add(runId);
  try {
    // Every line logged while the run is carried names it and its shop.
    await withLogContext({ runId, ...(lease ? { shop: lease.fence.shopDomain } : {}) }, () =>
      carryRunToEnd(runId, timing, lease),
    );
  } finally {
    carrying.delete(runId);
    await countRunEnd(runId);
  }
}

/** A run this process carried to its end counts in the metrics by outcome (succeeded, failed). */
async function countRunEnd(runId: string): Promise<void> {
  const run = await runById(runId).catch(() => null);
  if (!run || run.state === "running") return;
  const metrics = appMetrics();
  metrics.fullSyncs.inc({ outcome: run.state });
  const shop = metrics.shopLabel(run.shopDomain);
  if (shop) metrics.byShop.fullSyncs.inc({ shop, outcome: run.state });
}

async function carryRunToEnd(
  runId: string,
  timing: ExportTiming,
  lease: HeldLease | undefined,
): Promise<void> {
  let run = await runById(runId);
  setLogShop(run.shopDomain);
  const shop = await findShop(run.shopDomain);
  if (!shop || shop.state === "uninstalled") {
    await finishRun(run.id, {
      state: "failed",
      errorCode: "UNINSTALLED",
      errorMessage: "The app was uninstalled.",
    });
    return;
  }
  const types = run.exportedTypes.split(",").filter(Boolean) as CatalogueType[];
  try {
    const client = serviceClientFor(shop);
    const keyId = serviceKeyIdOf(shop);
    const provenTier = await proveKeyAndRecordTier(shop, client, keyId);
    if (shop.formerWorkspaceId) await leaveFormerPlace(shop);
    const admin = await adminFor(shop.shopDomain);
    if (run.phase === "request") {
      const all = await exportFromShopify(admin, shop, run, types, timing);
      const exports = all.filter((e) => e.type !== STOCK_EXPORT);
      const failed = exports.find((e) => e.status !== "COMPLETED");
      if (failed) {
        await stopRun(run, exportStopReason(failed.errorCode ?? failed.status));
        return;
      }
      await fillStockModel(shop.shopDomain, all);
      const sources = exports.map((e) => e.id);
      if (types.includes("policy")) sources.push(POLICIES_SOURCE);
      if (types.includes("metaobject")) sources.push(METAOBJECTS_SOURCE);
      run = await updateRun(run.id, { sources: JSON.stringify(sources), phase: "export" });
    }
    // Read when the run is carried (also when resumed): what is unticked then leaves the index.
    const removeTypes = CATALOGUE_TYPES.filter((type) => !typesToSync(shop).includes(type));
    // One for the run: each storefront domain's workspace names what the shop's did, read once.
    const referenceNames = referenceNamesFor(admin, chosenMetafieldsOf(shop));
    await sendExport(run, shop, types, removeTypes, {
      client,
      keyId,
      tier: provenTier,
      lease,
      admin,
      referenceNames,
    });
    if (shop.state === "paused") await resumeShop(shop.shopDomain);
    await runAfterFullSync(shop.shopDomain, admin);
    // The shop's own run is done; then each storefront domain's workspace, in its language.
    await fillStorefrontDomains(shop, admin, types, {
      keyId,
      tier: provenTier,
      lease,
      trigger: run.trigger as SyncTrigger,
      bulkQueryOf: (type) => bulkQueryOf(type, shop),
      metafields: chosenMetafieldsOf(shop),
      referenceNames,
      pollEveryMs: timing.pollEveryMs,
    });
  } catch (error) {
    // Another process took the shop over and carries the run on: this one leaves it as it is.
    if (error instanceof LeaseLostError) return;
    const reason = stopReasonOf(error instanceof SyncStoppedError ? error.reason : error);
    if (!(error instanceof SyncStoppedError) && !(error instanceof IndexServiceError))
      log.error({ err: error }, `sync of ${shop.shopDomain} failed`);
    await stopRun(run, reason);
  }
}

/**
 * The key is proved first, so a revoked key or an ended plan pauses the shop even when nothing
 * changed; the probe takes its place in the key's windows like every other request. Returns the
 * tier the service named, recorded on the shop when it changed.
 */
async function proveKeyAndRecordTier(
  shop: Shop,
  client: IndexServiceClient,
  keyId: string | undefined,
): Promise<Tier> {
  const provenTier = await pacers
    .pacerFor(shop.shopDomain, sendingTierOf(shop), keyId)
    .send(() => detectTier(client));
  if (provenTier !== shop.tier) await recordShopTier(shop.shopDomain, provenTier);
  return provenTier;
}

/**
 * 3. Runs the shop's bulk queries (one per type; Shopify runs up to five at once) and waits for
 * them: the bulk_operations/finish webhook marks them finished, and Shopify is asked directly
 * once the webhook is late. A type asked already (a resumed run) is not asked again.
 */
async function exportFromShopify(
  admin: AdminGraphql,
  shop: Shop,
  run: SyncRun,
  types: readonly CatalogueType[],
  timing: ExportTiming,
): Promise<BulkExport[]> {
  const existing = await exportsOfRun(run.id);
  for (const type of runExportsOf(types)) {
    if (existing.some((e) => e.type === type)) continue;
    if (type === STOCK_EXPORT) {
      await startStockExport(admin, run);
      continue;
    }
    const id = await startBulkQuery(admin, bulkQueryOf(type, shop));
    await recordExportStarted({ id, shopDomain: run.shopDomain, runId: run.id, type });
  }
  const lastPoll = new Map<string, number>();
  for (;;) {
    const exports = await exportsOfRun(run.id);
    const open = exports.filter((e) => !isFinishedBulkStatus(e.status));
    if (open.length === 0) return exports;
    for (const bulkExport of open) {
      const now = Date.now();
      const late = now - bulkExport.createdAt.getTime() > timing.webhookGraceMs;
      const pollDue = now - (lastPoll.get(bulkExport.id) ?? 0) >= timing.pollEveryMs;
      if (bulkExport.finishedNoticeAt || (late && pollDue)) {
        lastPoll.set(bulkExport.id, now);
        const state = await readBulkOperation(admin, bulkExport.id);
        await recordExportState(bulkExport.id, {
          status: state.status,
          errorCode: state.errorCode,
          url: state.url,
          objectCount: state.objectCount,
          completedAt: isFinishedBulkStatus(state.status) ? new Date() : null,
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, timing.checkEveryMs));
  }
}

/**
 * The stock model's export, beside the products' (decision 0060): recorded as begun just before it
 * was asked, the time its levels are taken as of. Not the run's to fail: without it the model
 * fills as orders come, a read per product. One Shopify does not start is recorded as failed, so
 * the progress bar's count of exports ready reaches its total, and a resumed run does not ask it
 * again. One Shopify started is recorded as the products' are (a database error stops the run).
 */
async function startStockExport(admin: AdminGraphql, run: SyncRun): Promise<void> {
  const readAt = new Date();
  let id: string;
  try {
    id = await startBulkQuery(admin, STOCK_MODEL_BULK_QUERY);
  } catch (error) {
    log.warn({ err: error }, "the stock model's export was not started");
    await recordExportNotStarted({
      shopDomain: run.shopDomain,
      runId: run.id,
      type: STOCK_EXPORT,
      errorCode:
        (error instanceof BulkOperationRefusedError ? error.userErrors[0]?.code : null) ??
        "NOT_STARTED",
    }).catch((recordError: unknown) => {
      log.warn({ err: recordError }, "the stock model's export was not recorded as not started");
    });
    return;
  }
  await recordExportStarted({
    id,
    shopDomain: run.shopDomain,
    runId: run.id,
    type: STOCK_EXPORT,
    createdAt: readAt,
  });
}

async function fillStockModel(shopDomain: string, exports: readonly BulkExport[]): Promise<void> {
  const stock = exports.find((e) => e.type === STOCK_EXPORT);
  if (stock?.status !== "COMPLETED") return;
  try {
    const fill = await fillStockModelFromExport(shopDomain, sourceOf(stock), stock.createdAt);
    log.info(fill, "stock model filled from the export");
  } catch (error) {
    log.warn({ err: error }, "the stock model was not filled from the export");
  }
}

/**
 * 4. Reading the export, planning within the quota, sending, cleaning up: the engine does it
 * from the export's files, resuming at the run's phase (engine/sync-export.server.ts).
 */
async function sendExport(
  run: SyncRun,
  shop: Shop,
  types: CatalogueType[],
  removeTypes: CatalogueType[],
  sending: {
    client: IndexServiceClient;
    keyId: string | undefined;
    tier: Tier;
    lease: HeldLease | undefined;
    admin: AdminGraphql;
    referenceNames: ReferenceNames | undefined;
  },
): Promise<void> {
  const { client, keyId, tier, lease, admin, referenceNames } = sending;
  const exports = await exportsOfRun(run.id);
  const byId = new Map(exports.map((e) => [e.id, e]));
  const sources = (JSON.parse(run.sources) as string[]).map((id) => ({
    label: id,
    open:
      id === POLICIES_SOURCE
        ? policiesSource(admin)
        : id === METAOBJECTS_SOURCE
          ? metaobjectsSource(
              admin,
              chosenMetaobjectsOf(shop).map((m) => m.type),
            )
          : sourceOf(byId.get(id)),
  }));
  await runFullSync({
    shopDomain: shop.shopDomain,
    workspaceId: run.workspaceId,
    primaryDomain: shop.primaryDomain ?? shop.shopDomain,
    metafields: chosenMetafieldsOf(shop),
    referenceNames,
    ...documentCurrencyOf(shop),
    client,
    sources,
    types,
    removeTypes,
    trigger: run.trigger as SyncTrigger,
    tier,
    keyProven: true,
    // The shop's one pacer in this process, shared with its live changes; its windows are the
    // key's, shared with every process.
    pacer: pacers.pacerFor(shop.shopDomain, tier, keyId),
    ...(lease ? { fence: lease.fence, guard: lease.confirm } : {}),
    beforeStop: async (error) => {
      await pauseForStop(shop.shopDomain, stopReasonOf(error));
    },
  });
}

/**
 * The shop's policies as lines of a bulk export (one object each), read from Shopify once per
 * read of the source: the engine reads a source twice, and the answer is a few kB.
 */
function policiesSource(admin: AdminGraphql): BulkSource {
  let lines: Promise<string> | null = null;
  return async function* policies() {
    lines ??= queryAdmin<ShopPoliciesData>(admin, SHOP_POLICIES_QUERY).then((data) =>
      data.shop.shopPolicies.map((policy) => `${JSON.stringify(policy)}\n`).join(""),
    );
    yield Buffer.from(await lines);
  };
}

/**
 * The chosen definitions' entries as lines of a bulk export (one object each), read from Shopify
 * once per run's reading of its sources, as the policies are.
 */
function metaobjectsSource(admin: AdminGraphql, types: readonly string[]): BulkSource {
  let lines: Promise<string> | null = null;
  return async function* metaobjects() {
    lines ??= readMetaobjectEntries(admin, types).then((entries) =>
      entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""),
    );
    yield Buffer.from(await lines);
  };
}

function sourceOf(bulkExport: BulkExport | undefined): BulkSource {
  if (!bulkExport?.url) return async function* empty() {};
  return urlSource(bulkExport.url);
}

/**
 * Ends a stopped run. A pausing stop pauses the shop first: a reader that finds the run over then
 * finds the shop paused too, never the moment between (the Dashboard stops refreshing once no run
 * is under way, and would show the shop as connected until reloaded).
 */
async function stopRun(run: SyncRun, reason: StopReason): Promise<void> {
  await pauseForStop(run.shopDomain, reason);
  const current = await runById(run.id);
  const errorMessage = `${reason.message} ${reason.action}`;
  if (current.state === "running") {
    await finishRun(run.id, { state: "failed", errorCode: reason.code, errorMessage });
  }
  await updateRun(run.id, { errorCode: reason.code, errorMessage, errorUrl: reason.url ?? null });
}
