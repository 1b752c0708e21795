import { Prisma, type Shop } from "@prisma/client";
import { driverQuery, modelRowOf, toDate } from "./db.server";
import type { LeaseFence } from "./shop-leases.server";

/**
 * The live worker's reads at the start of a pass, in one statement through the driver: the shop's
 * row (null when there is none), whether a run is unfinished,
 * the newest complete run (succeeded, everything exported) with what it exported and when its
 * product export (the first completed one) was made, whether lookups wait, and the month's
 * product quota row (`quotaMonth`, YYYY-MM).
 */
export interface PassRuns {
  unfinished: boolean;
  lastComplete: { id: string; exportedTypes: string; productExportAt: Date | null } | null;
  /** A stock or collection change waits to be looked up (PendingLookup). */
  lookupsWaiting: boolean;
  /** The month's `QuotaUsage` of products (null values: no row yet), for `standingOf`. */
  productQuota: { month: string; used: number | null; limit: number | null };
}

export async function passStart(
  shopDomain: string,
  quotaMonth: string,
): Promise<{ shop: Shop | null; runs: PassRuns }> {
  const [row] = await driverQuery<{
    shopDomain: string | null;
    unfinished: number | bigint;
    lookups: number | bigint;
    runId: string | null;
    exportedTypes: string | null;
    productExportAt: unknown;
    quotaUsed: number | bigint | null;
    quotaLimit: number | bigint | null;
  }>(Prisma.sql`
    SELECT
      (SELECT COUNT(*) FROM "SyncRun" WHERE "activeShop" = ${shopDomain}) AS "unfinished",
      CASE WHEN EXISTS (SELECT 1 FROM "PendingLookup" WHERE "shopDomain" = ${shopDomain}) THEN 1 ELSE 0 END AS "lookups",
      r."id" AS "runId", r."exportedTypes" AS "exportedTypes",
      (SELECT MIN(e."createdAt") FROM "BulkExport" e
        WHERE e."runId" = r."id" AND e."type" = 'product' AND e."status" = 'COMPLETED') AS "productExportAt",
      q."used" AS "quotaUsed", q."limit" AS "quotaLimit", s.*
    FROM (SELECT 1 AS "one") AS o
    LEFT JOIN "Shop" AS s ON s."shopDomain" = ${shopDomain}
    LEFT JOIN (
      SELECT "id", "exportedTypes" FROM "SyncRun"
      WHERE "shopDomain" = ${shopDomain} AND "state" = 'succeeded' AND "exportComplete" = true
      ORDER BY "finishedAt" DESC LIMIT 1
    ) AS r ON 1 = 1
    LEFT JOIN (
      SELECT "used", "limit" FROM "QuotaUsage"
      WHERE "shopDomain" = ${shopDomain} AND "month" = ${quotaMonth} AND "kind" = 'product'
    ) AS q ON 1 = 1`);
  const numberOrNull = (value: number | bigint | null | undefined) =>
    value == null ? null : Number(value);
  const runs: PassRuns = {
    unfinished: Number(row?.unfinished ?? 0) > 0,
    lastComplete:
      !row || row.runId === null
        ? null
        : {
            id: row.runId,
            exportedTypes: row.exportedTypes ?? "",
            productExportAt: row.productExportAt == null ? null : toDate(row.productExportAt),
          },
    // Unknown (no row): looked for as before.
    lookupsWaiting: row ? Number(row.lookups) > 0 : true,
    productQuota: {
      month: quotaMonth,
      used: numberOrNull(row?.quotaUsed),
      limit: numberOrNull(row?.quotaLimit),
    },
  };
  return { shop: row?.shopDomain == null ? null : modelRowOf<Shop>("Shop", row), runs };
}

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
  const [row] = await driverQuery<{
    lease: number | bigint;
    state: string | null;
    unfinished: number | bigint;
    lastStartedAt: unknown;
  }>(Prisma.sql`
    SELECT
      (SELECT COUNT(*) FROM "ShopLease"
        WHERE "shopDomain" = ${shopDomain} AND "token" = ${fence.token} AND "expiresAt" >= ${until}) AS "lease",
      (SELECT "state" FROM "Shop" WHERE "shopDomain" = ${shopDomain}) AS "state",
      (SELECT COUNT(*) FROM "SyncRun" WHERE "activeShop" = ${shopDomain}) AS "unfinished",
      (SELECT MAX("startedAt") FROM "SyncRun" WHERE "shopDomain" = ${shopDomain}) AS "lastStartedAt"`);
  const lastStartedAt = row?.lastStartedAt == null ? null : toDate(row.lastStartedAt);
  return {
    leaseHeld: Number(row?.lease ?? 0) > 0,
    shopState: row?.state ?? null,
    runUnfinishedOrSince:
      Number(row?.unfinished ?? 0) > 0 ||
      (lastStartedAt !== null && lastStartedAt.getTime() >= since.getTime()),
  };
}
