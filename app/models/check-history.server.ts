import type { ReconcileCheck, SyncRun } from "@prisma/client";
import prisma from "./db.server";
import { indexedTitles } from "./ledger.server";
import type { RunCounts } from "./sync-runs.server";

/** Items named on a check (the dashboard lists them). */
export const CHECK_ITEMS_KEPT = 50;

export interface RepairedItem {
  id: string;
  title: string;
  action: "updated" | "removed";
}

/** The shop's latest check (of either kind) that finished without an error, by start. */
export function lastCheckWithoutError(shopDomain: string): Promise<ReconcileCheck | null> {
  return prisma.reconcileCheck.findFirst({
    where: { shopDomain, finishedAt: { not: null }, error: null },
    orderBy: { startedAt: "desc" },
  });
}

/** The shop's latest changed-products check (kind "incremental"), finished or not, by start. */
export function latestChangedProductsCheck(shopDomain: string): Promise<ReconcileCheck | null> {
  return prisma.reconcileCheck.findFirst({
    where: { shopDomain, kind: "incremental" },
    orderBy: { startedAt: "desc" },
  });
}

/** The shop's latest finished check (of either kind), by finish. */
export function latestFinishedCheck(shopDomain: string): Promise<ReconcileCheck | null> {
  return prisma.reconcileCheck.findFirst({
    where: { shopDomain, finishedAt: { not: null } },
    orderBy: { finishedAt: "desc" },
  });
}

/** The shop's latest check (of either kind) that repaired something, finished since `since`. */
export function latestRepairingCheck(
  shopDomain: string,
  since: Date,
): Promise<ReconcileCheck | null> {
  return prisma.reconcileCheck.findFirst({
    where: { shopDomain, finishedAt: { gte: since }, repaired: { gt: 0 } },
    orderBy: { finishedAt: "desc" },
  });
}

/** A changed-products check (kind "incremental") begins: compared with the shop from `since`. */
export function recordChangedProductsCheckStarted(
  shopDomain: string,
  since: Date,
  startedAt: Date,
): Promise<ReconcileCheck> {
  return prisma.reconcileCheck.create({
    data: { shopDomain, kind: "incremental", since, startedAt },
  });
}

/** A check finished: what it compared and repaired, and the first repaired items by title. */
export function recordCheckFinished(
  id: string,
  outcome: { finishedAt: Date; compared: number; repaired: number; items: RepairedItem[] },
): Promise<ReconcileCheck> {
  return prisma.reconcileCheck.update({
    where: { id },
    data: {
      finishedAt: outcome.finishedAt,
      compared: outcome.compared,
      repaired: outcome.repaired,
      items: JSON.stringify(outcome.items),
    },
  });
}

/** A check stopped with an error. */
export async function recordCheckFailed(
  id: string,
  outcome: { finishedAt: Date; error: string },
): Promise<void> {
  await prisma.reconcileCheck.update({ where: { id }, data: outcome });
}

/**
 * A finished reconcile run (the daily full sweep, or one a live change started) as a check: what
 * it compared, how many it sent or removed, and the first of them by title. Called as the run
 * finishes, before its sent staging rows are pruned; the titles are the ledger's (what was sent,
 * or what the removed item had been sent as).
 */
export async function recordRunCheck(run: SyncRun, counts: RunCounts): Promise<ReconcileCheck> {
  const sent = await prisma.syncItem.findMany({
    where: { runId: run.id, status: "sent" },
    select: { kind: true, itemId: true, action: true, title: true },
    orderBy: [{ action: "asc" }, { itemId: "asc" }],
    take: CHECK_ITEMS_KEPT,
  });
  const scope = { shopDomain: run.shopDomain, workspaceId: run.workspaceId };
  const upserted = (kind: string) =>
    sent
      .filter((item) => item.kind === kind && item.action === "upsert")
      .map((item) => item.itemId);
  const [products, posts] = await Promise.all([
    indexedTitles(scope, "product", upserted("product")),
    indexedTitles(scope, "post", upserted("post")),
  ]);
  const items: RepairedItem[] = sent.map((item) => ({
    id: item.itemId,
    title:
      item.title ?? (item.kind === "product" ? products : posts).get(item.itemId) ?? item.itemId,
    action: item.action === "delete" ? "removed" : "updated",
  }));
  return prisma.reconcileCheck.create({
    data: {
      shopDomain: run.shopDomain,
      kind: "full",
      runId: run.id,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      compared: run.productsTotal + run.postsTotal,
      repaired:
        counts.products.sent + counts.products.deleted + counts.posts.sent + counts.posts.deleted,
      items: JSON.stringify(items),
    },
  });
}
