/**
 * The leases this process holds of shops: taken on first use, renewed by a timer while in use,
 * given back by the last user. The ShopLease rows, their fencing tokens and fenced writes are
 * models/shop-leases.server.ts.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import {
  DEFAULT_LEASE_MS,
  LeaseLostError,
  leaseStillHeld,
  releaseShopLease,
  renewShopLease,
  takeShopLease,
  type LeaseFence,
} from "../../models/shop-leases.server";
import { appMetrics } from "../../server/metrics";

/** A name for this process as a lease holder, unique across hosts and restarts. */
export function processHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * The leases one process holds, counted per shop: the first user takes the lease, a timer renews
 * it while anyone uses it, the last one gives it back. The live worker and a resumed full sync of
 * the same process can share a shop's lease this way.
 */
export class ShopLeases {
  readonly #held = new Map<
    string,
    { users: number; timer: NodeJS.Timeout; lost: boolean; takenOver: boolean; fence: LeaseFence }
  >();

  constructor(
    readonly holder: string,
    private readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {}

  /**
   * The lease of a shop for as long as `release` is not called, or null when another holds it.
   * `fence` goes with every write that matters; `confirm()` before each request to the service
   * makes sure the lease is still this process's for a third of its time at least (longer than
   * a request may take), so that no request leaves after another process could take over.
   */
  async hold(shopDomain: string): Promise<HeldLease | null> {
    let entry = this.#held.get(shopDomain);
    if (!entry || entry.lost) {
      const token = await takeShopLease(shopDomain, this.holder, this.leaseMs);
      if (token === null) return null;
      // Another caller may have taken it while we waited for the database.
      entry = this.#held.get(shopDomain);
      if (entry && entry.fence.token === token) {
        entry.lost = false; // still ours: nobody took it over (a late renewal, a slow confirm)
      } else {
        // A new holding: the users of a lost one keep their old fence, and their writes fail.
        if (entry) {
          clearInterval(entry.timer);
          appMetrics().leasesHeld.dec();
        }
        const created = {
          users: 0,
          lost: false,
          takenOver: false,
          fence: { shopDomain, token },
          timer: undefined as unknown as NodeJS.Timeout,
        };
        created.timer = setInterval(
          () => {
            renewShopLease(created.fence, this.leaseMs)
              .then((renewed) => {
                if (renewed) return;
                // Another process holds the shop's token now: counted once per holding (a
                // failed confirm alone may only mean the lease ran short).
                if (!created.takenOver) appMetrics().leasesLost.inc();
                created.takenOver = true;
                created.lost = true;
              })
              .catch(() => undefined);
          },
          Math.max(50, Math.floor(this.leaseMs / 3)),
        );
        created.timer.unref();
        this.#held.set(shopDomain, created);
        appMetrics().leasesHeld.inc();
        entry = created;
      }
    }
    const current = entry;
    current.users += 1;
    let released = false;
    const minRemainingMs = Math.floor(this.leaseMs / 3);
    return {
      fence: current.fence,
      lost: () => current.lost,
      minRemainingMs,
      confirm: async (stillHeld = leaseStillHeld) => {
        if (current.lost || !(await stillHeld(current.fence, minRemainingMs))) {
          current.lost = true;
          throw new LeaseLostError(shopDomain);
        }
      },
      release: async () => {
        if (released) return;
        released = true;
        current.users -= 1;
        if (current.users > 0 || this.#held.get(shopDomain) !== current) return;
        clearInterval(current.timer);
        this.#held.delete(shopDomain);
        appMetrics().leasesHeld.dec();
        await releaseShopLease(current.fence).catch(() => undefined);
      },
    };
  }

  /**
   * Gives every lease back at once (clean shutdown): the shops are free for another process now
   * instead of when the leases run out. The holdings count as lost, so their users stop, and a
   * write they still attempt is refused by its fence.
   */
  async releaseAll(): Promise<void> {
    const holdings = [...this.#held.values()];
    this.#held.clear();
    await Promise.all(
      holdings.map(async (holding) => {
        clearInterval(holding.timer);
        holding.lost = true;
        await releaseShopLease(holding.fence).catch(() => undefined);
      }),
    );
  }
}

export interface HeldLease {
  fence: LeaseFence;
  /** The renewal found the lease taken over (or `confirm` did). */
  lost: () => boolean;
  /** How long the lease must still run for a request to leave (`confirm`'s "for a while yet"). */
  minRemainingMs: number;
  /**
   * Throws LeaseLostError unless the lease is still this holding's, for a while yet.
   * `stillHeld`: how to ask the database (default `leaseStillHeld`); a caller that reads more in
   * the same statement passes its own.
   */
  confirm: (
    stillHeld?: (fence: LeaseFence, minRemainingMs: number) => Promise<boolean>,
  ) => Promise<void>;
  release: () => Promise<void>;
}

let leasesOfThisProcess: ShopLeases | undefined;

/** Gives back every lease this process holds, if it took any (clean shutdown). */
export async function releaseProcessLeases(): Promise<void> {
  await leasesOfThisProcess?.releaseAll();
}

/**
 * The leases this process holds (one holder name per process): the live worker, the full syncs
 * the process carries and the resumer share it, so they count each other's use of a shop.
 */
export function processLeases(leaseMs: number = DEFAULT_LEASE_MS): ShopLeases {
  leasesOfThisProcess ??= new ShopLeases(processHolderId(), leaseMs);
  return leasesOfThisProcess;
}
