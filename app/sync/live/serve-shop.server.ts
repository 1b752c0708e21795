import type { PendingChange } from "@prisma/client";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { IndexServiceError } from "../../index-service/errors";
import { dropShopLookups } from "../../models/lookups.server";
import {
  dropShopChanges,
  dueChangesOf,
  mayHaveDueWork,
  nextChangesAndSendable,
  noteAttempt,
  refusedChangesLeft,
  removeChangesCoveredByRun,
} from "../../models/outbox.server";
import { quotaStanding, standingOf } from "../../models/quota-usage.server";
import { workspaceOf } from "../../models/shops.server";
import { withSessionRead, type SessionRead } from "../../models/session-reads.server";
import { LeaseLostError } from "../../models/shop-leases.server";
import { countingSleeps } from "../../server/sleep";
import {
  passStart,
  sendCheck,
  sendCondition,
  type PassRuns,
  type SendCheck,
} from "../../models/live-pass.server";
import { describeWait, type RetryEvent, type SendGuard } from "../engine/pacer";
import { quotaMonthOf } from "../../index-service/tiers";
import { sendingTierOf } from "../engine/pacer-registry.server";
import { quotaReportsRead } from "../engine/send-and-settle.server";
import { appMetrics } from "../../server/metrics";
import { pauseForServiceRefusal } from "../../shop/pause.server";
import { serviceKeyIdOf } from "../../shop/service-keys.server";
import { startShopSyncUnlessRunning } from "../full/run-full-sync.server";
import { applyChanges } from "./apply-changes.server";
import { settleLookups } from "./resolve-lookups.server";
import { readPresences } from "./domain-workspaces.server";
import type { WorkerContext } from "./worker-context";

/**
 * How much earlier than the app's record of a bulk export's start Shopify may have stamped a
 * change the export still missed: clock skew between Shopify and the app, and the time the
 * export request took.
 */
const EXPORT_START_MARGIN_MS = 2_000;

/**
 * After a full sync of the shop's products that completed, the changes that happened before its
 * export started are already in the index (or were refused, and stay): they leave the outbox
 * without a re-read. Done once per complete run (the worker remembers the run it applied); after
 * that only a change of the batch that is older than the run's export (a late delivery, a lookup
 * that waited) makes it run again. Returns the moment before which changes count as covered, and
 * whether they were taken out just now (those still there are products the run did not deliver).
 */
async function dropChangesCoveredByLastSync(
  worker: WorkerContext,
  shopDomain: string,
  runs: PassRuns,
): Promise<{ cut: Date; now: boolean } | null> {
  const run = runs.lastComplete;
  if (!run || !run.exportedTypes.split(",").includes("product") || !run.productExportAt) {
    return null;
  }
  const cut = new Date(run.productExportAt.getTime() - EXPORT_START_MARGIN_MS);
  if (worker.memory.coveredRunApplied(shopDomain) === run.id) return { cut, now: false };
  await removeChangesCoveredByRun(shopDomain, run.id, cut);
  worker.memory.noteCoveredRunApplied(shopDomain, run.id);
  return { cut, now: true };
}

/** Sending was stopped on purpose before a request: the shop's changes stay for later. */
export class LiveSendInterrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "LiveSendInterrupted";
  }
}

function describeRetry(event: RetryEvent, now: Date): string {
  const when = describeWait(event.waitMs, now.getTime());
  return event.reason === "rate-limited"
    ? `The search service asked to wait (rate limit); sending again ${when}.`
    : `The search service failed (${event.error.code}: ${event.error.message}); retry ${event.attempt} ${when}.`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Serves one shop: batches until nothing is due, then keeps the lease a moment for the shop's
 * next pass (kept-leases.ts) or gives it back. Only the worker that holds the shop's lease sends
 * for it, never while a full sync of it is unfinished, never while it is paused or uninstalled.
 */
export function serveShop(worker: WorkerContext, shopDomain: string): Promise<void> {
  return countingSleeps((sleptCpuMicros) => servePasses(worker, shopDomain, sleptCpuMicros));
}

async function servePasses(
  worker: WorkerContext,
  shopDomain: string,
  sleptCpuMicros: () => number,
): Promise<void> {
  const { memory, registry, now } = worker;
  const lease = await worker.keptLeases.take(shopDomain);
  if (!lease) return;
  const cpuFrom = process.cpuUsage();
  /** Kept for the next pass only when this one ended with nothing more due (the shop steady). */
  let keep = false;
  /** When the current pass began, before it looked for an unfinished run. */
  let passStartedAt = new Date();
  const stillServing = () => {
    if (worker.stopped()) throw new LiveSendInterrupted("The worker is stopping.");
    if (lease.lost()) throw new LiveSendInterrupted("Another worker took the shop's lease.");
  };
  const guard: SendGuard = Object.assign(
    async () => {
      stillServing();
      // The lease read from the database, not only this process's view of it: a process that
      // stalled past its lease sends nothing once it wakes up. The shop and its runs are read in
      // the same statement.
      let check: SendCheck | undefined;
      await lease.confirm(async (fence, minRemainingMs) => {
        check = await sendCheck(fence, minRemainingMs, passStartedAt);
        return check.leaseHeld;
      });
      if (check?.shopState !== "active") {
        throw new LiveSendInterrupted(`The shop is ${check?.shopState ?? "gone"}.`);
      }
      // Also one that ran while the batch was read: its export may be newer than what was read,
      // and it took the changes it covered out of the outbox. The batch is read again after it.
      if (check.runUnfinishedOrSince) {
        throw new LiveSendInterrupted("A full sync started; live changes wait for it.");
      }
    },
    {
      // The same check, tested by the statement that takes the request's place in the key's
      // window: when it holds there, the read above is not needed.
      condition: () => {
        stillServing();
        return sendCondition(lease.fence, lease.minRemainingMs, passStartedAt);
      },
    },
  );
  let rows: PendingChange[] = [];
  try {
    for (let pass = 0; ; pass++) {
      if (worker.stopped() || lease.lost()) return;
      // After a full batch (or lookups settled), one look says whether another pass could find
      // anything: an empty pass reads the shop, its runs, lookups, quota and outbox.
      const cutoff = new Date(now().getTime() - worker.coalesceMs);
      if (pass > 0 && !(await mayHaveDueWork(shopDomain, cutoff, worker.batchSize))) {
        keep = true;
        return;
      }
      // On the runs' own clock (not the worker's `now`, which tests may move).
      passStartedAt = new Date();
      // When the pass read its changes (no later), on the coalescing window's clock.
      let readAt = now();
      // The shop, its runs, whether lookups wait, the month's quota, the offline session, the
      // next changes and what the ledger holds of them where the last batch went: one statement.
      const ledgerScopes = memory.ledgerScopesOf(shopDomain);
      const { shop, runs, offlineSession, changes, ledger } = await passStart(
        shopDomain,
        quotaMonthOf(now()),
        {
          limit: worker.batchSize,
          except: memory.refusedNow(shopDomain),
          ...(ledgerScopes ? { ledger: { scopes: ledgerScopes } } : {}),
        },
      );
      if (!shop || shop.state === "uninstalled" || !shop.syncProducts) {
        // Nothing will ever be sent for these changes.
        await dropShopChanges(shopDomain);
        await dropShopLookups(shopDomain);
        if (shop?.state !== "active") registry.forget(shopDomain);
        return;
      }
      if (shop.state !== "active" || !shop.secretKeyCiphertext || !workspaceOf(shop)) return;
      if (runs.unfinished) return;
      const admin = adminOnDemand(worker, shopDomain, offlineSession);
      // Stock and collection changes: their products join the outbox before it is read.
      if (runs.lookupsWaiting) {
        const lookups = await settleLookups({
          shopDomain,
          admin,
          startFullSync: async () =>
            (await startShopSyncUnlessRunning(worker.leases, shopDomain, "reconcile")) !== null,
        });
        if (lookups.fullSync) return;
      }
      const covered = await dropChangesCoveredByLastSync(worker, shopDomain, runs);

      const tier = sendingTierOf(shop);
      const at = now();
      // The quota read with the runs unless lookups were settled since (they may take a while)
      // or the month changed meanwhile: then read now, as before.
      const quotaStillRead = !runs.lookupsWaiting && runs.productQuota.month === quotaMonthOf(at);
      const standing = quotaStillRead
        ? standingOf(runs.productQuota, tier, "product")
        : await quotaStanding(shopDomain, tier, "product", at);
      const probeQuota =
        standing.remaining === 0 && memory.quotaProbeDue(shopDomain, at, worker.quotaProbeEveryMs);
      const due = {
        includeHeld: standing.remaining > 0 || probeQuota,
        receivedBefore: new Date(at.getTime() - worker.coalesceMs),
      };
      // The changes read with the pass, unless lookups or a full sync's clean-up changed the
      // outbox since, or held changes were read that are not to be sent.
      let read = changes && !runs.lookupsWaiting && !covered?.now && dueChangesOf(changes, due);
      // The ledger read with the changes stands only for a batch of them.
      const ledgerRead = read ? ledger : null;
      if (!read) {
        readAt = now();
        read = await nextChangesAndSendable(shopDomain, {
          ...due,
          limit: worker.batchSize,
          except: memory.refusedNow(shopDomain),
        });
      }
      const { rows: next, sendable } = read;
      if (worker.backlogResyncAt > 0 && sendable >= worker.backlogResyncAt) {
        await startBacklogResync(worker, shopDomain, sendable);
        return;
      }
      rows = next;
      if (covered && !covered.now && rows.some((row) => row.changedAt < covered.cut)) {
        // Came in since the run was applied yet older than its export: covered, as before.
        worker.memory.noteCoveredRunApplied(shopDomain, null);
        rows = [];
        continue;
      }
      if (rows.length === 0) {
        keep = true;
        return;
      }
      if (probeQuota) memory.noteQuotaProbe(shopDomain, at);

      const ids = rows.map((row) => row.productId);
      const keyId = serviceKeyIdOf(shop);
      const unsubscribe = registry.onRetry(
        shopDomain,
        tier,
        (event) => {
          noteAttempt(shopDomain, ids, describeRetry(event, now())).catch(() => undefined);
        },
        keyId,
      );
      let refused = 0;
      try {
        const applied = await applyChanges(
          {
            shop,
            tier,
            client: worker.serviceClient(shop),
            admin,
            pacer: registry.pacerFor(shopDomain, tier, keyId),
            now,
            guard,
            probeQuota,
            fence: lease.fence,
            presencesOf: (current) => memory.presencesOf(current, readPresences),
            marketPlanOf: (webPresenceId, read) => memory.marketPlanOf(shop, webPresenceId, read),
            readAt,
            ledgerRead,
            // A report the same as the quota row read with the runs is not written again.
            quotaReports: quotaStillRead
              ? quotaReportsRead(shopDomain, "product", runs.productQuota)
              : new Map(),
          },
          rows,
        );
        refused = applied.refused;
        memory.noteLedgerScopes(shopDomain, applied.ledgerScopes, rows.length);
      } finally {
        unsubscribe();
      }
      appMetrics().liveWorkerChanges.inc(rows.length);
      if (refused > 0) memory.noteRefused(shopDomain, await refusedChangesLeft(shopDomain, ids));
      memory.succeeded(shopDomain);
      // A batch that was not full took every change due when it was read, and this pass settled
      // no lookups: what came in since is due only after the coalescing window (or at a batch's
      // worth), which the poll sees; the look for more due work is for the other passes.
      const full = rows.length >= worker.batchSize;
      rows = [];
      if (!full && !runs.lookupsWaiting) {
        keep = true;
        return;
      }
    }
  } catch (error) {
    await handleFailure(worker, shopDomain, rows, error);
  } finally {
    // The process's CPU while this shop was served, less what it spent while the passes
    // waited out a rate limit or a backoff (decision 0061): mostly other work's, not theirs.
    const cpu = process.cpuUsage(cpuFrom);
    const served = Math.max(0, cpu.user + cpu.system - sleptCpuMicros());
    appMetrics().liveWorkerCpuSeconds.inc(served / 1e6);
    await worker.keptLeases.putBack(shopDomain, lease, keep);
  }
}

/**
 * The shop's Admin API for one pass, made when Shopify is first asked and then kept. Making it
 * loads the offline session (the Shopify library), which the pass read in its first statement:
 * when Shopify is asked soon after (withSessionRead says how soon), that row is the load's
 * answer, so a pass reads the session once, with the shop.
 */
function adminOnDemand(
  worker: WorkerContext,
  shopDomain: string,
  offlineSession: SessionRead | null,
): AdminGraphql {
  let made: Promise<AdminGraphql> | undefined;
  return {
    graphql: async (query, options) => {
      made ??= withSessionRead(offlineSession, () => worker.admin(shopDomain));
      return (await made).graphql(query, options);
    },
  };
}

/**
 * A batch that failed stays in the outbox with the reason; a refused key or plan pauses the shop,
 * anything else makes the shop wait out a backoff before its next batch.
 */
async function handleFailure(
  worker: WorkerContext,
  shopDomain: string,
  rows: PendingChange[],
  error: unknown,
): Promise<void> {
  // Taken over: the new holder sends these changes; this process writes nothing more.
  if (error instanceof LiveSendInterrupted || error instanceof LeaseLostError) return;
  const ids = rows.map((row) => row.productId);
  await noteAttempt(shopDomain, ids, messageOf(error)).catch(() => undefined);
  if (await pauseForServiceRefusal(shopDomain, error)) return;
  worker.memory.failed(shopDomain);
  if (!(error instanceof IndexServiceError && error.retryable)) {
    worker.log(`a batch of ${ids.length} changes failed; it is tried again`, error, shopDomain);
  }
}

async function startBacklogResync(
  worker: WorkerContext,
  shopDomain: string,
  pending: number,
): Promise<void> {
  if (await startShopSyncUnlessRunning(worker.leases, shopDomain, "reconcile")) {
    worker.log(
      `${pending} products changed; a full export re-reads them at once`,
      undefined,
      shopDomain,
    );
  }
}
