import type { LeaseFence } from "../../models/shop-leases.server";
import type { SyncRun } from "@prisma/client";
import {
  readBulkExport,
  SERVICE_ID_PREFIXES,
  type BulkExport,
  type ChosenMetafield,
  type ReferenceNames,
} from "../../catalogue";
import { type BulkSource } from "../../shopify/bulk-source";
import type { IndexServiceClient } from "../../index-service/client";
import { IndexServiceError } from "../../index-service/errors";
import { RATE_LIMITS, type RateLimits, type Tier } from "../../index-service/tiers";
import { kindOfType, type CatalogueType } from "./catalogue-entry";
import { deliverPending } from "./send-staged.server";
import { indexedTitles, unseenItemIds } from "../../models/ledger.server";
import { Pacer } from "./pacer";
import { databaseGate } from "./pacer-registry.server";
import { planWithinQuota } from "./plan-quota.server";
import { stageExport } from "./stage-export.server";
import {
  dropStagedItems,
  owedCount,
  stageDeletions,
  stagedCount,
} from "../../models/staged-items.server";
import {
  finishRun,
  RunInProgressError,
  runCounts,
  runSources,
  saveRunRequestCounts,
  startRun,
  unfinishedRun,
  updateRun,
  type RunCounts,
  type SyncPhase,
  type SyncTrigger,
} from "../../models/sync-runs.server";
import { detectTier, proveSecretKey, TierUnknownError } from "./tier-detection";
import { logFor } from "../../server/log";

const log = logFor("sync");

export interface ExportSource {
  /** Names the source in the run's record (a file path, or the bulk operation's id). */
  label: string;
  open: BulkSource;
}

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
}

export interface FullSyncOptions {
  shopDomain: string;
  workspaceId: string;
  /** The storefront's domain, for the items' URLs. */
  primaryDomain: string;
  /** The product metafields chosen in Settings (sent as attributes; default none). */
  metafields?: readonly ChosenMetafield[];
  /** What chosen references read as ids name, learnt batch by batch (MapContext.referenceNames). */
  referenceNames?: ReferenceNames | undefined;
  /** The products' `currency` (MapContext.currency). */
  currency?: string;
  /** A client with the shop's secret key, scoped to its workspace. */
  client: IndexServiceClient;
  sources: readonly ExportSource[];
  /** What the export covers; only these are removed from the index when missing from it. */
  types: readonly CatalogueType[];
  /** False when the export stopped part-way: nothing is then deleted. */
  exportComplete?: boolean;
  /**
   * Types the shop no longer syncs (unticked in Settings): everything the index holds of them is
   * removed, with the clean-up's deletions, whatever the export holds.
   */
  removeTypes?: readonly CatalogueType[];
  trigger: SyncTrigger;
  /** Detected from the service's tierLimits when not given. */
  tier?: Tier;
  /** The caller already proved the key in this run (see proveSecretKey); otherwise this does. */
  keyProven?: boolean;
  pacer?: Pacer;
  /**
   * Without `pacer`: the key's id in the shared rate windows (`rateKeyId`), so that this run's
   * requests count with every other process's on the key.
   */
  keyId?: string;
  now?: () => Date;
  onProgress?: (progress: SyncProgress) => void;
  /**
   * Whose month's quota the plan counts against, when not `shopDomain`'s own: a storefront
   * domain's workspace is filled from the shop's account (presence-workspaces.server.ts).
   */
  quotaShopDomain?: string;
  /** The shop's lease: the ledger is written only while it is still the caller's. */
  fence?: LeaseFence;
  /** Called right before each request to the service; throws to stop sending. */
  guard?: () => Promise<void>;
  /**
   * Called when the service stops the run (revoked key, plan ended…), before the run is finished:
   * the app pauses the shop there, so that nobody reads the run as over and the shop as not
   * paused (the Dashboard stops refreshing once no run is under way).
   */
  beforeStop?: (reason: IndexServiceError) => Promise<void>;
}

export interface FullSyncResult {
  run: SyncRun;
  tier: Tier;
  counts: RunCounts;
  requests: number;
  rateLimited: number;
  durationMs: number;
}

/** A run the service stopped (revoked key, trial ended, subscription inactive…): it says why. */
export class SyncStoppedError extends Error {
  constructor(
    readonly run: SyncRun,
    readonly reason: IndexServiceError,
  ) {
    super(reason.message, { cause: reason });
    this.name = "SyncStoppedError";
  }
}

/**
 * A full sync: the shop's export becomes its index. It resumes the shop's unfinished run when
 * that run read the same sources (a crash or restart), and refuses to start a second one.
 */
export async function runFullSync(options: FullSyncOptions): Promise<FullSyncResult> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const labels = options.sources.map((source) => source.label);

  const active = await unfinishedRun(options.shopDomain);
  if (active && JSON.stringify(runSources(active)) !== JSON.stringify(labels)) {
    throw new RunInProgressError(active);
  }
  // Every source is read through once before anything is staged or sent: a malformed file
  // is refused whole.
  const exports: BulkExport[] = [];
  for (const source of options.sources) exports.push(await readBulkExport(source.open));

  let run =
    active ??
    (await startRun({
      shopDomain: options.shopDomain,
      workspaceId: options.workspaceId,
      trigger: options.trigger,
      sources: labels,
      exportedTypes: options.types,
    }));
  const tier = await proveKey(run, options);
  const pacer = options.pacer ?? ownPacer(RATE_LIMITS[tier], options.keyId);
  const priorRequests = run.requests;
  const priorRateLimited = run.rateLimited;
  const scope = {
    shopDomain: run.shopDomain,
    workspaceId: run.workspaceId,
    ...(options.fence ? { fence: options.fence } : {}),
  };
  // A run that only removes unticked types exports nothing: its list is empty.
  const types = run.exportedTypes.split(",").filter(Boolean) as CatalogueType[];
  // After every batch: one raw statement (docs/decisions/0001).
  const saveStats = async () => {
    await saveRunRequestCounts(run.id, {
      requests: priorRequests + pacer.stats.requests,
      rateLimited: priorRateLimited + pacer.stats.rateLimited,
    });
  };
  const progress = (phase: SyncPhase, done: number, total: number) =>
    options.onProgress?.({ phase, done, total });

  try {
    if (run.phase === "export") {
      await dropStagedItems(run.id);
      await updateRun(run.id, {
        productsUnchanged: 0,
        postsUnchanged: 0,
        tier,
        productsTotal: exports.reduce((n, e) => n + e.scan.items.Product, 0),
        postsTotal: exports.reduce(
          (n, e) =>
            n +
            e.scan.items.Page +
            e.scan.items.Article +
            e.scan.items.ShopPolicy +
            e.scan.items.Metaobject,
          0,
        ),
      });
      await stageExport({
        runId: run.id,
        scope,
        exports,
        types,
        context: {
          primaryDomain: options.primaryDomain,
          metafields: options.metafields ?? [],
          referenceNames: options.referenceNames,
          ...(options.currency ? { currency: options.currency } : {}),
        },
        onProgress: ({ done, total }) => progress("export", done, total),
      });
      const orphanLines = exports.reduce((n, e) => n + e.stats.orphans, 0);
      if (orphanLines > 0) {
        log.warn(
          { shop: run.shopDomain, runId: run.id, orphanLines },
          `Sync ${run.id} of ${run.shopDomain}: ${orphanLines} variant, collection or media line(s) of Shopify's export came before their product (or without it) and were left out`,
        );
      }
      run = await updateRun(run.id, {
        phase: "plan",
        exportComplete: options.exportComplete ?? true,
        orphanLines,
      });
    }
    if (run.phase === "plan") {
      await planWithinQuota({
        runId: run.id,
        shopDomain: options.quotaShopDomain ?? run.shopDomain,
        tier,
        now: now(),
      });
      // What a complete export no longer has goes with the explicit removals, in the same batches.
      if (run.exportComplete) for (const type of types) await stageRemovals(run.id, scope, type);
      // Nothing of a type this run did not export was marked seen: all of it is staged.
      const unticked = (options.removeTypes ?? []).filter((type) => !types.includes(type));
      for (const type of unticked) await stageRemovals(run.id, scope, type);
      run = await updateRun(run.id, { phase: "send" });
    }
    const quotaReports = new Map<string, string>();
    const deliver = async (phase: "send" | "clean", action: "upsert" | "delete") => {
      const total = await stagedCount(run.id, action);
      const report = async () => {
        const owed = await owedCount(run.id, action);
        progress(phase, total - owed, total);
        await saveStats();
      };
      await report();
      await deliverPending({
        runId: run.id,
        scope,
        tier,
        client: options.client,
        pacer,
        now,
        actions: [action],
        onBatch: report,
        quotaReports,
        ...(options.guard ? { guard: options.guard } : {}),
        ...(options.quotaShopDomain ? { quotaShopDomain: options.quotaShopDomain } : {}),
      });
    };
    if (run.phase === "send") {
      await deliver("send", "upsert");
      run = await updateRun(run.id, { phase: "clean" });
    }
    if (run.phase === "clean") await deliver("clean", "delete");
    await saveStats();
    run = await finishRun(run.id, { state: "succeeded" });
  } catch (error) {
    await saveStats().catch(() => undefined);
    if (error instanceof IndexServiceError) {
      await options.beforeStop?.(error);
      run = await finishRun(run.id, {
        state: "failed",
        errorCode: error.code,
        errorMessage: error.message,
      });
      throw new SyncStoppedError(run, error);
    }
    throw error;
  }
  return {
    run,
    tier,
    counts: await runCounts(run),
    requests: run.requests,
    rateLimited: run.rateLimited,
    durationMs: Date.now() - started,
  };
}

/**
 * The run's first request, unless the caller made it: one cheap authenticated call (paced like the
 * rest) that proves the key and names the tier. A refusal stops the run before anything is staged.
 */
/** A run's own pacer (the command line's): in the key's shared windows when its id is known. */
function ownPacer(limits: RateLimits, keyId: string | undefined, maxServerRetries?: number): Pacer {
  return new Pacer({
    limits,
    ...(keyId ? { gate: databaseGate(keyId, limits) } : {}),
    ...(maxServerRetries === undefined ? {} : { maxServerRetries }),
  });
}

async function proveKey(run: SyncRun, options: FullSyncOptions): Promise<Tier> {
  try {
    const prove = () => proveSecretKey(options.client);
    // Before the tier is known, the probe is paced at the smallest plan's limits; tried once.
    const pacer =
      options.pacer ?? ownPacer(RATE_LIMITS[options.tier ?? "personal"], options.keyId, 0);
    const named = options.keyProven ? undefined : await pacer.send(prove);
    return options.tier ?? named ?? (await detectTier(options.client));
  } catch (error) {
    if (!(error instanceof IndexServiceError || error instanceof TierUnknownError)) throw error;
    if (error instanceof IndexServiceError) await options.beforeStop?.(error);
    const failed = await finishRun(run.id, {
      state: "failed",
      errorCode: error instanceof IndexServiceError ? error.code : "TIER_UNKNOWN",
      errorMessage: error.message,
    });
    if (error instanceof IndexServiceError) throw new SyncStoppedError(failed, error);
    throw error;
  }
}

/** What the index holds of a type that a complete export no longer has: staged for deletion. */
async function stageRemovals(
  runId: string,
  scope: { shopDomain: string; workspaceId: string },
  type: CatalogueType,
): Promise<void> {
  const kind = kindOfType(type);
  const prefix = SERVICE_ID_PREFIXES[type];
  for (let after = ""; ;) {
    const ids = await unseenItemIds(scope, kind, runId, 500, after);
    if (ids.length === 0) return;
    after = ids[ids.length - 1]!;
    const ofType = prefix ? ids.filter((id) => id.startsWith(prefix)) : ids;
    if (ofType.length === 0) continue;
    const titles = await indexedTitles(scope, kind, ofType);
    await stageDeletions(
      runId,
      kind,
      ofType.map((itemId) => ({ itemId, title: titles.get(itemId) ?? null })),
    );
  }
}
