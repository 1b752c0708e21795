import { BULK_MAX_ITEMS } from "../../index-service/assumptions";
import type { IndexServiceClient } from "../../index-service/client";
import type { Tier } from "../../index-service/tiers";
import type { ContentKind, LedgerScope } from "../../models/ledger.server";
import {
  markItemsSent,
  markOverQuota,
  nextPendingItems,
  noteItemRefused,
  pendingNewItemIds,
  type PendingStagedItem,
} from "../../models/staged-items.server";
import type { Pacer } from "./pacer";
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
  /** Whose month's quota the writes spend, when not the scope's own (SettleJob). */
  quotaShopDomain?: string;
  /** The quota reports the run recorded already (SettleJob). */
  quotaReports?: Map<string, string>;
}

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
        const rows = await nextPendingItems(context.runId, kind, action, BULK_MAX_ITEMS);
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
  rows: PendingStagedItem[],
): Promise<void> {
  const { runId } = context;
  // Each staged document is parsed once (it is sent, and named in the ledger by its title); the
  // ledger keeps the staged text itself, copied by the database: JSON.stringify of the parsed
  // document would give the same text, after one more pass of it through Prisma's values.
  const parsed = new Map(rows.map((row) => [row, JSON.parse(row.payload ?? "null") as unknown]));
  const { acknowledged, refused } = await sendAndSettle({
    ...context,
    kind,
    action,
    items: rows,
    idOf: (row) => row.itemId,
    payloadOf: (row) => parsed.get(row),
    contentOf: () => ({ stagedBy: runId }),
    hashOf: (row) => row.contentHash ?? "",
    collectionIdsOf: (row) => row.collectionIds,
    isNew: (row) => row.isNew,
    seenMark: runId,
    holdBack: (batch, reason) => holdBackOverQuota(context, kind, batch, reason),
  });
  const deliveredIds = acknowledged.map((row) => row.itemId);
  if (deliveredIds.length > 0) {
    await markItemsSent(runId, kind, deliveredIds);
  }
  for (const { item: row, error } of refused) {
    const attempts = row.attempts + 1;
    const status = attempts >= ATTEMPTS_PER_ITEM ? "failed" : "pending";
    const reason = error ?? "The service did not acknowledge this item.";
    await noteItemRefused(runId, kind, row.itemId, { attempts, status, error: reason });
  }
}

/**
 * The month's quota is spent: every new item of the run waits for next month (marked over quota
 * with the reason); updates go on with the next batch. Sends nothing more now.
 */
async function holdBackOverQuota(
  context: DeliveryContext,
  kind: ContentKind,
  rows: readonly PendingStagedItem[],
  reason: string,
): Promise<PendingStagedItem[]> {
  const { runId } = context;
  const held = await pendingNewItemIds(runId, kind);
  // A batch of updates only, refused all the same: those cannot go this month either.
  if (!rows.some((row) => row.isNew)) held.push(...rows.map((row) => row.itemId));
  await markOverQuota(runId, kind, held, reason);
  return [];
}
