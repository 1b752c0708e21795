import type { HeldLease, ShopLeases } from "../engine/process-leases.server";

/**
 * The shops' leases the live worker keeps for a moment after a pass (decision 0051): a shop whose
 * changes come one at a time is served every few seconds, and taking its lease and giving it back
 * around each pass were two of a pass's statements. A kept lease is the same holding (its fencing
 * token, its renewal timer, `confirm` before each request), only not given back yet: the next
 * pass within `keepMs` uses it again; after `keepMs` without one it is given back. A process that
 * dies keeps nobody out longer than today (the lease runs out `leaseMs` after its last renewal).
 */
export class KeptLeases {
  readonly #kept = new Map<string, { lease: HeldLease; timer: NodeJS.Timeout }>();

  constructor(
    private readonly leases: ShopLeases,
    /** How long a lease is kept after a pass (0: given back at once). */
    private readonly keepMs: number,
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** The kept lease of the shop when it is still this process's, else a new hold (null: another holds it). */
  async take(shopDomain: string): Promise<HeldLease | null> {
    const kept = this.#kept.get(shopDomain);
    if (kept) {
      this.#kept.delete(shopDomain);
      clearTimeout(kept.timer);
      if (!kept.lease.lost()) return kept.lease;
      await kept.lease.release();
    }
    return this.leases.hold(shopDomain);
  }

  /** After a pass: kept for `keepMs`, or given back now (lost, nothing to keep it for, stopping). */
  async putBack(shopDomain: string, lease: HeldLease, keep: boolean): Promise<void> {
    if (!keep || this.keepMs <= 0 || lease.lost() || this.stopped()) {
      await lease.release();
      return;
    }
    const timer = setTimeout(() => {
      if (this.#kept.get(shopDomain)?.lease !== lease) return;
      this.#kept.delete(shopDomain);
      lease.release().catch(() => undefined);
    }, this.keepMs);
    timer.unref();
    this.#kept.set(shopDomain, { lease, timer });
  }

  /** Gives every kept lease back now (the worker stops). */
  async releaseAll(): Promise<void> {
    const kept = [...this.#kept.values()];
    this.#kept.clear();
    await Promise.all(
      kept.map(async ({ lease, timer }) => {
        clearTimeout(timer);
        await lease.release().catch(() => undefined);
      }),
    );
  }
}
