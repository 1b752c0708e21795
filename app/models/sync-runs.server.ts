import { Prisma, type SyncRun } from "@prisma/client";
import { syncHistorySettings } from "../config.server";
import prisma, { driverQuery } from "./db.server";
import type { ContentKind } from "./ledger.server";
import { recordRunCheck } from "./check-history.server";
import { logFor } from "../server/log";

const log = logFor("sync");

export type SyncTrigger =
  | "install"
  | "resync"
  /** The Dashboard's "Retry failed items": a full sync, which re-sends what the index lacks. */
  | "retry"
  | "cli"
  | "reconcile"
  | "domain-change"
  /** A storefront domain's own workspace filled when the domain appeared (decision 0038). */
  | "domain-added"
  /** Settings saved another account's key or another workspace: the index moves there. */
  | "move"
  /** Settings unticked a type (its items leave the index) or ticked one again (it is sent). */
  | "settings"
  /** A chosen metafield's definition was deleted or hidden from the storefront in Shopify. */
  | "definition-change";
/** request: waiting for Shopify's export; then reading it, planning, sending, cleaning up. */
export type SyncPhase = "request" | "export" | "plan" | "send" | "clean" | "done";

export class RunInProgressError extends Error {
  constructor(readonly run: SyncRun) {
    super(
      `A sync of ${run.shopDomain} is already running (started ${run.startedAt.toISOString()}).`,
    );
    this.name = "RunInProgressError";
  }
}

export interface NewRun {
  shopDomain: string;
  workspaceId: string;
  trigger: SyncTrigger;
  sources: string[];
  exportedTypes: readonly string[];
  /** "request" when the export must first be asked of Shopify. */
  phase?: SyncPhase;
}

/** Starts a shop's run; a shop has one unfinished run at a time (a unique column enforces it). */
export async function startRun(run: NewRun): Promise<SyncRun> {
  try {
    return await prisma.syncRun.create({
      data: {
        ...run,
        sources: JSON.stringify(run.sources),
        exportedTypes: run.exportedTypes.join(","),
        activeShop: run.shopDomain,
      },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const active = await unfinishedRun(run.shopDomain);
      if (active) throw new RunInProgressError(active);
    }
    throw error;
  }
}

export function unfinishedRun(shopDomain: string): Promise<SyncRun | null> {
  return prisma.syncRun.findUnique({ where: { activeShop: shopDomain } });
}

/** Every unfinished run, of every shop (those a stopped process left among them). */
export function unfinishedRuns(): Promise<SyncRun[]> {
  return prisma.syncRun.findMany({ where: { activeShop: { not: null } } });
}

/** Whether the run is still unfinished (false too when it no longer exists). */
export async function isRunUnfinished(runId: string): Promise<boolean> {
  const run = await prisma.syncRun.findUnique({
    where: { id: runId },
    select: { activeShop: true },
  });
  return run?.activeShop != null;
}

/** The run; throws when it does not exist. */
export function runById(runId: string): Promise<SyncRun> {
  return prisma.syncRun.findUniqueOrThrow({ where: { id: runId } });
}

/** The shop's latest run by start, of any kind and outcome, finished or not. */
export function latestRun(shopDomain: string): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain },
    orderBy: { startedAt: "desc" },
  });
}

export function runSources(run: Pick<SyncRun, "sources">): string[] {
  const parsed: unknown = JSON.parse(run.sources);
  return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
}

export async function updateRun(id: string, data: Prisma.SyncRunUpdateInput): Promise<SyncRun> {
  return prisma.syncRun.update({ where: { id }, data });
}

/** Saves the run's request counts so far. Raw SQL: it runs after every batch (docs/decisions/0001). */
export async function saveRunRequestCounts(
  runId: string,
  counts: { requests: number; rateLimited: number },
): Promise<void> {
  await prisma.$executeRaw`
      UPDATE "SyncRun" SET "requests" = ${counts.requests},
        "rateLimited" = ${counts.rateLimited}, "updatedAt" = ${new Date()}
      WHERE "id" = ${runId}`;
}

/** Adds to the run's count of unchanged items of a kind. Raw SQL: it runs per staged batch. */
export async function addUnchangedToRun(
  runId: string,
  kind: ContentKind,
  unchanged: number,
): Promise<void> {
  await (kind === "product"
    ? prisma.$executeRaw`UPDATE "SyncRun" SET "productsUnchanged" = "productsUnchanged" + ${unchanged} WHERE "id" = ${runId}`
    : prisma.$executeRaw`UPDATE "SyncRun" SET "postsUnchanged" = "postsUnchanged" + ${unchanged} WHERE "id" = ${runId}`);
}

/**
 * Ends a run: its counts are kept on it (its items do not stay), and the shop's run history is
 * pruned to its retention (pruneRunHistory).
 */
export async function finishRun(
  id: string,
  outcome: { state: "succeeded" } | { state: "failed"; errorCode: string; errorMessage: string },
): Promise<SyncRun> {
  const counts = await runCounts(await prisma.syncRun.findUniqueOrThrow({ where: { id } }));
  const run = await prisma.syncRun.update({
    where: { id },
    data: {
      ...outcome,
      phase: outcome.state === "succeeded" ? "done" : undefined,
      activeShop: null,
      finishedAt: new Date(),
      counts: JSON.stringify(counts),
    },
  });
  if (run.trigger === "reconcile" && run.state === "succeeded") {
    // Recorded before the prune below deletes the run's sent items, which name what it repaired.
    await recordRunCheck(run, counts).catch((error: unknown) =>
      log.error({ err: error, runId: run.id }, `the check of run ${run.id} could not be recorded`),
    );
  }
  try {
    await pruneRunHistory(run.shopDomain, syncHistorySettings().runsKept);
  } catch (error) {
    // The next run's finish prunes again; the run itself is done.
    log.error(
      { err: error, shop: run.shopDomain },
      `the run history of ${run.shopDomain} could not be pruned`,
    );
  }
  return run;
}

/** The shop's newest finished run that exported everything and succeeded. */
export function lastCompleteRun(shopDomain: string): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain, state: "succeeded", exportComplete: true },
    orderBy: { finishedAt: "desc" },
  });
}

/** The shop's latest succeeded run by start. */
export function lastSucceededRun(shopDomain: string): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain, state: "succeeded" },
    orderBy: { startedAt: "desc" },
  });
}

/**
 * Forgets every run kept under a storefront domain's workspace (`ledgerKey`, once the workspace is
 * emptied): a later fill of it starts from nothing, as its workspace does. The shop's row is
 * written first (its `updatedAt`, and docs/database.md "Lock order"): a live worker that keeps the
 * domain as filled reads its view again at its next pass (decision 0057).
 */
export async function forgetDomainRuns(shopDomain: string, ledgerKey: string): Promise<void> {
  await prisma.$transaction([
    prisma.shop.updateMany({ where: { shopDomain }, data: { updatedAt: new Date() } }),
    prisma.syncRun.deleteMany({ where: { shopDomain: ledgerKey } }),
  ]);
}

/**
 * Records a run that stopped before it could start sending (a storefront domain's export that did
 * not complete), so that what the merchant sees and when it is tried again both know it.
 */
export async function recordStoppedRun(
  run: Omit<NewRun, "sources" | "phase">,
  stop: { errorCode: string; errorMessage: string },
): Promise<SyncRun> {
  const now = new Date();
  return prisma.syncRun.create({
    data: {
      shopDomain: run.shopDomain,
      workspaceId: run.workspaceId,
      trigger: run.trigger,
      exportedTypes: run.exportedTypes.join(","),
      sources: "[]",
      state: "failed",
      errorCode: stop.errorCode,
      errorMessage: stop.errorMessage,
      startedAt: now,
      finishedAt: now,
    },
  });
}

/** The shop's newest finished run, whatever its outcome. */
export function lastFinishedRun(shopDomain: string): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain, state: { not: "running" } },
    orderBy: { finishedAt: "desc" },
  });
}

/**
 * Every run kept under each of these keys (storefront domains' workspaces; a key keeps at most
 * its newest `runsKept` finished runs, docs/sync.md), one query a thousand keys: a store with
 * thousands of domains learns where each stands without asking each. Keys with no run are absent.
 */
export async function runsOfKeys(keys: readonly string[]): Promise<Map<string, SyncRun[]>> {
  const byKey = new Map<string, SyncRun[]>();
  for (let start = 0; start < keys.length; start += 1000) {
    const rows = await prisma.syncRun.findMany({
      where: { shopDomain: { in: keys.slice(start, start + 1000) } },
    });
    for (const row of rows) byKey.set(row.shopDomain, [...(byKey.get(row.shopDomain) ?? []), row]);
  }
  return byKey;
}

/**
 * Of these keys (storefront domains' workspaces), those with a succeeded run kept: one query a
 * thousand keys, so a live batch of a store with thousands of domains does not ask each.
 */
export async function keysWithSucceededRun(keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // To the driver: the live worker asks for each batch it sends to storefront domains.
  for (let start = 0; start < keys.length; start += 1000) {
    const rows = await driverQuery<{ shopDomain: string }>(Prisma.sql`
      SELECT DISTINCT "shopDomain" FROM "SyncRun"
      WHERE "shopDomain" IN (${Prisma.join(keys.slice(start, start + 1000))}) AND "state" = 'succeeded'`);
    for (const row of rows) found.add(row.shopDomain);
  }
  return found;
}

/** Whether any of the shop's runs succeeded (the first-run checklist's "First sync done"). */
export async function hasSucceededRun(shopDomain: string): Promise<boolean> {
  const run = await prisma.syncRun.findFirst({
    where: { shopDomain, state: "succeeded" },
    select: { id: true },
  });
  return run !== null;
}

/** The shop's newest run started by one of these triggers, finished or not. */
export function latestRunWithTrigger(
  shopDomain: string,
  triggers: readonly SyncTrigger[],
): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain, trigger: { in: [...triggers] } },
    orderBy: { startedAt: "desc" },
  });
}

/** The shop's run started last before `startedAt`. */
export function runBefore(shopDomain: string, startedAt: Date): Promise<SyncRun | null> {
  return prisma.syncRun.findFirst({
    where: { shopDomain, startedAt: { lt: startedAt } },
    orderBy: { startedAt: "desc" },
  });
}

/** How many of the shop's runs started after `startedAt`. */
export function countRunsAfter(shopDomain: string, startedAt: Date): Promise<number> {
  return prisma.syncRun.count({ where: { shopDomain, startedAt: { gt: startedAt } } });
}

/** The states of the shop's runs into a workspace started after `since`. */
export async function runStatesInto(
  shopDomain: string,
  workspaceId: string,
  since: Date,
): Promise<string[]> {
  const runs = await prisma.syncRun.findMany({
    where: { shopDomain, workspaceId, startedAt: { gt: since } },
    select: { state: true },
  });
  return runs.map((run) => run.state);
}

/** Ids per statement, well under SQLite's and PostgreSQL's limits on bound values. */
const PRUNE_CHUNK = 500;

/**
 * Bounds a shop's run history (docs/sync.md, Retention): its newest `keep` finished runs stay,
 * with their counts; older ones are deleted with their items and their exports' records. A
 * finished run's items are staging, deleted too, except those the newest complete run did not
 * deliver (over quota, failed): the live worker reads them (removeChangesCoveredByRun), and that
 * run always stays. Unfinished runs and the ledger (IndexedItem) are never touched.
 */
export async function pruneRunHistory(shopDomain: string, keep: number): Promise<void> {
  const finished = await prisma.syncRun.findMany({
    where: { shopDomain, activeShop: null },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  const complete = await lastCompleteRun(shopDomain);
  const kept = finished.filter((run, i) => i < keep || run.id === complete?.id);
  const keptIds = new Set(kept.map((run) => run.id));
  const dropped = finished.filter((run) => !keptIds.has(run.id)).map((run) => run.id);

  for (const run of kept) {
    // Runs finished before counts were kept on them get theirs before their items go.
    if (run.counts === null) {
      await prisma.syncRun.update({
        where: { id: run.id },
        data: { counts: JSON.stringify(await runCounts(run)) },
      });
    }
  }
  for (let start = 0; start < dropped.length; start += PRUNE_CHUNK) {
    const ids = dropped.slice(start, start + PRUNE_CHUNK);
    await prisma.bulkExport.deleteMany({ where: { runId: { in: ids } } });
    await prisma.syncItem.deleteMany({ where: { runId: { in: ids } } });
    await prisma.syncRun.deleteMany({ where: { id: { in: ids } } });
  }
  const staging = kept.filter((run) => run.id !== complete?.id).map((run) => run.id);
  for (let start = 0; start < staging.length; start += PRUNE_CHUNK) {
    const ids = staging.slice(start, start + PRUNE_CHUNK);
    await prisma.syncItem.deleteMany({ where: { runId: { in: ids } } });
  }
  if (complete) {
    await prisma.syncItem.deleteMany({ where: { runId: complete.id, status: "sent" } });
  }
}

export interface KindCounts {
  sent: number;
  unchanged: number;
  deleted: number;
  overQuota: number;
  failed: number;
}

export interface RunCounts {
  products: KindCounts;
  posts: KindCounts;
  /** Items still owed to the service. */
  pending: number;
  /**
   * Variant, collection and media lines of Shopify's export that came before their product (or
   * without it): left out of the products (absent from runs kept before it was counted).
   */
  orphanLines?: number;
}

/**
 * What a run did so far, by kind: derived from its staged items and its unchanged counters, or,
 * once it finished, as kept on it then.
 */
export async function runCounts(
  run: Pick<SyncRun, "id" | "productsUnchanged" | "postsUnchanged" | "counts" | "orphanLines">,
): Promise<RunCounts> {
  if (run.counts !== null) return JSON.parse(run.counts) as RunCounts;
  const groups = await prisma.syncItem.groupBy({
    by: ["kind", "action", "status"],
    where: { runId: run.id },
    _count: { _all: true },
  });
  const empty = (): KindCounts => ({ sent: 0, unchanged: 0, deleted: 0, overQuota: 0, failed: 0 });
  const counts: RunCounts = {
    products: empty(),
    posts: empty(),
    pending: 0,
    orphanLines: run.orphanLines,
  };
  counts.products.unchanged = run.productsUnchanged;
  counts.posts.unchanged = run.postsUnchanged;
  for (const group of groups) {
    const n = group._count._all;
    const target = (group.kind as ContentKind) === "product" ? counts.products : counts.posts;
    if (group.status === "pending") counts.pending += n;
    else if (group.status === "failed") target.failed += n;
    else if (group.status === "over_quota") target.overQuota += n;
    else if (group.action === "delete") target.deleted += n;
    else target.sent += n;
  }
  return counts;
}

export function recentRuns(shopDomain: string, take = 10): Promise<SyncRun[]> {
  return prisma.syncRun.findMany({ where: { shopDomain }, orderBy: { startedAt: "desc" }, take });
}
