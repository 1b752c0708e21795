import type { BulkExport } from "@prisma/client";
import prisma from "./db.server";

// BulkExport: the bulk operations a full sync asked of Shopify (one per type), their state as
// Shopify last reported it, and when its bulk_operations/finish webhook said one finished.

/** The exports of a run. */
export function exportsOfRun(runId: string): Promise<BulkExport[]> {
  return prisma.bulkExport.findMany({ where: { runId } });
}

/** The statuses of a run's exports (the dashboard's progress bar counts the finished ones). */
export function exportStatusesOfRun(runId: string): Promise<{ status: string }[]> {
  return prisma.bulkExport.findMany({
    where: { runId },
    select: { status: true },
  });
}

/** Records a bulk operation Shopify accepted for a run. */
export async function recordExportStarted(
  bulkExport: Pick<BulkExport, "id" | "shopDomain" | "runId" | "type"> &
    Partial<Pick<BulkExport, "createdAt">>,
): Promise<void> {
  await prisma.bulkExport.create({ data: { ...bulkExport, status: "CREATED" } });
}

/**
 * Records a bulk query Shopify did not start as a failed export of the run, under an id of its
 * own (no operation has one): the run asked it, and it is over.
 */
export async function recordExportNotStarted(
  bulkExport: Pick<BulkExport, "shopDomain" | "runId" | "type" | "errorCode">,
): Promise<void> {
  const id = `not-started:${bulkExport.runId}:${bulkExport.type}`;
  await prisma.bulkExport.create({
    data: { ...bulkExport, id, status: "FAILED", completedAt: new Date() },
  });
}

/** Records the state Shopify reported for a bulk operation. */
export async function recordExportState(
  id: string,
  state: Pick<BulkExport, "status" | "errorCode" | "url" | "objectCount" | "completedAt">,
): Promise<void> {
  await prisma.bulkExport.update({ where: { id }, data: state });
}

/**
 * bulk_operations/finish: notes that Shopify says the operation finished (the runner then asks
 * Shopify for its state). False when the shop has no such export.
 */
export async function noteBulkOperationFinished(
  shopDomain: string,
  operationId: string,
): Promise<boolean> {
  // Raw SQL, not `updateMany` (a transaction of its own: docs/database.md, "Memory").
  const count = await prisma.$executeRaw`
    UPDATE "BulkExport" SET "finishedNoticeAt" = ${new Date()}
    WHERE "id" = ${operationId} AND "shopDomain" = ${shopDomain}`;
  return count > 0;
}
