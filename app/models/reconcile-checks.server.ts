import type { ReconcileCheck, SyncRun } from "@prisma/client";
import prisma from "../db.server";
import { indexedTitles } from "./ledger.server";
import type { RunCounts } from "./sync-runs.server";

/** Items named on a check (the dashboard lists them). */
export const CHECK_ITEMS_KEPT = 50;

export interface RepairedItem {
  id: string;
  title: string;
  action: "updated" | "removed";
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
