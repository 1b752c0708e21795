import prisma from "../../db.server";
import { removeChangesCoveredByRun } from "./outbox.server";

/**
 * How much earlier than the app's record of a bulk export's start Shopify may have stamped a
 * change the export still missed: clock skew between Shopify and the app, and the time the
 * export request took.
 */
export const EXPORT_START_MARGIN_MS = 2_000;

/**
 * After a full sync of the shop's products that completed, the changes that happened before its
 * export started are already in the index (or were refused, and stay): they leave the outbox
 * without a re-read. Returns how many left.
 */
export async function dropChangesCoveredByLastSync(shopDomain: string): Promise<number> {
  const run = await prisma.syncRun.findFirst({
    where: { shopDomain, state: "succeeded", exportComplete: true },
    orderBy: { finishedAt: "desc" },
  });
  if (!run || !run.exportedTypes.split(",").includes("product")) return 0;
  const exported = await prisma.bulkExport.findFirst({
    where: { runId: run.id, type: "product", status: "COMPLETED" },
    orderBy: { createdAt: "asc" },
  });
  if (!exported) return 0;
  const cut = new Date(exported.createdAt.getTime() - EXPORT_START_MARGIN_MS);
  return removeChangesCoveredByRun(shopDomain, run.id, cut);
}
