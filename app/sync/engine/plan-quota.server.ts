import { Prisma } from "@prisma/client";
import prisma from "../../db.server";
import type { Tier } from "../../index-service/tiers";
import { CONTENT_KINDS, type ContentKind } from "../../models/ledger.server";
import { nextQuotaReset, quotaStanding, type QuotaStanding } from "../../models/quota-usage.server";

const UPDATE_CHUNK = 500;

/**
 * The order in which new items earn a place within the quota, most deserving first. Products:
 * the same order as the catalogue's compareProductPriority (buyable first: in stock, then on
 * backorder, then out of stock; then most recently updated; then by numeric id), as SQL; a test
 * holds the two to the same result. Posts: most recently updated first.
 */
export const PRODUCT_PRIORITY_ORDER = Prisma.sql`
  CASE "stockStatus" WHEN 'instock' THEN 0 WHEN 'onbackorder' THEN 1 ELSE 2 END,
  "sourceUpdatedAt" DESC, length("itemId"), "itemId"`;
const POST_PRIORITY_ORDER = Prisma.sql`"sourceUpdatedAt" DESC, "itemId"`;

/**
 * Items new to the index count against the month's quota (see README, assumptions); when a run
 * has more of them than the quota has left, the most deserving go (products: buyable first,
 * then most recently updated; posts: most recently updated) and the rest are marked over quota,
 * each with the reason, never dropped silently.
 */
export async function planWithinQuota(options: {
  runId: string;
  shopDomain: string;
  tier: Tier;
  now: Date;
}): Promise<Record<ContentKind, QuotaStanding & { overQuota: number }>> {
  const { runId, shopDomain, tier, now } = options;
  const plan = {} as Record<ContentKind, QuotaStanding & { overQuota: number }>;
  for (const kind of CONTENT_KINDS) {
    const standing = await quotaStanding(shopDomain, tier, kind, now);
    const where = Prisma.sql`"runId" = ${runId} AND "kind" = ${kind} AND "action" = 'upsert' AND "status" = 'pending' AND "isNew" = true`;
    const [{ count }] = await prisma.$queryRaw<
      [{ count: number }]
    >`SELECT COUNT(*) AS "count" FROM "SyncItem" WHERE ${where}`;
    let overQuota = 0;
    if (Number(count) > standing.remaining) {
      overQuota = Number(count) - standing.remaining;
      const reason = overQuotaReason(kind, standing, now);
      // Ranked in the database, so a catalogue of any size plans in constant memory.
      await prisma.$executeRaw`
        UPDATE "SyncItem" SET "status" = 'over_quota', "error" = ${reason}
        WHERE ${where} AND "itemId" NOT IN (
          SELECT "itemId" FROM "SyncItem" WHERE ${where}
          ORDER BY ${kind === "product" ? PRODUCT_PRIORITY_ORDER : POST_PRIORITY_ORDER}
          LIMIT ${standing.remaining})`;
    }
    plan[kind] = { ...standing, overQuota };
  }
  return plan;
}

export function overQuotaReason(
  kind: ContentKind,
  standing: Pick<QuotaStanding, "limit">,
  now: Date,
): string {
  const what = kind === "product" ? "products" : "pages and articles";
  const reset = nextQuotaReset(now).toISOString().slice(0, 10);
  return `This month's quota of ${standing.limit} ${what} is used up; it resets on ${reset}.`;
}

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
