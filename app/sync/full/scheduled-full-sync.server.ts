import { connectedActiveShops, workspaceOf } from "../../models/shops.server";
import { latestRun } from "../../models/sync-runs.server";
import type { ShopLeases } from "../engine/process-leases.server";
import { startShopSyncUnlessRunning } from "./run-full-sync.server";
import { logFor } from "../../server/log";

const log = logFor("reconcile");

/**
 * Shopify sends no webhook for online-store pages and blog articles, and a product webhook can be
 * lost: a scheduled full sync ("reconcile") re-exports the shop and, through the ledger, sends
 * only what changed since the last run. A shop is due when its latest run (of any kind) started
 * `everyHours` ago or more; shops with an unfinished run, paused or not connected wait.
 * Returns the shops a reconciliation was started for.
 */
export async function reconcileDueShops(
  leases: ShopLeases,
  everyHours: number,
  now: Date = new Date(),
): Promise<string[]> {
  const since = new Date(now.getTime() - everyHours * 3_600_000);
  const shops = await connectedActiveShops();
  const started: string[] = [];
  for (const shop of shops) {
    if (!workspaceOf(shop)) continue;
    const latest = await latestRun(shop.shopDomain);
    if (latest && (latest.activeShop !== null || latest.startedAt > since)) continue;
    const run = await startShopSyncUnlessRunning(leases, shop.shopDomain, "reconcile");
    if (run) started.push(shop.shopDomain);
  }
  return started;
}

/** Checks for due shops regularly; returns a stop function. */
export function scheduleReconciliation(leases: ShopLeases, everyHours: number): () => void {
  const checkEveryMs = Math.min(10 * 60_000, (everyHours * 3_600_000) / 4);
  const timer = setInterval(() => {
    reconcileDueShops(leases, everyHours).catch((error: unknown) =>
      log.error({ err: error }, "the scheduled reconciliation failed"),
    );
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
