/**
 * Resuming full syncs after a crash. A process that stops in the middle of a full sync (a crash,
 * a deploy, a restart) leaves its run unfinished in the database: `SyncRun.activeShop` still set,
 * its phase, and its staged items (what it still owes the service) as the checkpoint. The chain,
 * from where a process starts:
 * 1. app/background.server.ts (the app server's background work) calls resumeOrphanedRuns (below)
 *    at start and every minute;
 * 2. resumeOrphanedRuns takes each unfinished run whose shop's lease is free: a run another live
 *    process carries is under that process's lease, and is left to it;
 * 3. carryRun (run-full-sync.server.ts) carries the run on from its phase, as it carries a run just
 *    started: the key proved, Shopify's export asked only for the types not asked yet and waited
 *    for, then
 * 4. runFullSync (engine/sync-export.server.ts) resumes the engine at the run's phase: a run stopped
 *    while reading the export stages it again from the start; one stopped while sending or cleaning
 *    up sends what its staged items still owe. The ledger says what was sent, so at most the batch
 *    in flight at the crash is sent again (docs/decisions/0001-raw-sql-without-transactions.md).
 */
import type { ShopLeases } from "../engine/process-leases.server";
import { unfinishedRuns } from "../../models/sync-runs.server";
import { carryRun } from "./run-full-sync.server";
import { isPresenceLedgerKey } from "./presence-workspaces.server";
import { logFor } from "../../server/log";

const log = logFor("sync");

/**
 * Carries on the unfinished full syncs no live process holds (the app stopped in the middle):
 * each under this process's lease of its shop. Returns how many it took.
 */
export async function resumeOrphanedRuns(leases: ShopLeases): Promise<number> {
  const runs = await unfinishedRuns();
  let resumed = 0;
  for (const run of runs) {
    if (isPresenceLedgerKey(run.shopDomain)) continue;
    const lease = await leases.hold(run.shopDomain);
    if (!lease) continue;
    resumed += 1;
    // A run this process is already carrying is not started twice (carryRun knows).
    void carryRun(run.id, undefined, lease)
      .catch((error: unknown) =>
        log.error(
          { err: error, shop: run.shopDomain, runId: run.id },
          `resuming the sync of ${run.shopDomain} failed`,
        ),
      )
      .finally(() => void lease.release());
  }
  return resumed;
}
