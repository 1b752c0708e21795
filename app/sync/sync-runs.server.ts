import { Prisma, type SyncRun } from "@prisma/client";
import prisma from "../db.server";
import type { ContentKind } from "./content-kinds";

export type SyncTrigger =
  | "install"
  | "resync"
  | "cli"
  | "reconcile"
  | "domain-change"
  /** Settings saved another account's key or another workspace: the index moves there. */
  | "move";
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

export function runSources(run: Pick<SyncRun, "sources">): string[] {
  const parsed: unknown = JSON.parse(run.sources);
  return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
}

export async function updateRun(id: string, data: Prisma.SyncRunUpdateInput): Promise<SyncRun> {
  return prisma.syncRun.update({ where: { id }, data });
}

export async function finishRun(
  id: string,
  outcome: { state: "succeeded" } | { state: "failed"; errorCode: string; errorMessage: string },
): Promise<SyncRun> {
  return prisma.syncRun.update({
    where: { id },
    data: {
      ...outcome,
      phase: outcome.state === "succeeded" ? "done" : undefined,
      activeShop: null,
      finishedAt: new Date(),
    },
  });
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
}

/** What a run did so far, by kind: derived from its staged items and its unchanged counters. */
export async function runCounts(
  run: Pick<SyncRun, "id" | "productsUnchanged" | "postsUnchanged">,
): Promise<RunCounts> {
  const groups = await prisma.syncItem.groupBy({
    by: ["kind", "action", "status"],
    where: { runId: run.id },
    _count: { _all: true },
  });
  const empty = (): KindCounts => ({ sent: 0, unchanged: 0, deleted: 0, overQuota: 0, failed: 0 });
  const counts: RunCounts = { products: empty(), posts: empty(), pending: 0 };
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
