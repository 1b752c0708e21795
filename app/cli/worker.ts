/**
 * `npm run worker`: the live worker as its own process (set LIVE_WORKER=separate for the app
 * server then). Same configuration as the app (app/config.server.ts); several may run: a shop's
 * changes are sent by the one that holds its lease.
 */
import { ConfigurationError, config } from "../config.server";
import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import prisma from "../db.server";
import { processLeases } from "../sync/live/lease.server";
import { startLiveWorker } from "../sync/live/worker.server";

let env: ReturnType<typeof config>;
try {
  env = config();
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(error.message);
  process.exit(2);
}

// A second process on the same SQLite file: with write-ahead logging the app server's reads are
// never blocked by the worker's commits (the setting stays with the database file).
if (!isPostgresUrl(databaseUrlFrom(process.env)))
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");

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
