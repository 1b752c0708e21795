import type { SyncRun } from "@prisma/client";
import prisma from "../../db.server";
import { executeShopSync, NothingChosenError, startShopSync } from "./shop-sync.server";
import { RunInProgressError, type SyncTrigger } from "../../models/sync-runs.server";
import type { ShopLeases } from "../../models/shop-leases.server";

const CHECK_EVERY_MS = 2_000;

async function isUnfinished(runId: string): Promise<boolean> {
  const run = await prisma.syncRun.findUnique({
    where: { id: runId },
    select: { activeShop: true },
  });
  return run?.activeShop != null;
}

/**
 * Holds the shop's lease for as long as the run is unfinished, so that no other process resumes
 * it meanwhile (nor sends live changes for the shop). Resolves when the run ended.
 */
export async function holdLeaseWhileUnfinished(
  leases: ShopLeases,
  run: Pick<SyncRun, "id" | "shopDomain">,
  checkEveryMs: number = CHECK_EVERY_MS,
): Promise<void> {
  const lease = await leases.hold(run.shopDomain);
  if (!lease) return;
  try {
    while (await isUnfinished(run.id)) {
      await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
    }
  } finally {
    await lease.release();
  }
}

/**
 * Starts a full sync of the shop (run in this process) under this process's lease. Returns the run,
 * or null when one is already unfinished.
 */
export async function startLeasedShopSync(
  leases: ShopLeases,
  shopDomain: string,
  trigger: SyncTrigger,
): Promise<SyncRun | null> {
  try {
    const run = await startShopSync(shopDomain, trigger, undefined, leases);
    void holdLeaseWhileUnfinished(leases, run).catch(() => undefined);
    return run;
  } catch (error) {
    // Nothing chosen in Settings: there is nothing to sync until the merchant ticks something.
    if (error instanceof RunInProgressError || error instanceof NothingChosenError) return null;
    throw error;
  }
}

/**
 * Carries on the unfinished full syncs no live process holds (the app stopped in the middle):
 * each under this process's lease of its shop. Returns how many it took.
 */
export async function resumeOrphanedRuns(leases: ShopLeases): Promise<number> {
  const runs = await prisma.syncRun.findMany({ where: { activeShop: { not: null } } });
  let resumed = 0;
  for (const run of runs) {
    const lease = await leases.hold(run.shopDomain);
    if (!lease) continue;
    resumed += 1;
    // A run this process is already carrying is not started twice (executeShopSync knows).
    void executeShopSync(run.id, undefined, lease)
      .catch((error: unknown) =>
        console.error(`Resuming the sync of ${run.shopDomain} failed`, error),
      )
      .finally(() => void lease.release());
  }
  return resumed;
}
