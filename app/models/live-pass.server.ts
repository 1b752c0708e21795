import prisma, { toDate } from "./db.server";
import type { LeaseFence } from "./shop-leases.server";

/** What the live worker checks right before each request to the service, read in one statement. */
export interface SendCheck {
  /** The lease is still this holding's, for at least the time asked. */
  leaseHeld: boolean;
  /** The shop's state; null when the shop is gone. */
  shopState: string | null;
  /** A run of the shop is unfinished, or one started at or after `since`. */
  runUnfinishedOrSince: boolean;
}

export async function sendCheck(
  fence: LeaseFence,
  minRemainingMs: number,
  since: Date,
  now: Date = new Date(),
): Promise<SendCheck> {
  const until = new Date(now.getTime() + minRemainingMs);
  const shopDomain = fence.shopDomain;
  const [row] = await prisma.$queryRaw<
    {
      lease: number | bigint;
      state: string | null;
      unfinished: number | bigint;
      lastStartedAt: unknown;
    }[]
  >`
    SELECT
      (SELECT COUNT(*) FROM "ShopLease"
        WHERE "shopDomain" = ${shopDomain} AND "token" = ${fence.token} AND "expiresAt" >= ${until}) AS "lease",
      (SELECT "state" FROM "Shop" WHERE "shopDomain" = ${shopDomain}) AS "state",
      (SELECT COUNT(*) FROM "SyncRun" WHERE "activeShop" = ${shopDomain}) AS "unfinished",
      (SELECT MAX("startedAt") FROM "SyncRun" WHERE "shopDomain" = ${shopDomain}) AS "lastStartedAt"`;
  const lastStartedAt = row?.lastStartedAt == null ? null : toDate(row.lastStartedAt);
  return {
    leaseHeld: Number(row?.lease ?? 0) > 0,
    shopState: row?.state ?? null,
    runUnfinishedOrSince:
      Number(row?.unfinished ?? 0) > 0 ||
      (lastStartedAt !== null && lastStartedAt.getTime() >= since.getTime()),
  };
}
