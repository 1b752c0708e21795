/** The items of a sync run (`SyncItem`) that did not reach the index, as the Dashboard lists them. */
import prisma from "./db.server";
import type { ContentKind } from "./ledger.server";

/** Why an item was left out: refused by the service, or over the month's quota. */
type LeftOutStatus = "failed" | "over_quota";

/** The first `take` of a run's items left out for `status` (of one kind, or all), by kind and id. */
export function leftOutItems(
  runId: string,
  status: LeftOutStatus,
  take: number,
  kind?: ContentKind,
) {
  return prisma.syncItem.findMany({
    where: { runId, status, kind },
    orderBy: [{ kind: "asc" }, { itemId: "asc" }],
    take,
    select: { kind: true, itemId: true, error: true, payload: true },
  });
}

/** How many of a run's items were left out for `status` (of one kind, or all). */
export function leftOutCount(runId: string, status: LeftOutStatus, kind?: ContentKind) {
  return prisma.syncItem.count({ where: { runId, status, kind } });
}

/** A run's items the service refused, as "Retry failed items" sends them again (at most `take`). */
export function refusedItemsOfRun(runId: string, take: number) {
  return prisma.syncItem.findMany({
    where: { runId, status: "failed" },
    orderBy: [{ kind: "asc" }, { itemId: "asc" }],
    take,
    select: { kind: true, itemId: true, action: true, payload: true },
  });
}

/** Refused items of a run that a retry put into the index (or removed, as Shopify has them no more). */
export async function markRetried(
  runId: string,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<void> {
  if (itemIds.length === 0) return;
  await prisma.syncItem.updateMany({
    where: { runId, kind, itemId: { in: [...itemIds] }, status: "failed" },
    data: { status: "sent", error: null },
  });
}

/** Refused items of a run that a retry saw refused again, with the service's new reason. */
export async function noteRefusedAgain(
  runId: string,
  kind: ContentKind,
  itemId: string,
  error: string,
): Promise<void> {
  await prisma.syncItem.updateMany({
    where: { runId, kind, itemId, status: "failed" },
    data: { error: error.slice(0, 500) },
  });
}
