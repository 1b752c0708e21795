import { createServer, type Server } from "node:http";
import type { AppEnvironment } from "../config.server";
import { healthRoutes } from "../server/health-routes";
import { appMetrics, scrapeMetrics } from "../server/metrics";
import { metricsRoute } from "../server/metrics-route";
import { exitIfPortInUse } from "./port-in-use";
import { stopOnSignals } from "./stop-on-signals";
import { checkReadiness } from "../server/health.server";
import { switchToWriteAheadLog } from "../models/write-ahead-log.server";
import { processLeases } from "../sync/engine/process-leases.server";
import { startMailSender } from "../service-events/mail-sender.server";
import { startLiveWorker, type LiveWorker } from "../sync/live/worker.server";
import { logFor } from "../server/log";

const log = logFor("live");

/**
 * The live worker of `npm run worker`, and a sender of the notification emails owed (beside the
 * app server's: each email is claimed by one of them), stopped cleanly by SIGINT or SIGTERM (its
 * shop leases given back at once, ./stop-on-signals.ts). With WORKER_PORT, a small HTTP listener
 * answers /healthz and /readyz, and /metrics with METRICS_TOKEN (docs/operations.md).
 */
export async function startWorkerProcess(env: AppEnvironment): Promise<void> {
  // A second process on the same SQLite file: with write-ahead logging the app server's reads are
  // never blocked by the worker's commits.
  await switchToWriteAheadLog();

  // The port first: a port in use stops the process before it takes any work.
  const running: { worker?: LiveWorker } = {};
  const metrics = appMetrics();
  if (env.workerPort !== undefined) {
    const health = healthRoutes(() =>
      checkReadiness({ liveWorker: running.worker, pollMs: env.live.pollMs }),
    );
    const scrape = metricsRoute(() => ({ token: env.metricsToken, scrape: scrapeMetrics }));
    const server = createServer((req, res) => {
      if (!health(req, res) && !scrape(req, res)) {
        res.writeHead(404);
        res.end();
      }
    });
    await listen(server, env.workerPort).catch((error: unknown) => {
      exitIfPortInUse(error, env.workerPort!, "WORKER_PORT");
      throw error;
    });
  }

  const leases = processLeases(env.live.leaseMs);
  const worker = startLiveWorker({
    leases,
    pollMs: env.live.pollMs,
    coalesceMs: env.live.coalesceMs,
  });
  running.worker = worker;
  metrics.watchLiveWorker(worker);
  const mailSender = startMailSender();
  log.info(`worker ${worker.holder} started`);
  if (env.workerPort !== undefined) {
    log.info(`/healthz and /readyz on port ${env.workerPort}`);
    if (env.metricsToken) log.info(`/metrics on port ${env.workerPort}`);
  }
  stopOnSignals({
    name: "live",
    // No new batches; the ones under way finish (or stop at their next step) within 5 s.
    stop: async () => {
      await Promise.all([worker.stop(5_000), mailSender?.stop()]);
      await leases.releaseAll();
    },
    // The shops are another process's at once, whatever is still under way.
    lastly: () => leases.releaseAll(),
  });
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
}
