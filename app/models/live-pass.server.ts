import prisma, { toDate } from "./db.server";
import type { LeaseFence } from "./shop-leases.server";

/**
 * The live worker's reads of a shop's runs at the start of a pass, in one statement: whether a
 * run is unfinished, and the newest complete run (succeeded, everything exported) with what it
 * exported and when its product export (the first completed one) was made.
 */
export interface PassRuns {
  unfinished: boolean;
  lastComplete: { id: string; exportedTypes: string; productExportAt: Date | null } | null;
}

export async function passRuns(shopDomain: string): Promise<PassRuns> {
  const [row] = await prisma.$queryRaw<
    {
      unfinished: number | bigint;
      runId: string | null;
      exportedTypes: string | null;
      productExportAt: unknown;
    }[]
  >`
    SELECT
      (SELECT COUNT(*) FROM "SyncRun" WHERE "activeShop" = ${shopDomain}) AS "unfinished",
      r."id" AS "runId", r."exportedTypes" AS "exportedTypes",
      (SELECT MIN(e."createdAt") FROM "BulkExport" e
        WHERE e."runId" = r."id" AND e."type" = 'product' AND e."status" = 'COMPLETED') AS "productExportAt"
    FROM (SELECT 1 AS "one") AS o
    LEFT JOIN (
      SELECT "id", "exportedTypes" FROM "SyncRun"
      WHERE "shopDomain" = ${shopDomain} AND "state" = 'succeeded' AND "exportComplete" = true
      ORDER BY "finishedAt" DESC LIMIT 1
    ) AS r ON 1 = 1`;
  if (!row) return { unfinished: false, lastComplete: null };
  return {
    unfinished: Number(row.unfinished) > 0,
    lastComplete:
      row.runId === null
        ? null
        : {
            id: row.runId,
            exportedTypes: row.exportedTypes ?? "",
            productExportAt: row.productExportAt == null ? null : toDate(row.productExportAt),
          },
  };
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
