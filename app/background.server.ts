import { config, type AppEnvironment } from "./config.server";
import { startMailSender } from "./service-events/mail-sender.server";
import { ensureAllServiceWebhooks } from "./service-events/registration.server";
import { schedulePruning } from "./service-events/retention.server";
import { processLeases } from "./models/shop-leases.server";
import { adminFor } from "./shopify-admin.server";
import { scheduleChecks } from "./sync/shop/reconcile-check.server";
import { scheduleReconciliation } from "./sync/shop/reconcile.server";
import { resumeOrphanedRuns } from "./sync/shopify/run-leases.server";
import { startLiveWorker, type LiveWorker } from "./sync/live/worker.server";

/** How often unfinished full syncs that no process carries are looked for. */
const RESUME_EVERY_MS = 60_000;

export interface BackgroundWork {
  holder: string;
  worker: LiveWorker | null;
  stop(): Promise<void>;
}

const KEY = Symbol.for("catalog-chat.background-work");
type WithBackground = typeof globalThis & { [KEY]?: BackgroundWork };

/**
 * Starts the app server's background work once per process: the live worker (unless it runs as
 * its own process, LIVE_WORKER=separate), the full syncs a stopped process left unfinished, the
 * scheduled reconciliation, the service's event webhooks (registered again where missing or
 * different), the pruning of old service events and the sending of notification emails.
 * BACKGROUND_WORK=off turns it all off (tests).
 */
export function ensureBackgroundWork(): BackgroundWork | null {
  const env = config();
  if (!env.background.enabled) return null;
  const holder = globalThis as WithBackground;
  holder[KEY] ??= startBackgroundWork(env);
  return holder[KEY];
}

/** Stops this process's background work if it runs (the demo, before it drops its database). */
export async function stopBackgroundWork(): Promise<void> {
  const holder = globalThis as WithBackground;
  const work = holder[KEY];
  delete holder[KEY];
  await work?.stop();
}

export function startBackgroundWork(
  env: Pick<AppEnvironment, "background" | "live">,
): BackgroundWork {
  const leases = processLeases(env.live.leaseMs);
  const worker = env.background.liveWorkerInApp
    ? startLiveWorker({ leases, pollMs: env.live.pollMs, coalesceMs: env.live.coalesceMs })
    : null;
  const resume = () =>
    resumeOrphanedRuns(leases).catch((error: unknown) =>
      console.error("[background] unfinished syncs could not be resumed", error),
    );
  void resume();
  const resumeTimer = setInterval(() => void resume(), RESUME_EVERY_MS);
  resumeTimer.unref();
  void ensureAllServiceWebhooks().catch((error: unknown) =>
    console.error("[background] the service's event webhooks could not be checked", error),
  );
  const stopPruning = schedulePruning();
  const mailSender = startMailSender();
  const stopReconciling =
    env.background.reconcileEveryHours > 0
      ? scheduleReconciliation(leases, env.background.reconcileEveryHours)
      : () => undefined;
  const stopChecking =
    env.background.checkEveryMinutes > 0
      ? scheduleChecks(env.background.checkEveryMinutes, adminFor)
      : () => undefined;
  return {
    holder: leases.holder,
    worker,
    async stop() {
      clearInterval(resumeTimer);
      stopPruning();
      stopReconciling();
      stopChecking();
      await Promise.all([worker?.stop(), mailSender?.stop()]);
    },
  };
}
