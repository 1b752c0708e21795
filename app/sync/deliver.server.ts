import { Prisma, type SyncItem } from "@prisma/client";
import prisma from "../db.server";
import type { IndexServiceClient } from "../index-service/client";
import { QuotaExceededError } from "../index-service/errors";
import { sendInBatches } from "../index-service/bulk";
import type { Tier } from "../index-service/tiers";
import type { BulkResult, IndexPost, IndexProduct, ServiceResponse } from "../index-service/types";
import { BULK_DELETE_NOT_FOUND_CODE, BULK_MAX_ITEMS } from "../index-service/assumptions";
import type { ContentKind } from "./content-kinds";
import { recordDelivered, recordDeleted, type LedgerScope } from "./ledger.server";
import type { Pacer } from "./pacer";
import { markOverQuota, overQuotaReason } from "./plan-quota.server";
import { quotaStanding, recordQuotaSpent, recordReportedQuota } from "./quota-usage.server";

/** An item refused inside a batch is tried once more, then reported as failed. */
export const ATTEMPTS_PER_ITEM = 2;

export interface DeliveryContext {
  runId: string;
  scope: LedgerScope;
  tier: Tier;
  client: IndexServiceClient;
  pacer: Pacer;
  now: () => Date;
  /** Upserts, deletes, or both (upserts first). */
  actions?: readonly Action[];
  /** After each acknowledged batch. */
  onBatch?: () => Promise<void> | void;
}

type Action = "upsert" | "delete";

/** What delivery reads of a staged item. */
type PendingItem = Pick<SyncItem, "itemId" | "payload" | "contentHash" | "isNew" | "attempts">;

/**
 * Sends everything the run still owes the service, batch by batch (at most 100 items, a 413
 * halves the batch), through the shop's pacer. Only once the service acknowledged a batch is it
 * written to the ledger and then marked delivered, in that order and without a transaction
 * (docs/decisions/0001): a crash before the ledger write resends the batch, a crash between the two
 * writes resends it with the same content, a crash after never does.
 */
export async function deliverPending(context: DeliveryContext): Promise<void> {
  for (const kind of ["product", "post"] as const) {
    for (const action of context.actions ?? (["upsert", "delete"] as const)) {
      for (;;) {
        const rows = await prisma.$queryRaw<PendingItem[]>`
          SELECT "itemId", "payload", "contentHash", "isNew", "attempts" FROM "SyncItem"
          WHERE "runId" = ${context.runId} AND "kind" = ${kind} AND "action" = ${action} AND "status" = 'pending'
          ORDER BY "itemId" LIMIT ${BULK_MAX_ITEMS}`;
        if (rows.length === 0) break;
        await deliverBatch(context, kind, action, rows);
        await context.onBatch?.();
      }
    }
  }
}

async function deliverBatch(
  context: DeliveryContext,
  kind: ContentKind,
  action: Action,
  rows: PendingItem[],
): Promise<void> {
  const { client, pacer, scope } = context;
  let result: BulkResult;
  try {
    result = await sendInBatches(
      rows,
      async (batch) => {
        const response = await pacer.send(() => request(client, kind, action, batch));
        pacer.observeUsage(response.usage);
        if (action === "upsert" && response.usage) {
          await recordReportedQuota(scope.shopDomain, kind, context.now(), response.usage.quota);
        }
        return response.data;
      },
      { idOf: (row) => row.itemId },
    );
  } catch (error) {
    if (error instanceof QuotaExceededError && action === "upsert") {
      await holdBackOverQuota(context, kind, rows);
      return;
    }
    throw error;
  }
  await settle(context, kind, action, rows, result);
}

function request(
  client: IndexServiceClient,
  kind: ContentKind,
  action: Action,
  rows: PendingItem[],
): Promise<ServiceResponse<BulkResult>> {
  if (action === "delete") {
    const ids = rows.map((row) => row.itemId);
    return kind === "product" ? client.bulkDeleteProducts(ids) : client.bulkDeletePosts(ids);
  }
  const items = rows.map((row) => JSON.parse(row.payload ?? "null") as unknown);
  return kind === "product"
    ? client.bulkUpsertProducts(items as IndexProduct[])
    : client.bulkUpsertPosts(items as IndexPost[]);
}

/** Records what the service acknowledged, and what it refused (retried once, then reported). */
async function settle(
  context: DeliveryContext,
  kind: ContentKind,
  action: Action,
  rows: PendingItem[],
  result: BulkResult,
): Promise<void> {
  const acknowledged = new Set(result.successfulIds);
  // Deleting what the service does not hold leaves it as wanted: gone.
  if (action === "delete") {
    for (const failure of result.failedItems) {
      if (failure.error.startsWith(BULK_DELETE_NOT_FOUND_CODE)) acknowledged.add(failure.id);
    }
  }
  const refusals = new Map(result.failedItems.map((failure) => [failure.id, failure.error]));
  const delivered = rows.filter((row) => acknowledged.has(row.itemId));
  const refused = rows.filter((row) => !acknowledged.has(row.itemId));
  const sentAt = context.now();

  // The ledger first, then the items' status (see ledger.server.ts): a crash in between leaves
  // the batch pending, to be sent again with the same content.
  const deliveredIds = delivered.map((row) => row.itemId);
  if (action === "upsert") {
    const items = delivered.map((row) => ({
      itemId: row.itemId,
      contentHash: row.contentHash ?? "",
    }));
    await recordDelivered(context.scope, kind, items, context.runId, sentAt);
  } else {
    await recordDeleted(context.scope, kind, deliveredIds);
  }
  if (deliveredIds.length > 0) {
    await prisma.$executeRaw`
      UPDATE "SyncItem" SET "status" = 'sent', "payload" = NULL, "attempts" = "attempts" + 1, "error" = NULL
      WHERE "runId" = ${context.runId} AND "kind" = ${kind} AND "itemId" IN (${Prisma.join(deliveredIds)})`;
  }
  for (const row of refused) {
    const attempts = row.attempts + 1;
    const status = attempts >= ATTEMPTS_PER_ITEM ? "failed" : "pending";
    const error = refusals.get(row.itemId) ?? "The service did not acknowledge this item.";
    await prisma.$executeRaw`
      UPDATE "SyncItem" SET "attempts" = ${attempts}, "status" = ${status}, "error" = ${error}
      WHERE "runId" = ${context.runId} AND "kind" = ${kind} AND "itemId" = ${row.itemId}`;
  }
}

/** The service says the month's quota is spent: new items wait for next month, updates go on. */
async function holdBackOverQuota(
  context: DeliveryContext,
  kind: ContentKind,
  rows: PendingItem[],
): Promise<void> {
  const { scope, tier, runId } = context;
  const now = context.now();
  await recordQuotaSpent(scope.shopDomain, kind, tier, now);
  const standing = await quotaStanding(scope.shopDomain, tier, kind, now);
  const reason = overQuotaReason(kind, standing, now);
  const pendingNew = await prisma.syncItem.findMany({
    where: { runId, kind, action: "upsert", status: "pending", isNew: true },
    select: { itemId: true },
  });
  const held = pendingNew.map((row) => row.itemId);
  // A batch of updates only, refused all the same: those cannot go this month either.
  if (!rows.some((row) => row.isNew)) held.push(...rows.map((row) => row.itemId));
  await markOverQuota(runId, kind, held, reason);
}
