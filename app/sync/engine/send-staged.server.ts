import { Prisma, type SyncItem } from "@prisma/client";
import prisma from "../../db.server";
import { BULK_MAX_ITEMS } from "../../index-service/assumptions";
import type { IndexServiceClient } from "../../index-service/client";
import type { Tier } from "../../index-service/tiers";
import type { ContentKind, LedgerScope } from "../../models/ledger.server";
import type { Pacer } from "./pacer";
import { markOverQuota } from "./plan-quota.server";
import { sendAndSettle, type SendAction } from "./send-and-settle.server";

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
  actions?: readonly SendAction[];
  /** After each acknowledged batch. */
  onBatch?: () => Promise<void> | void;
  /** Right before each request to the service; throws to stop sending. */
  guard?: () => Promise<void>;
}

/** What delivery reads of a staged item. */
type PendingItem = Pick<
  SyncItem,
  "itemId" | "payload" | "contentHash" | "isNew" | "attempts" | "collectionIds"
>;

/**
 * Sends everything the run still owes the service, batch by batch, through the one send-and-settle
 * path (send-and-settle.server.ts): the ledger is written first, then the staged items are marked
 * sent, in that order and without a transaction (docs/decisions/0001): a crash before the ledger
 * write resends the batch, a crash between the two writes resends it with the same content, a
 * crash after never does.
 */
export async function deliverPending(context: DeliveryContext): Promise<void> {
  for (const kind of ["product", "post"] as const) {
    for (const action of context.actions ?? (["upsert", "delete"] as const)) {
      for (;;) {
        const rows = await prisma.$queryRaw<PendingItem[]>`
          SELECT "itemId", "payload", "contentHash", "isNew", "attempts", "collectionIds" FROM "SyncItem"
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
  action: SendAction,
  rows: PendingItem[],
): Promise<void> {
  const { runId } = context;
  const { acknowledged, refused } = await sendAndSettle({
    ...context,
    kind,
    action,
    items: rows,
    idOf: (row) => row.itemId,
    payloadOf: (row) => JSON.parse(row.payload ?? "null") as unknown,
    hashOf: (row) => row.contentHash ?? "",
    collectionIdsOf: (row) => row.collectionIds,
    isNew: (row) => row.isNew,
    seenMark: runId,
    holdBack: (batch, reason) => holdBackOverQuota(context, kind, batch, reason),
  });
  const deliveredIds = acknowledged.map((row) => row.itemId);
  if (deliveredIds.length > 0) {
    await prisma.$executeRaw`
      UPDATE "SyncItem" SET "status" = 'sent', "payload" = NULL, "attempts" = "attempts" + 1, "error" = NULL
      WHERE "runId" = ${runId} AND "kind" = ${kind} AND "itemId" IN (${Prisma.join(deliveredIds)})`;
  }
  for (const { item: row, error } of refused) {
    const attempts = row.attempts + 1;
    const status = attempts >= ATTEMPTS_PER_ITEM ? "failed" : "pending";
    const reason = error ?? "The service did not acknowledge this item.";
    await prisma.$executeRaw`
      UPDATE "SyncItem" SET "attempts" = ${attempts}, "status" = ${status}, "error" = ${reason}
      WHERE "runId" = ${runId} AND "kind" = ${kind} AND "itemId" = ${row.itemId}`;
  }
}

/**
 * The month's quota is spent: every new item of the run waits for next month (marked over quota
 * with the reason); updates go on with the next batch. Sends nothing more now.
 */
async function holdBackOverQuota(
  context: DeliveryContext,
  kind: ContentKind,
  rows: readonly PendingItem[],
  reason: string,
): Promise<PendingItem[]> {
  const { runId } = context;
  const pendingNew = await prisma.syncItem.findMany({
    where: { runId, kind, action: "upsert", status: "pending", isNew: true },
    select: { itemId: true },
  });
  const held = pendingNew.map((row) => row.itemId);
  // A batch of updates only, refused all the same: those cannot go this month either.
  if (!rows.some((row) => row.isNew)) held.push(...rows.map((row) => row.itemId));
  await markOverQuota(runId, kind, held, reason);
  return [];
}
