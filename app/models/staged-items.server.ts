import { Prisma, type SyncItem } from "@prisma/client";
import prisma, { driverBoolean, driverExecute, driverQuery } from "./db.server";
import type { ContentKind } from "./ledger.server";
import { statementRows } from "./statement-size";

// SyncItem: a full sync's staged items, its checkpoint (what it still owes the service, what it
// sent, what waits for the quota). The per-batch statements are raw SQL, one statement each and no
// transaction (docs/decisions/0001-raw-sql-without-transactions.md), sent to the driver without
// Prisma's engine (decision 0052): they carry the documents.

/** Ids per UPDATE statement, well under SQLite's and PostgreSQL's limits on bound values. */
const UPDATE_CHUNK = 500;

export type StagedAction = "upsert" | "delete";

/** An item a run stages: to be sent (upsert), or to be deleted from the index. */
export type StagedItem =
  | {
      action: "upsert";
      itemId: string;
      /** The document to send (JSON). */
      payload: string;
      contentHash: string;
      isNew: boolean;
      stockStatus: string | null;
      sourceUpdatedAt: Date | null;
      collectionIds: string | null;
    }
  | {
      action: "delete";
      itemId: string;
      /** The ledger's title of the item (the dashboard lists what a sweep removed). */
      title: string | null;
    };

/**
 * Stages items of a run (a staged item of the same id is replaced, and is pending again). No
 * transaction (docs/decisions/0001): a run stopped inside its export phase restages from the start,
 * so a half-written batch is never read. In statements cut by their documents' size
 * (statement-size.ts): Prisma keeps its last statements' values, whatever debugging is set to.
 */
export async function stageItems(
  runId: string,
  kind: ContentKind,
  items: readonly StagedItem[],
): Promise<void> {
  const size = (item: StagedItem) => (item.action === "upsert" ? item.payload.length : 0);
  for (const rows of statementRows(items, size)) {
    const staged = rows.map((item) =>
      item.action === "upsert"
        ? Prisma.sql`(${runId}, ${kind}, ${item.itemId}, 'upsert', ${item.payload}, ${item.contentHash}, ${item.isNew}, ${item.stockStatus}, ${item.sourceUpdatedAt}, ${item.collectionIds}, NULL)`
        : Prisma.sql`(${runId}, ${kind}, ${item.itemId}, 'delete', NULL, NULL, false, NULL, NULL, NULL, ${item.title})`,
    );
    await driverExecute(Prisma.sql`
      INSERT INTO "SyncItem" ("runId", "kind", "itemId", "action", "payload", "contentHash", "isNew", "stockStatus", "sourceUpdatedAt", "collectionIds", "title")
      VALUES ${Prisma.join(staged)}
      ON CONFLICT ("runId", "kind", "itemId") DO UPDATE SET
        "action" = excluded."action", "payload" = excluded."payload", "contentHash" = excluded."contentHash",
        "isNew" = excluded."isNew", "stockStatus" = excluded."stockStatus",
        "sourceUpdatedAt" = excluded."sourceUpdatedAt", "collectionIds" = excluded."collectionIds", "title" = excluded."title", "status" = 'pending', "attempts" = 0, "error" = NULL`);
  }
}

/**
 * Stages the deletion of items the index holds that a complete export no longer has, in one
 * statement; an item the run staged already (a draft, say) is left as staged.
 */
export async function stageDeletions(
  runId: string,
  kind: ContentKind,
  items: readonly { itemId: string; title: string | null }[],
): Promise<void> {
  const rows = items.map(
    (item) => Prisma.sql`(${runId}, ${kind}, ${item.itemId}, 'delete', ${item.title})`,
  );
  await prisma.$executeRaw`
      INSERT INTO "SyncItem" ("runId", "kind", "itemId", "action", "title") VALUES ${Prisma.join(rows)}
      ON CONFLICT ("runId", "kind", "itemId") DO NOTHING`;
}

/** Drops everything a run staged (its export phase starts again from the start). */
export async function dropStagedItems(runId: string): Promise<void> {
  await prisma.syncItem.deleteMany({ where: { runId } });
}

/** How many items a run staged (of one action, when given). */
export function stagedCount(runId: string, action?: StagedAction): Promise<number> {
  return prisma.syncItem.count({ where: action ? { runId, action } : { runId } });
}

/** How many staged items of an action a run still owes the service (for its progress). */
export async function owedCount(runId: string, action: StagedAction): Promise<number> {
  const [{ owed }] = await prisma.$queryRaw<[{ owed: number }]>`
          SELECT COUNT(*) AS "owed" FROM "SyncItem" WHERE "runId" = ${runId} AND "action" = ${action} AND "status" = 'pending'`;
  return Number(owed);
}

/** How many staged items of an action a run still owes (the dashboard's progress bar). */
export function pendingCount(runId: string, action: StagedAction): Promise<number> {
  return prisma.syncItem.count({ where: { runId, action, status: "pending" } });
}

/** What delivery reads of a staged item. */
export type PendingStagedItem = Pick<
  SyncItem,
  "itemId" | "payload" | "contentHash" | "isNew" | "attempts" | "collectionIds"
>;

/** The next pending items of a run, kind and action, in id order: one batch to send. */
export async function nextPendingItems(
  runId: string,
  kind: ContentKind,
  action: StagedAction,
  limit: number,
): Promise<PendingStagedItem[]> {
  const rows = await driverQuery<Omit<PendingStagedItem, "isNew"> & { isNew: unknown }>(Prisma.sql`
          SELECT "itemId", "payload", "contentHash", "isNew", "attempts", "collectionIds" FROM "SyncItem"
          WHERE "runId" = ${runId} AND "kind" = ${kind} AND "action" = ${action} AND "status" = 'pending'
          ORDER BY "itemId" LIMIT ${limit}`);
  return rows.map((row) => ({
    ...row,
    isNew: driverBoolean(row.isNew),
    attempts: Number(row.attempts),
  }));
}

/** Marks items the service acknowledged as sent (their payload is no longer kept). */
export async function markItemsSent(
  runId: string,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<void> {
  await driverExecute(Prisma.sql`
      UPDATE "SyncItem" SET "status" = 'sent', "payload" = NULL, "attempts" = "attempts" + 1, "error" = NULL
      WHERE "runId" = ${runId} AND "kind" = ${kind} AND "itemId" IN (${Prisma.join(itemIds)})`);
}

/** Notes a refused attempt on an item: pending again, or failed, with the reason. */
export async function noteItemRefused(
  runId: string,
  kind: ContentKind,
  itemId: string,
  outcome: { attempts: number; status: "pending" | "failed"; error: string },
): Promise<void> {
  await prisma.$executeRaw`
      UPDATE "SyncItem" SET "attempts" = ${outcome.attempts}, "status" = ${outcome.status}, "error" = ${outcome.error}
      WHERE "runId" = ${runId} AND "kind" = ${kind} AND "itemId" = ${itemId}`;
}

/** The ids of the run's pending items of a kind that are new to the index. */
export async function pendingNewItemIds(runId: string, kind: ContentKind): Promise<string[]> {
  const pendingNew = await prisma.syncItem.findMany({
    where: { runId, kind, action: "upsert", status: "pending", isNew: true },
    select: { itemId: true },
  });
  return pendingNew.map((row) => row.itemId);
}

/**
 * The order in which new items earn a place within the quota, most deserving first. Products:
 * the same order as the catalogue's compareProductPriority (buyable first: in stock, then on
 * backorder, then out of stock; then most recently updated; then by numeric id), as SQL; a test
 * holds the two to the same result. Posts: most recently updated first.
 */
const PRODUCT_PRIORITY_ORDER = Prisma.sql`
  CASE "stockStatus" WHEN 'instock' THEN 0 WHEN 'onbackorder' THEN 1 ELSE 2 END,
  "sourceUpdatedAt" DESC, length("itemId"), "itemId"`;
const POST_PRIORITY_ORDER = Prisma.sql`"sourceUpdatedAt" DESC, "itemId"`;

const pendingNew = (runId: string, kind: ContentKind) =>
  Prisma.sql`"runId" = ${runId} AND "kind" = ${kind} AND "action" = 'upsert' AND "status" = 'pending' AND "isNew" = true`;

/** How many pending items of a kind the run has that are new to the index. */
export async function pendingNewCount(runId: string, kind: ContentKind): Promise<number> {
  const where = pendingNew(runId, kind);
  const [{ count }] = await prisma.$queryRaw<
    [{ count: number }]
  >`SELECT COUNT(*) AS "count" FROM "SyncItem" WHERE ${where}`;
  return Number(count);
}

/**
 * Marks the run's pending new items of a kind over quota, with the reason, all but the `keep`
 * most deserving (PRODUCT_PRIORITY_ORDER, POST_PRIORITY_ORDER): ranked in the database, so a
 * catalogue of any size plans in constant memory.
 */
export async function markOverQuotaBeyond(
  runId: string,
  kind: ContentKind,
  keep: number,
  reason: string,
): Promise<void> {
  const where = pendingNew(runId, kind);
  await prisma.$executeRaw`
        UPDATE "SyncItem" SET "status" = 'over_quota', "error" = ${reason}
        WHERE ${where} AND "itemId" NOT IN (
          SELECT "itemId" FROM "SyncItem" WHERE ${where}
          ORDER BY ${kind === "product" ? PRODUCT_PRIORITY_ORDER : POST_PRIORITY_ORDER}
          LIMIT ${keep})`;
}

/** Marks these items of the run over quota, with the reason. */
export async function markOverQuota(
  runId: string,
  kind: ContentKind,
  itemIds: string[],
  reason: string,
): Promise<void> {
  for (let start = 0; start < itemIds.length; start += UPDATE_CHUNK) {
    const chunk = itemIds.slice(start, start + UPDATE_CHUNK);
    await prisma.$executeRaw`
      UPDATE "SyncItem" SET "status" = 'over_quota', "error" = ${reason}
      WHERE "runId" = ${runId} AND "kind" = ${kind} AND "itemId" IN (${Prisma.join(chunk)})`;
  }
}
