import type { AppEnvironment } from "../config.server";
import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import prisma from "../db.server";
import { retryWhileBusy } from "../sync/live/database-busy.server";
import { processLeases } from "../sync/live/lease.server";
import { startLiveWorker } from "../sync/live/worker.server";

/** The live worker of `npm run worker`, stopped cleanly by SIGINT or SIGTERM. */
export async function startWorkerProcess(env: AppEnvironment): Promise<void> {
  // A second process on the same SQLite file: with write-ahead logging the app server's reads are
  // never blocked by the worker's commits (the setting stays with the database file).
  // Switching needs a moment without other writers: the app server may be committing.
  if (!isPostgresUrl(databaseUrlFrom(process.env)))
    await retryWhileBusy(() => prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL"), 30_000);

  const leases = processLeases(env.live.leaseMs);
  const worker = startLiveWorker({
    leases,
    pollMs: env.live.pollMs,
    coalesceMs: env.live.coalesceMs,
  });
  console.log(`[live] worker ${worker.holder} started`);

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.log(`[live] ${signal}: stopping after the batches under way`);
      void worker.stop().then(() => process.exit(0));
    });
  }
}
