import type { AppEnvironment } from "../config.server";
import { switchToWriteAheadLog } from "../db.server";
import { processLeases } from "../models/shop-leases.server";
import { startMailSender } from "../service-events/mail-sender.server";
import { startLiveWorker } from "../sync/live/worker.server";

/**
 * The live worker of `npm run worker`, and a sender of the notification emails owed (beside the
 * app server's: each email is claimed by one of them), stopped cleanly by SIGINT or SIGTERM.
 */
export async function startWorkerProcess(env: AppEnvironment): Promise<void> {
  // A second process on the same SQLite file: with write-ahead logging the app server's reads are
  // never blocked by the worker's commits.
  await switchToWriteAheadLog();

  const leases = processLeases(env.live.leaseMs);
  const worker = startLiveWorker({
    leases,
    pollMs: env.live.pollMs,
    coalesceMs: env.live.coalesceMs,
  });
  const mailSender = startMailSender();
  console.log(`[live] worker ${worker.holder} started`);

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.log(`[live] ${signal}: stopping after the batches under way`);
      void Promise.all([worker.stop(), mailSender?.stop()]).then(() => process.exit(0));
    });
  }
}
