import { config, type AppEnvironment } from "./config.server";
import { startMailSender } from "./service-events/mail-sender.server";
import { ensureAllServiceWebhooks } from "./service-events/registration.server";
import { schedulePruning } from "./service-events/retention.server";
import { processLeases } from "./sync/engine/process-leases.server";
import { adminFor } from "./shopify/admin-auth.server";
import { scheduleChangedProductsChecks } from "./sync/live/changed-products-check.server";
import { scheduleReconciliation } from "./sync/full/scheduled-full-sync.server";
import { schedulePolicyChecks } from "./sync/full/policy-check.server";
import { schedulePresenceChecks } from "./shop/follow-storefront-presences.server";
import { resumeOrphanedRuns } from "./sync/full/resume-runs.server";
import { startLiveWorker, type LiveWorker } from "./sync/live/worker.server";
import { logFor } from "./server/log";

const log = logFor("background");

/** How often unfinished full syncs that no process carries are looked for. */
const RESUME_EVERY_MS = 60_000;

export interface BackgroundWork {
  holder: string;
  worker: LiveWorker | null;
  /** Stops taking work and waits up to `timeoutMs` for the batches under way. */
  stop(timeoutMs?: number): Promise<void>;
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

/** This process's background work if it runs (its live worker is part of readiness). */
export function runningBackgroundWork(): BackgroundWork | null {
  return (globalThis as WithBackground)[KEY] ?? null;
}

/**
 * Stops this process's background work if it runs (the demo before it drops its database, a
 * clean shutdown), waiting up to `timeoutMs` for the batches under way.
 */
export async function stopBackgroundWork(timeoutMs?: number): Promise<void> {
  const holder = globalThis as WithBackground;
  const work = holder[KEY];
  delete holder[KEY];
  await work?.stop(timeoutMs);
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
      log.error({ err: error }, "unfinished syncs could not be resumed"),
    );
  void resume();
  const resumeTimer = setInterval(() => void resume(), RESUME_EVERY_MS);
  resumeTimer.unref();
  void ensureAllServiceWebhooks().catch((error: unknown) =>
    log.error({ err: error }, "the service's event webhooks could not be checked"),
  );
  const stopPruning = schedulePruning();
  const mailSender = startMailSender();
  const stopReconciling =
    env.background.reconcileEveryHours > 0
      ? scheduleReconciliation(leases, env.background.reconcileEveryHours)
      : () => undefined;
  const stopChecking =
    env.background.checkEveryMinutes > 0
      ? scheduleChangedProductsChecks(env.background.checkEveryMinutes, adminFor)
      : () => undefined;
  // Policy edits send no webhook: they are read on the same schedule as the products check.
  const stopPolicyChecks =
    env.background.checkEveryMinutes > 0
      ? schedulePolicyChecks(leases, env.background.checkEveryMinutes, adminFor)
      : () => undefined;
  // A web presence's own change (created, edited, deleted) sends no webhook: read on the same schedule.
  const stopPresenceChecks =
    env.background.checkEveryMinutes > 0
      ? schedulePresenceChecks(env.background.checkEveryMinutes, adminFor)
      : () => undefined;
  return {
    holder: leases.holder,
    worker,
    async stop(timeoutMs) {
      clearInterval(resumeTimer);
      stopPruning();
      stopReconciling();
      stopChecking();
      stopPolicyChecks();
      stopPresenceChecks();
      const stopped = Promise.all([worker?.stop(timeoutMs), mailSender?.stop()]);
      // A mail server that does not answer must not hold the process past its time either.
      const late = new Promise((resolve) => setTimeout(resolve, timeoutMs ?? 10_000).unref());
      await Promise.race([stopped, late]);
    },
  };
}
