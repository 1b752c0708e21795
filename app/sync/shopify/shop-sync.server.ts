import type { BulkExport, SyncRun } from "@prisma/client";
import {
  ARTICLES_BULK_QUERY,
  isFinishedBulkStatus,
  PAGES_BULK_QUERY,
  PRODUCTS_BULK_QUERY,
  readBulkOperation,
  startBulkQuery,
  urlSource,
  type AdminGraphql,
  type BulkSource,
} from "../../catalog";
import { config } from "../../config.server";
import prisma from "../../db.server";
import { IndexServiceError } from "../../index-service/errors";
import { findShop, recordShopTier, resumeShop } from "../../models/shops.server";
import { adminFor } from "../../shopify-admin.server";
import {
  LeaseLostError,
  processLeases,
  type HeldLease,
  type ShopLeases,
} from "../../models/shop-leases.server";
import { pacers, sendingTierOf } from "../engine/pacers.server";
import type { CatalogueType } from "../engine/catalogue-entry";
import { runFullSync, SyncStoppedError } from "../engine/sync-export.server";
import {
  serviceClientFor,
  serviceKeyIdOf,
  ShopNotConnectedError,
} from "../shop/service-keys.server";
import { leaveFormerPlace } from "../shop/removal.server";
import { followStorefront } from "../shop/storefront-follows.server";
import { detectTier } from "../engine/tier-detection";
import {
  exportStopReason,
  pauseForStop,
  stopReasonOf,
  type StopReason,
} from "../shop/pause.server";
import { finishRun, startRun, updateRun, type SyncTrigger } from "../../models/sync-runs.server";

const BULK_QUERIES: Record<CatalogueType, string> = {
  product: PRODUCTS_BULK_QUERY,
  page: PAGES_BULK_QUERY,
  article: ARTICLES_BULK_QUERY,
};

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

const running = new Set<string>();

/** Settings has products, pages and articles all unticked: a sync would have nothing to do. */
export class NothingChosenError extends Error {
  constructor(shopDomain: string) {
    super(`${shopDomain} chose nothing to sync in Settings.`);
    this.name = "NothingChosenError";
  }
}

/** The types the shop chose to sync (Settings). */
function chosenTypes(shop: {
  syncProducts: boolean;
  syncPages: boolean;
  syncArticles: boolean;
}): CatalogueType[] {
  return [
    ...(shop.syncProducts ? (["product"] as const) : []),
    ...(shop.syncPages ? (["page"] as const) : []),
    ...(shop.syncArticles ? (["article"] as const) : []),
  ];
}

/**
 * Starts a full sync of a connected shop: its run exists (and a second one is refused with
 * RunInProgressError) when this returns; the export and the sending go on in the background.
 */
export async function startShopSync(
  shopDomain: string,
  trigger: SyncTrigger,
  timing: ExportTiming = DEFAULT_EXPORT_TIMING,
  /** Whose lease of the shop carries the run: the caller's when it already holds one. */
  leases: ShopLeases = processLeases(config().live.leaseMs),
): Promise<SyncRun> {
  const shop = await findShop(shopDomain);
  const workspaceId = shop?.workspaceOverride ?? shop?.workspaceId;
  if (!shop || !shop.secretKeyCiphertext || !workspaceId)
    throw new ShopNotConnectedError(shopDomain);
  const types = chosenTypes(shop);
  if (types.length === 0) throw new NothingChosenError(shopDomain);
  const run = await startRun({
    shopDomain,
    workspaceId,
    trigger,
    sources: [],
    exportedTypes: types,
    phase: "request",
  });
  void carryUnderLease(run, timing, leases);
  return run;
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
        await executeShopSync(run.id, timing, lease);
      } finally {
        await lease.release();
      }
      return;
    }
    const current = await prisma.syncRun.findUnique({
      where: { id: run.id },
      select: { activeShop: true },
    });
    if (!current?.activeShop) return;
    await new Promise((resolve) => setTimeout(resolve, timing.checkEveryMs * 2));
  }
}

/** Carries a run to its end (also used to resume unfinished runs after a restart). */
export async function executeShopSync(
  runId: string,
  timing: ExportTiming = DEFAULT_EXPORT_TIMING,
  /** The shop's lease this process holds: the run writes and sends only while it is ours. */
  lease?: HeldLease,
): Promise<void> {
  if (running.has(runId)) return;
  running.add(runId);
  try {
    await carryRun(runId, timing, lease);
  } finally {
    running.delete(runId);
  }
}

async function carryRun(
  runId: string,
  timing: ExportTiming,
  lease: HeldLease | undefined,
): Promise<void> {
  let run = await prisma.syncRun.findUniqueOrThrow({ where: { id: runId } });
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
    // Proved first, so a revoked key or an ended plan pauses the shop even when nothing changed;
    // the probe takes its place in the key's windows like every other request.
    const provenTier = await pacers
      .pacerFor(shop.shopDomain, sendingTierOf(shop), keyId)
      .send(() => detectTier(client));
    if (provenTier !== shop.tier) await recordShopTier(shop.shopDomain, provenTier);
    if (shop.formerWorkspaceId) await leaveFormerPlace(shop);
    const admin = await adminFor(shop.shopDomain);
    if (run.phase === "request") {
      const exports = await exportFromShopify(admin, run, types, timing);
      const failed = exports.find((e) => e.status !== "COMPLETED");
      if (failed) {
        await stop(run, exportStopReason(failed.errorCode ?? failed.status));
        return;
      }
      run = await updateRun(run.id, {
        sources: JSON.stringify(exports.map((e) => e.id)),
        phase: "export",
      });
    }
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id } });
    const byId = new Map(exports.map((e) => [e.id, e]));
    const sources = (JSON.parse(run.sources) as string[]).map((id) => ({
      label: id,
      open: sourceOf(byId.get(id)),
    }));
    await runFullSync({
      shopDomain: shop.shopDomain,
      workspaceId: run.workspaceId,
      primaryDomain: shop.primaryDomain ?? shop.shopDomain,
      client,
      sources,
      types,
      trigger: run.trigger as SyncTrigger,
      tier: provenTier,
      keyProven: true,
      // The shop's one pacer in this process, shared with its live changes; its windows are the
      // key's, shared with every process.
      pacer: pacers.pacerFor(shop.shopDomain, provenTier, keyId),
      ...(lease ? { fence: lease.fence, guard: lease.confirm } : {}),
      beforeStop: async (error) => {
        await pauseForStop(shop.shopDomain, stopReasonOf(error));
      },
    });
    if (shop.state === "paused") await resumeShop(shop.shopDomain);
    await followStorefrontAfterRun(shop.shopDomain, admin);
  } catch (error) {
    // Another process took the shop over and carries the run on: this one leaves it as it is.
    if (error instanceof LeaseLostError) return;
    const reason = stopReasonOf(error instanceof SyncStoppedError ? error.reason : error);
    if (!(error instanceof SyncStoppedError) && !(error instanceof IndexServiceError))
      console.error(`Sync of ${shop.shopDomain} failed:`, error);
    await stop(run, reason);
  }
}

/**
 * A run that filled a workspace the storefront does not ask yet (a domain change) points the
 * storefront at it. A refusal is retried by the live worker's maintenance; the run stays done.
 */
async function followStorefrontAfterRun(shopDomain: string, admin: AdminGraphql): Promise<void> {
  try {
    await followStorefront(shopDomain, admin);
  } catch (error) {
    console.error(
      `[sync] the storefront of ${shopDomain} could not be pointed at its workspace`,
      error,
    );
  }
}

/**
 * Ends a stopped run. A pausing stop pauses the shop first: a reader that finds the run over then
 * finds the shop paused too, never the moment between (the Dashboard stops refreshing once no run
 * is under way, and would show the shop as connected until reloaded).
 */
async function stop(run: SyncRun, reason: StopReason): Promise<void> {
  await pauseForStop(run.shopDomain, reason);
  const current = await prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } });
  const errorMessage = `${reason.message} ${reason.action}`;
  if (current.state === "running") {
    await finishRun(run.id, { state: "failed", errorCode: reason.code, errorMessage });
  }
  await updateRun(run.id, { errorCode: reason.code, errorMessage, errorUrl: reason.url ?? null });
}

function sourceOf(bulkExport: BulkExport | undefined): BulkSource {
  if (!bulkExport?.url) return async function* empty() {};
  return urlSource(bulkExport.url);
}

/**
 * Runs the shop's bulk queries (one per type; Shopify runs up to five at once) and waits for
 * them: the bulk_operations/finish webhook marks them finished, and Shopify is asked directly
 * once the webhook is late.
 */
async function exportFromShopify(
  admin: AdminGraphql,
  run: SyncRun,
  types: readonly CatalogueType[],
  timing: ExportTiming,
): Promise<BulkExport[]> {
  const existing = await prisma.bulkExport.findMany({ where: { runId: run.id } });
  for (const type of types) {
    if (existing.some((e) => e.type === type)) continue;
    const id = await startBulkQuery(admin, BULK_QUERIES[type]);
    await prisma.bulkExport.create({
      data: { id, shopDomain: run.shopDomain, runId: run.id, type, status: "CREATED" },
    });
  }
  const lastPoll = new Map<string, number>();
  for (;;) {
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id } });
    const open = exports.filter((e) => !isFinishedBulkStatus(e.status));
    if (open.length === 0) return exports;
    for (const bulkExport of open) {
      const now = Date.now();
      const late = now - bulkExport.createdAt.getTime() > timing.webhookGraceMs;
      const pollDue = now - (lastPoll.get(bulkExport.id) ?? 0) >= timing.pollEveryMs;
      if (bulkExport.finishedNoticeAt || (late && pollDue)) {
        lastPoll.set(bulkExport.id, now);
        const state = await readBulkOperation(admin, bulkExport.id);
        await prisma.bulkExport.update({
          where: { id: bulkExport.id },
          data: {
            status: state.status,
            errorCode: state.errorCode,
            url: state.url,
            objectCount: state.objectCount,
            completedAt: isFinishedBulkStatus(state.status) ? new Date() : null,
          },
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, timing.checkEveryMs));
  }
}

/** bulk_operations/finish: note that Shopify says the operation finished (the runner reads it). */
export async function noteBulkOperationFinished(
  shopDomain: string,
  operationId: string,
): Promise<boolean> {
  // Raw SQL, not `updateMany` (a transaction of its own: docs/database.md, "Memory").
  const count = await prisma.$executeRaw`
    UPDATE "BulkExport" SET "finishedNoticeAt" = ${new Date()}
    WHERE "id" = ${operationId} AND "shopDomain" = ${shopDomain}`;
  return count > 0;
}
