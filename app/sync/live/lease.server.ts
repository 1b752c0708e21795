import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import prisma from "../../db.server";

/** How long a lease lasts without renewal: a holder that died frees the shop after this. */
export const DEFAULT_LEASE_MS = 60_000;

/** A name for this process as a lease holder, unique across hosts and restarts. */
export function processHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Takes (or renews) the shop's lease for `holder` when it is free, expired or already held by
 * `holder`; atomic, so two workers never both hold it.
 */
export async function acquireShopLease(
  shopDomain: string,
  holder: string,
  leaseMs: number = DEFAULT_LEASE_MS,
  now: Date = new Date(),
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + leaseMs);
  // One statement: taken when absent, renewed when mine, taken over when expired.
  const changed = await prisma.$executeRaw`
    INSERT INTO "ShopLease" ("shopDomain", "holder", "expiresAt") VALUES (${shopDomain}, ${holder}, ${expiresAt})
    ON CONFLICT ("shopDomain") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt"
    WHERE "ShopLease"."holder" = excluded."holder" OR "ShopLease"."expiresAt" < ${now}`;
  return changed > 0;
}

export async function releaseShopLease(shopDomain: string, holder: string): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM "ShopLease" WHERE "shopDomain" = ${shopDomain} AND "holder" = ${holder}`;
}

/**
 * Who holds the shop's lease now, if anyone (the lease tests ask it).
 * @public
 */
export async function leaseHolder(shopDomain: string, now: Date = new Date()) {
  const [lease] = await prisma.$queryRaw<{ holder: string }[]>`
    SELECT "holder" FROM "ShopLease" WHERE "shopDomain" = ${shopDomain} AND "expiresAt" >= ${now}`;
  return lease?.holder ?? null;
}

/**
 * The leases one process holds, counted per shop: the first user takes the lease, a timer renews
 * it while anyone uses it, the last one gives it back. The live worker and a resumed full sync of
 * the same process can share a shop's lease this way.
 */
export class ShopLeases {
  readonly #held = new Map<string, { users: number; timer: NodeJS.Timeout; lost: boolean }>();

  constructor(
    readonly holder: string,
    private readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {}

  /** The lease of a shop for as long as `release` is not called, or null when another holds it. */
  async hold(
    shopDomain: string,
  ): Promise<{ release: () => Promise<void>; lost: () => boolean } | null> {
    let entry = this.#held.get(shopDomain);
    if (!entry) {
      if (!(await acquireShopLease(shopDomain, this.holder, this.leaseMs))) return null;
      // Another caller may have taken it while we waited for the database.
      entry = this.#held.get(shopDomain);
      if (!entry) {
        const created = { users: 0, lost: false, timer: undefined as unknown as NodeJS.Timeout };
        created.timer = setInterval(
          () => {
            acquireShopLease(shopDomain, this.holder, this.leaseMs)
              .then((renewed) => {
                if (!renewed) created.lost = true;
              })
              .catch(() => undefined);
          },
          Math.max(50, Math.floor(this.leaseMs / 3)),
        );
        created.timer.unref();
        this.#held.set(shopDomain, created);
        entry = created;
      }
    }
    const current = entry;
    current.users += 1;
    let released = false;
    return {
      lost: () => current.lost,
      release: async () => {
        if (released) return;
        released = true;
        current.users -= 1;
        if (current.users > 0) return;
        clearInterval(current.timer);
        this.#held.delete(shopDomain);
        await releaseShopLease(shopDomain, this.holder).catch(() => undefined);
      },
    };
  }
}

let leasesOfThisProcess: ShopLeases | undefined;

/**
 * The leases this process holds (one holder name per process): the live worker, the full syncs
 * the process carries and the resumer share it, so they count each other's use of a shop.
 */
export function processLeases(leaseMs: number = DEFAULT_LEASE_MS): ShopLeases {
  leasesOfThisProcess ??= new ShopLeases(processHolderId(), leaseMs);
  return leasesOfThisProcess;
}
