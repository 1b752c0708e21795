import { Prisma } from "@prisma/client";
import prisma from "../db.server";
import type { ContentKind } from "./content-kinds";

/** The ledger of one shop's workspace: what the service holds, by kind and id. */
export interface LedgerScope {
  shopDomain: string;
  workspaceId: string;
}

/** The content hashes the service holds for these ids (absent ids are not indexed). */
export async function indexedHashes(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await prisma.indexedItem.findMany({
    where: { ...scope, kind, itemId: { in: [...itemIds] } },
    select: { itemId: true, contentHash: true },
  });
  return new Map(rows.map((row) => [row.itemId, row.contentHash]));
}

type Db = Pick<typeof prisma, "indexedItem" | "$executeRaw">;

/** Marks items as present in a run's export, so that the clean-up keeps them. */
export function markSeen(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
  runId: string,
  db: Db = prisma,
) {
  return db.indexedItem.updateMany({
    where: { ...scope, kind, itemId: { in: [...itemIds] } },
    data: { seenRunId: runId },
  });
}

/** Ids the service holds that a complete export did not contain. */
export async function unseenItemIds(
  scope: LedgerScope,
  kind: ContentKind,
  runId: string,
  limit: number,
  afterId = "",
): Promise<string[]> {
  const rows = await prisma.indexedItem.findMany({
    where: {
      ...scope,
      kind,
      itemId: { gt: afterId },
      OR: [{ seenRunId: null }, { seenRunId: { not: runId } }],
    },
    select: { itemId: true },
    orderBy: { itemId: "asc" },
    take: limit,
  });
  return rows.map((row) => row.itemId);
}

export async function countIndexed(scope: LedgerScope, kind: ContentKind): Promise<number> {
  return prisma.indexedItem.count({ where: { ...scope, kind } });
}

export interface DeliveredItem {
  itemId: string;
  contentHash: string;
}

/** The ledger rows for items the service acknowledged, in one statement. */
export function recordDelivered(
  scope: LedgerScope,
  kind: ContentKind,
  items: readonly DeliveredItem[],
  runId: string,
  sentAt: Date,
  db: Db = prisma,
) {
  const rows = items.map(
    (item) =>
      Prisma.sql`(${scope.shopDomain}, ${scope.workspaceId}, ${kind}, ${item.itemId}, ${item.contentHash}, ${sentAt}, ${runId})`,
  );
  return db.$executeRaw`
    INSERT INTO "IndexedItem" ("shopDomain", "workspaceId", "kind", "itemId", "contentHash", "sentAt", "seenRunId")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("shopDomain", "workspaceId", "kind", "itemId")
    DO UPDATE SET "contentHash" = excluded."contentHash", "sentAt" = excluded."sentAt", "seenRunId" = excluded."seenRunId"`;
}

/** Ledger rows of items the service confirmed deleted. */
export function recordDeleted(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
  db: Db = prisma,
) {
  return db.indexedItem.deleteMany({ where: { ...scope, kind, itemId: { in: [...itemIds] } } });
}
