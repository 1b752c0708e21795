import { Prisma, type PendingChange, type Session, type Shop } from "@prisma/client";
import { driverQuery, modelRowOf, toDate } from "./db.server";
import {
  BATCH_LEDGER_COLUMNS,
  batchLedgerOfRows,
  batchLedgerSql,
  ledgerScopeKey,
  SCOPES_PER_STATEMENT,
  type BatchLedger,
  type BatchLedgerRow,
  type LedgerScope,
} from "./ledger.server";
import { nextChangesSql, sendableCountSql, type ChangesRead } from "./outbox.server";
import { offlineSessionIdOf, sessionReadNow, type SessionRead } from "./session-reads.server";
import type { LeaseFence } from "./shop-leases.server";

/**
 * The live worker's reads at the start of a pass, in one statement through the driver: the shop's
 * row (null when there is none), whether a run is unfinished,
 * the newest complete run (succeeded, everything exported) with what it exported and when its
 * product export (the first completed one) was made, whether lookups wait, and the month's
 * product quota row (`quotaMonth`, YYYY-MM). And the shop's offline session, which the pass's
 * first request to Shopify would read next (withSessionRead), and when asked its next changes
 * (`dueChangesOf` says whether they stand for `nextChangesAndSendable`'s) with, when asked, what
 * the ledger holds of their products (batchLedger's read, in the scopes the caller expects).
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
  /**
   * Also read the shop's next changes: at most `limit`, none of the products in `except`; with
   * `ledger`, what the ledger holds of their products in those scopes (the documents: the first
   * scope's) and the stock model of them (batchLedger).
   */
  changes?: {
    limit: number;
    except: readonly string[];
    ledger?: { scopes: readonly [LedgerScope, ...LedgerScope[]] };
  },
): Promise<{
  shop: Shop | null;
  runs: PassRuns;
  offlineSession: SessionRead | null;
  /** The oldest changes, held for the quota or not (for `dueChangesOf`). */
  changes: ChangesRead | null;
  /** What the ledger held of the changes' products, when asked: for `ledgerReadWith`. */
  ledger: LedgerRead | null;
}> {
  // One statement's worth of scopes: more are left to batchLedger.
  const ledger =
    changes?.ledger && changes.ledger.scopes.length <= SCOPES_PER_STATEMENT
      ? changes.ledger
      : undefined;
  const nextChanges = changes
    ? nextChangesSql(shopDomain, { ...changes, includeHeld: true })
    : Prisma.empty;
  const rows = await driverQuery<{
    shopDomain: string | null;
    unfinished: number | bigint;
    lookups: number | bigint;
    runId: string | null;
    exportedTypes: string | null;
    productExportAt: unknown;
    quotaUsed: number | bigint | null;
    quotaLimit: number | bigint | null;
    sendableNow: number | bigint | null;
  }>(Prisma.sql`
    SELECT
      (SELECT COUNT(*) FROM "SyncRun" WHERE "activeShop" = ${shopDomain}) AS "unfinished",
      CASE WHEN EXISTS (SELECT 1 FROM "PendingLookup" WHERE "shopDomain" = ${shopDomain}) THEN 1 ELSE 0 END AS "lookups",
      r."id" AS "runId", r."exportedTypes" AS "exportedTypes",
      (SELECT MIN(e."createdAt") FROM "BulkExport" e
        WHERE e."runId" = r."id" AND e."type" = 'product' AND e."status" = 'COMPLETED') AS "productExportAt",
      q."used" AS "quotaUsed", q."limit" AS "quotaLimit", ${columnsOf("Session", "se")},
      ${changes ? Prisma.sql`${columnsOf("PendingChange", "c")}, ${sendableCountSql(shopDomain)} AS "sendableNow",` : Prisma.empty}
      ${ledger ? Prisma.sql`${columnsOf("BatchLedger", "x")},` : Prisma.empty}
      s.*
    FROM (SELECT 1 AS "one") AS o
    LEFT JOIN "Shop" AS s ON s."shopDomain" = ${shopDomain}
    LEFT JOIN "Session" AS se ON se."id" = ${offlineSessionIdOf(shopDomain)}
    LEFT JOIN (
      SELECT "id", "exportedTypes" FROM "SyncRun"
      WHERE "shopDomain" = ${shopDomain} AND "state" = 'succeeded' AND "exportComplete" = true
      ORDER BY "finishedAt" DESC LIMIT 1
    ) AS r ON 1 = 1
    LEFT JOIN (
      SELECT "used", "limit" FROM "QuotaUsage"
      WHERE "shopDomain" = ${shopDomain} AND "month" = ${quotaMonth} AND "kind" = 'product'
    ) AS q ON 1 = 1
    ${
      changes && ledger
        ? // A row for each change, then one for each ledger or model row: not their product.
          Prisma.sql`LEFT JOIN (SELECT 'c' AS "part" UNION ALL SELECT 'x') AS p ON 1 = 1
    LEFT JOIN (${nextChanges}) AS c ON p."part" = 'c'
    LEFT JOIN (
      ${batchLedgerSql(ledger.scopes[0], ledger.scopes, "product", Prisma.sql`SELECT n."productId" FROM (${nextChanges}) AS n`, shopDomain)}
    ) AS x ON p."part" = 'x'
    ORDER BY p."part", c."receivedAt", c."productId"`
        : changes
          ? Prisma.sql`LEFT JOIN (${nextChanges}) AS c ON 1 = 1
    ORDER BY c."receivedAt", c."productId"`
          : Prisma.empty
    }`);
  const [row] = rows;
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
  const session = row ? prefixed("se", row) : {};
  return {
    shop: row?.shopDomain == null ? null : modelRowOf<Shop>("Shop", row),
    runs,
    offlineSession:
      session.id == null ? null : sessionReadNow(modelRowOf<Session>("Session", session)),
    changes: changes
      ? {
          rows: rows
            .map((one) => prefixed("c", one))
            .filter((change) => change.productId != null)
            .map((change) => modelRowOf<PendingChange>("PendingChange", change)),
          sendable: Number(row?.sendableNow ?? 0),
          limit: changes.limit,
        }
      : null,
    ledger: ledger
      ? {
          scopes: ledger.scopes,
          ledger: batchLedgerOfRows(
            rows
              .map((one) => prefixed("x", one))
              .filter((part) => part.part != null) as unknown as BatchLedgerRow[],
          ),
        }
      : null,
  };
}

/** What a pass's first read found in the ledger: batchLedger's answer for its scopes. */
export interface LedgerRead {
  scopes: readonly LedgerScope[];
  ledger: BatchLedger;
}

/**
 * The ledger of a batch as `passStart` read it, when that read stands for batchLedger's: it read
 * these rows' products (the batch is of the changes it read) in every scope the batch is sent to,
 * the first one first (its documents). Otherwise undefined: read it then.
 */
export function ledgerReadWith(
  read: LedgerRead | null | undefined,
  scopes: readonly LedgerScope[],
): BatchLedger | undefined {
  if (!read) return undefined;
  const known = new Set(read.scopes.map(ledgerScopeKey));
  const [first] = read.scopes;
  if (!first || !scopes[0] || ledgerScopeKey(first) !== ledgerScopeKey(scopes[0])) return undefined;
  return scopes.every((scope) => known.has(ledgerScopeKey(scope))) ? read.ledger : undefined;
}

/** A model's columns of the table named `alias` in a statement, each named `alias.column`. */
function columnsOf(model: "Session" | "PendingChange" | "BatchLedger", alias: string): Prisma.Sql {
  const fields: readonly string[] =
    model === "Session"
      ? Object.values(Prisma.SessionScalarFieldEnum)
      : model === "PendingChange"
        ? Object.values(Prisma.PendingChangeScalarFieldEnum)
        : BATCH_LEDGER_COLUMNS;
  return Prisma.raw(fields.map((name) => `${alias}."${name}" AS "${alias}.${name}"`).join(", "));
}

/** The columns `columnsOf` named after `alias`, by their own names. */
function prefixed(alias: string, row: Record<string, unknown>): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(`${alias}.`)) found[name.slice(alias.length + 1)] = value;
  }
  return found;
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

/**
 * The send check as one condition of SQL, true when `sendCheck` would find the lease held, the
 * shop active and no run unfinished or started since: the statement that takes the request's
 * place in the key's window (takeKeyPlace) tests it, so that a lone sender's check and place are
 * one statement. When it does not hold, `sendCheck` is read to say why.
 */
export function sendCondition(
  fence: LeaseFence,
  minRemainingMs: number,
  since: Date,
  now: Date = new Date(),
): Prisma.Sql {
  const until = new Date(now.getTime() + minRemainingMs);
  const shopDomain = fence.shopDomain;
  return Prisma.sql`EXISTS (SELECT 1 FROM "ShopLease"
      WHERE "shopDomain" = ${shopDomain} AND "token" = ${fence.token} AND "expiresAt" >= ${until})
    AND EXISTS (SELECT 1 FROM "Shop" WHERE "shopDomain" = ${shopDomain} AND "state" = 'active')
    AND NOT EXISTS (SELECT 1 FROM "SyncRun" WHERE "activeShop" = ${shopDomain})
    AND NOT EXISTS (SELECT 1 FROM "SyncRun"
      WHERE "shopDomain" = ${shopDomain} AND "startedAt" >= ${since})`;
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
