import type { PendingChange, Shop } from "@prisma/client";
import type { AdminGraphql } from "../../catalog";
import prisma from "../../db.server";
import { describeWait } from "../describe-wait";
import { BULK_MAX_ITEMS } from "../../index-service/assumptions";
import type { IndexServiceClient } from "../../index-service/client";
import { IndexServiceError } from "../../index-service/errors";
import { findShop, workspaceOf } from "../../models/shops.server";
import { adminFor } from "../../shopify-admin.server";
import type { RetryEvent } from "../pacer";
import { pacers as processPacers, type PacerRegistry } from "../pacers.server";
import { quotaStanding } from "../quota-usage.server";
import { serviceClientFor } from "../shop-service.server";
import { unfinishedRun } from "../sync-runs.server";
import { applyChanges } from "./apply-changes.server";
import { dropChangesCoveredByLastSync } from "./covered-by-run.server";
import { DEFAULT_LEASE_MS, processLeases, ShopLeases } from "./lease.server";
import {
  dropShopChanges,
  nextChanges,
  noteAttempt,
  pruneWebhookReceipts,
  sendableCount,
  shopBacklogs,
} from "./outbox.server";
import {
  pauseForServiceRefusal,
  probePausedShop,
  shopsPausedByService,
} from "./paused-shops.server";
import { startLeasedShopSync } from "./run-leases.server";
import { sendingTierOf } from "./shop-tier";
import { DOMAIN_CHANGE_TRIGGER } from "./domain-change.server";
import { formerWorkspaces, reindexedSince, removeWorkspaceItems } from "./remove-from-index.server";

export interface LiveWorkerOptions {
  /** Names this worker in shop leases (default: host, pid and a random part). */
  holder?: string;
  /** How often the outbox is looked at (default 1 s). */
  pollMs?: number;
  /** Changes wait this long after their first receipt, or until a batch is full (default 3 s). */
  coalesceMs?: number;
  /** Changes per batch (default 100, the service's bulk maximum). */
  batchSize?: number;
  leaseMs?: number;
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
  log?: (message: string, error?: unknown) => void;
}

export interface LiveWorker {
  readonly holder: string;
  /** Stops taking work; resolves when the shops being served stopped (or after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

/** Sending was stopped on purpose before a request: the shop's changes stay for later. */
export class LiveSendInterrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "LiveSendInterrupted";
  }
}

function describeRetry(event: RetryEvent): string {
  const when = describeWait(event.waitMs);
  return event.reason === "rate-limited"
    ? `The search service asked to wait (rate limit); sending again ${when}.`
    : `The search service failed (${event.error.code}: ${event.error.message}); retry ${event.attempt} ${when}.`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The live worker: drains the outbox shop by shop. A shop is served when its oldest change has
 * waited `coalesceMs` or a batch is full, by the one worker that holds its lease, never while a
 * full sync of it is unfinished, never while it is paused or uninstalled.
 */
export function startLiveWorker(options: LiveWorkerOptions = {}): LiveWorker {
  const pollMs = options.pollMs ?? 1_000;
  const coalesceMs = options.coalesceMs ?? 3_000;
  const batchSize = options.batchSize ?? BULK_MAX_ITEMS;
  const maintenanceEveryMs = options.maintenanceEveryMs ?? 60_000;
  const quotaProbeEveryMs = options.quotaProbeEveryMs ?? 3_600_000;
  const backoff = options.failureBackoff ?? { baseMs: 1_000, maxMs: 300_000 };
  const backlogResyncAt = options.backlogResyncAt ?? 250;
  const registry = options.pacers ?? processPacers;
  const admin = options.admin ?? adminFor;
  const serviceClient = options.serviceClient ?? serviceClientFor;
  const now = options.now ?? (() => new Date());
  const log =
    options.log ??
    ((message: string, error?: unknown) =>
      error === undefined
        ? console.log(`[live] ${message}`)
        : console.error(`[live] ${message}`, error));
  // The process's own leases unless a holder is named (tests playing several processes): a full
  // sync this worker starts is then carried under the very lease the worker holds.
  const leases =
    options.leases ??
    (options.holder
      ? new ShopLeases(options.holder, options.leaseMs ?? DEFAULT_LEASE_MS)
      : processLeases(options.leaseMs ?? DEFAULT_LEASE_MS));
  const holder = leases.holder;

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastMaintenance = 0;
  const busy = new Map<string, Promise<void>>();
  const failures = new Map<string, { count: number; until: number }>();
  const lastQuotaProbe = new Map<string, number>();

  const launch = (shopDomain: string, work: () => Promise<void>) => {
    if (busy.has(shopDomain) || stopped) return;
    const task = work()
      .catch((error: unknown) => log(`${shopDomain}: ${messageOf(error)}`, error))
      .finally(() => busy.delete(shopDomain));
    busy.set(shopDomain, task);
  };

  const coolingDown = (shopDomain: string) => (failures.get(shopDomain)?.until ?? 0) > Date.now();

  const failed = (shopDomain: string) => {
    const count = (failures.get(shopDomain)?.count ?? 0) + 1;
    const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (count - 1));
    const wait = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    failures.set(shopDomain, { count, until: Date.now() + wait });
  };

  /** Products the service refused one by one: tried again after a while, not in every batch. */
  const refusedUntil = new Map<string, Map<string, number>>();
  const refusedNow = (shopDomain: string) => {
    const entries = refusedUntil.get(shopDomain);
    if (!entries) return [];
    const at = Date.now();
    for (const [id, until] of entries) if (until <= at) entries.delete(id);
    return [...entries.keys()];
  };
  const noteRefused = async (shopDomain: string, rows: PendingChange[]) => {
    const left = await prisma.pendingChange.findMany({
      where: {
        shopDomain,
        productId: { in: rows.map((row) => row.productId) },
        attempts: { gt: 0 },
      },
      select: { productId: true, attempts: true },
    });
    const entries = refusedUntil.get(shopDomain) ?? new Map<string, number>();
    for (const row of left) {
      const wait = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(20, row.attempts - 1));
      entries.set(row.productId, Date.now() + wait);
    }
    refusedUntil.set(shopDomain, entries);
  };

  /** Serves one shop: batches until nothing is due, then gives the lease back. */
  const serveShop = async (shopDomain: string) => {
    const lease = await leases.hold(shopDomain);
    if (!lease) return;
    const guard = async () => {
      if (stopped) throw new LiveSendInterrupted("The worker is stopping.");
      if (lease.lost()) throw new LiveSendInterrupted("Another worker took the shop's lease.");
      const current = await findShop(shopDomain);
      if (!current || current.state !== "active") {
        throw new LiveSendInterrupted(`The shop is ${current?.state ?? "gone"}.`);
      }
      if (await unfinishedRun(shopDomain)) {
        throw new LiveSendInterrupted("A full sync started; live changes wait for it.");
      }
    };
    let rows: PendingChange[] = [];
    try {
      for (;;) {
        if (stopped || lease.lost()) return;
        const shop = await findShop(shopDomain);
        if (!shop || shop.state === "uninstalled" || !shop.syncProducts) {
          // Nothing will ever be sent for these changes.
          await dropShopChanges(shopDomain);
          if (shop?.state !== "active") registry.forget(shopDomain);
          return;
        }
        if (shop.state !== "active" || !shop.secretKeyCiphertext || !workspaceOf(shop)) return;
        if (await unfinishedRun(shopDomain)) return;
        await dropChangesCoveredByLastSync(shopDomain);

        const tier = sendingTierOf(shop);
        const at = now();
        const standing = await quotaStanding(shopDomain, tier, "product", at);
        const probeQuota =
          standing.remaining === 0 &&
          at.getTime() - (lastQuotaProbe.get(shopDomain) ?? 0) >= quotaProbeEveryMs;
        const sendable = await sendableCount(shopDomain);
        if (backlogResyncAt > 0 && sendable >= backlogResyncAt) {
          await startBacklogResync(shopDomain, sendable);
          return;
        }
        rows = await nextChanges(shopDomain, {
          limit: batchSize,
          includeHeld: standing.remaining > 0 || probeQuota,
          except: refusedNow(shopDomain),
          ...(sendable >= batchSize ? {} : { receivedBefore: new Date(at.getTime() - coalesceMs) }),
        });
        if (rows.length === 0) return;
        if (probeQuota) lastQuotaProbe.set(shopDomain, at.getTime());

        const ids = rows.map((row) => row.productId);
        const unsubscribe = registry.onRetry(shopDomain, tier, (event) => {
          noteAttempt(shopDomain, ids, describeRetry(event)).catch(() => undefined);
        });
        let refused = 0;
        try {
          ({ refused } = await applyChanges(
            {
              shop,
              tier,
              client: serviceClient(shop),
              admin: await admin(shopDomain),
              pacer: registry.pacerFor(shopDomain, tier),
              now,
              guard,
              probeQuota,
            },
            rows,
          ));
        } finally {
          unsubscribe();
        }
        if (refused > 0) await noteRefused(shopDomain, rows);
        failures.delete(shopDomain);
        rows = [];
      }
    } catch (error) {
      await handleFailure(shopDomain, rows, error);
    } finally {
      await lease.release();
    }
  };

  const handleFailure = async (shopDomain: string, rows: PendingChange[], error: unknown) => {
    if (error instanceof LiveSendInterrupted) return;
    const ids = rows.map((row) => row.productId);
    await noteAttempt(shopDomain, ids, messageOf(error)).catch(() => undefined);
    if (await pauseForServiceRefusal(shopDomain, error)) return;
    failed(shopDomain);
    if (!(error instanceof IndexServiceError && error.retryable)) {
      log(`${shopDomain}: a batch of ${ids.length} changes failed; it is tried again`, error);
    }
  };

  const startBacklogResync = async (shopDomain: string, pending: number) => {
    if (await startLeasedShopSync(leases, shopDomain, "reconcile")) {
      log(`${shopDomain}: ${pending} products changed; a full export re-reads them at once`);
    }
  };

  /** Paused shops asked again, old workspaces emptied, old receipts forgotten. */
  const maintain = async () => {
    await pruneWebhookReceipts(now());
    for (const shop of await shopsPausedByService()) {
      launch(shop.shopDomain, async () => {
        const lease = await leases.hold(shop.shopDomain);
        if (!lease) return;
        try {
          const client = serviceClient(shop);
          const pacer = registry.pacerFor(shop.shopDomain, sendingTierOf(shop));
          if (await probePausedShop(shop, client, pacer)) {
            log(`${shop.shopDomain}: the search service answers again; the shop resumed`);
          }
        } finally {
          await lease.release();
        }
      });
    }
    const former = new Map<string, string[]>();
    for (const { shopDomain, workspaceId } of await formerWorkspaces()) {
      former.set(shopDomain, [...(former.get(shopDomain) ?? []), workspaceId]);
    }
    for (const [shopDomain, workspaceIds] of former) {
      launch(shopDomain, () => emptyFormerWorkspaces(shopDomain, workspaceIds));
    }
  };

  /**
   * After a move to another workspace (shop/update, or a new domain or workspace saved another
   * way): the shop is first indexed in the new one, then its items leave the old one.
   */
  const emptyFormerWorkspaces = async (shopDomain: string, workspaceIds: string[]) => {
    const shop = await findShop(shopDomain);
    const current = shop && workspaceOf(shop);
    if (!shop || !current || (await unfinishedRun(shopDomain))) return;
    const reindexed = await reindexedSince(shopDomain, current, workspaceIds);
    if (reindexed === "no") {
      await startLeasedShopSync(leases, shopDomain, DOMAIN_CHANGE_TRIGGER);
      return;
    }
    if (reindexed === "failed") return;
    const lease = await leases.hold(shopDomain);
    if (!lease) return;
    try {
      const client = serviceClient(shop);
      const pacer = registry.pacerFor(shopDomain, sendingTierOf(shop));
      for (const workspaceId of workspaceIds) {
        await removeWorkspaceItems({ shopDomain, workspaceId }, client, {
          send: (request) => pacer.send(request),
        });
      }
    } catch (error) {
      if (!(await pauseForServiceRefusal(shopDomain, error))) {
        log(`${shopDomain}: removing items from its former workspace failed`, error);
      }
    } finally {
      await lease.release();
    }
  };

  const tick = async () => {
    try {
      // Changes held for the quota are looked at with the maintenance, not every poll.
      const maintaining = Date.now() - lastMaintenance >= maintenanceEveryMs;
      if (maintaining) {
        lastMaintenance = Date.now();
        await maintain();
      }
      const cutoff = now().getTime() - coalesceMs;
      for (const backlog of await shopBacklogs()) {
        if (busy.has(backlog.shopDomain) || coolingDown(backlog.shopDomain)) continue;
        const due =
          backlog.sendable >= batchSize ||
          (backlog.oldestSendableAt !== null && backlog.oldestSendableAt.getTime() <= cutoff) ||
          (maintaining && backlog.held > 0);
        if (due) launch(backlog.shopDomain, () => serveShop(backlog.shopDomain));
      }
    } catch (error) {
      log("the outbox could not be read", error);
    } finally {
      if (!stopped) timer = setTimeout(() => void tick(), pollMs);
    }
  };
  timer = setTimeout(() => void tick(), 0);

  return {
    holder,
    async stop(timeoutMs = 10_000) {
      stopped = true;
      clearTimeout(timer);
      const all = Promise.allSettled([...busy.values()]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    },
  };
}
