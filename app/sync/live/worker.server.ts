import type { Shop } from "@prisma/client";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { BULK_MAX_ITEMS } from "../../index-service/assumptions";
import type { IndexServiceClient } from "../../index-service/client";
import { outboxBacklogs } from "../../models/outbox.server";
import { DEFAULT_LEASE_MS } from "../../models/shop-leases.server";
import { processLeases, ShopLeases } from "../engine/process-leases.server";
import { adminFor } from "../../shopify/admin-auth.server";
import { pacers as processPacers, type PacerRegistry } from "../engine/pacer-registry.server";
import { serviceClientFor } from "../../shop/service-keys.server";
import { KeptLeases } from "./kept-leases";
import { maintain } from "./maintenance.server";
import { workerBeater } from "./worker-beat";
import { messageOf, serveShop } from "./serve-shop.server";
import { ShopMemory, type WorkerContext } from "./worker-context";
import { logFor, withLogContext } from "../../server/log";

const log = logFor("live");

export interface LiveWorkerOptions {
  /** Names this worker in shop leases (default: host, pid and a random part). */
  holder?: string;
  /** How often the outbox is looked at (default 1 s). */
  pollMs?: number;
  /** Changes wait this long after their first receipt (the outbox's receivedAt), or until a batch is full (default 3 s). */
  coalesceMs?: number;
  /** Changes per batch (default 100, the service's bulk maximum). */
  batchSize?: number;
  leaseMs?: number;
  /**
   * How long a shop's lease is kept after a pass that left nothing due, for its next pass
   * (default `coalesceMs` + 2 × `pollMs`: a change that comes just after is due and seen by then).
   */
  leaseKeptMs?: number;
  /** Paused shops are asked again, old workspaces cleaned, receipts pruned this often (default 60 s). */
  maintenanceEveryMs?: number;
  /** New products held for a spent quota are tried again this often (default 1 h). */
  quotaProbeEveryMs?: number;
  /** After a failed batch the shop waits baseMs × 2^(n-1), at most maxMs (defaults 1 s, 5 min). */
  failureBackoff?: { baseMs: number; maxMs: number };
  /**
   * From this many pending products on, a full export (one bulk query, no cost points per
   * product) is cheaper than re-reading them by id: the shop gets a full sync instead, which
   * also settles them (default 250; 0 never).
   */
  backlogResyncAt?: number;
  pacers?: PacerRegistry;
  /** The leases of this process (shared with its full syncs); made from `holder` when absent. */
  leases?: ShopLeases;
  /** The Admin API of a shop (default: its offline session). */
  admin?: (shopDomain: string) => Promise<AdminGraphql>;
  /** The service's client of a shop (default: its saved secret key). */
  serviceClient?: (shop: Shop) => IndexServiceClient;
  now?: () => Date;
  log?: WorkerContext["log"];
}

export interface LiveWorker {
  readonly holder: string;
  /**
   * When the polling loop last finished a round (ms since the epoch; when it started, before the
   * first round): a value older than a few poll intervals means the loop is stuck (readiness,
   * app/server/health.server.ts).
   */
  lastLoopAt(): number;
  /** Runs the chores at the next round instead of when `maintenanceEveryMs` has passed (a test's step). */
  maintainAtNextRound(): void;
  /** Stops taking work; resolves when the shops being served stopped (or after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * The live worker: drains the outbox shop by shop. This part schedules: every poll it looks at
 * the shops with changes waiting and serves each one that is due (serve-shop.server.ts) when its
 * oldest change has waited `coalesceMs` or a batch is full; every `maintenanceEveryMs` it runs
 * the chores (maintenance.server.ts).
 */
export function startLiveWorker(options: LiveWorkerOptions = {}): LiveWorker {
  const pollMs = options.pollMs ?? 1_000;
  const maintenanceEveryMs = options.maintenanceEveryMs ?? 60_000;
  const now = options.now ?? (() => new Date());
  // The process's own leases unless a holder is named (tests playing several processes): a full
  // sync this worker starts is then carried under the very lease the worker holds.
  const leases =
    options.leases ??
    (options.holder
      ? new ShopLeases(options.holder, options.leaseMs ?? DEFAULT_LEASE_MS)
      : processLeases(options.leaseMs ?? DEFAULT_LEASE_MS));

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastMaintenance = Number.NEGATIVE_INFINITY;
  let lastLoopAt = Date.now();
  const busy = new Map<string, Promise<void>>();
  const beat = workerBeater(leases.holder);
  const coalesceMs = options.coalesceMs ?? 3_000;
  const keptLeases = new KeptLeases(
    leases,
    options.leaseKeptMs ?? coalesceMs + 2 * pollMs,
    () => stopped,
  );
  const worker: WorkerContext = {
    coalesceMs,
    batchSize: options.batchSize ?? BULK_MAX_ITEMS,
    quotaProbeEveryMs: options.quotaProbeEveryMs ?? 3_600_000,
    backlogResyncAt: options.backlogResyncAt ?? 250,
    registry: options.pacers ?? processPacers,
    leases,
    keptLeases,
    admin: options.admin ?? adminFor,
    serviceClient: options.serviceClient ?? serviceClientFor,
    now,
    log:
      options.log ??
      ((message: string, error?: unknown, shop?: string) => {
        const fields = shop === undefined ? {} : { shop };
        if (error === undefined) log.info(fields, message);
        else log.error({ ...fields, err: error }, message);
      }),
    memory: new ShopMemory(options.failureBackoff ?? { baseMs: 1_000, maxMs: 300_000 }, now),
    stopped: () => stopped,
    launch: (shopDomain, work, slot = shopDomain) => {
      if (busy.has(slot) || stopped) return;
      // Every line logged by the shop's work names the shop.
      const task = withLogContext({ shop: shopDomain }, work)
        .catch((error: unknown) => worker.log(messageOf(error), error, shopDomain))
        .finally(() => busy.delete(slot));
      busy.set(slot, task);
    },
  };

  const tick = async () => {
    try {
      // Tells every process (the Dashboard) that a worker is taking changes.
      await beat(now());
      // Changes held for the quota are looked at with the maintenance, not every poll.
      const at = now().getTime();
      const maintaining = at - lastMaintenance >= maintenanceEveryMs;
      if (maintaining) {
        lastMaintenance = at;
        await maintain(worker);
      }
      const cutoff = now().getTime() - worker.coalesceMs;
      const backlogs = await outboxBacklogs();
      /** Being served now, or waiting out its backoff after a failed batch. */
      const occupied = (shopDomain: string) =>
        busy.has(shopDomain) || worker.memory.coolingDown(shopDomain);
      for (const backlog of backlogs.changes) {
        if (occupied(backlog.shopDomain)) continue;
        const due =
          backlog.sendable >= worker.batchSize ||
          (backlog.oldestSendableAt !== null && backlog.oldestSendableAt.getTime() <= cutoff) ||
          (maintaining && backlog.held > 0);
        if (due) worker.launch(backlog.shopDomain, () => serveShop(worker, backlog.shopDomain));
      }
      for (const backlog of backlogs.lookups) {
        if (occupied(backlog.shopDomain)) continue;
        if (backlog.oldest.getTime() <= cutoff) {
          worker.launch(backlog.shopDomain, () => serveShop(worker, backlog.shopDomain));
        }
      }
    } catch (error) {
      worker.log("the outbox could not be read", error);
    } finally {
      lastLoopAt = Date.now();
      if (!stopped) timer = setTimeout(() => void tick(), pollMs);
    }
  };
  timer = setTimeout(() => void tick(), 0);

  return {
    holder: leases.holder,
    lastLoopAt: () => lastLoopAt,
    maintainAtNextRound: () => {
      lastMaintenance = Number.NEGATIVE_INFINITY;
    },
    async stop(timeoutMs = 10_000) {
      stopped = true;
      clearTimeout(timer);
      const all = Promise.allSettled([...busy.values()]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      // The shops kept for a next pass are free for another process now (a shop still being
      // served gives its lease back when its pass ends: the worker is stopped).
      await keptLeases.releaseAll();
    },
  };
}
