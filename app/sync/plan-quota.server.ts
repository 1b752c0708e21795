import { compareProductPriority, type StockStatus } from "../catalog";
import prisma from "../db.server";
import type { Tier } from "../index-service/tiers";
import { CONTENT_KINDS, nextQuotaReset, type ContentKind } from "./content-kinds";
import { quotaStanding, type QuotaStanding } from "./quota-usage.server";

const UPDATE_CHUNK = 500;

interface Candidate {
  itemId: string;
  stockStatus: string | null;
  sourceUpdatedAt: Date | null;
}

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
    const candidates = await prisma.syncItem.findMany({
      where: { runId, kind, action: "upsert", status: "pending", isNew: true },
      select: { itemId: true, stockStatus: true, sourceUpdatedAt: true },
    });
    let overQuota = 0;
    if (candidates.length > standing.remaining) {
      candidates.sort(kind === "product" ? byProductPriority : byRecency);
      const left = candidates.slice(standing.remaining).map((c) => c.itemId);
      overQuota = left.length;
      await markOverQuota(runId, kind, left, overQuotaReason(kind, standing, now));
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
    await prisma.syncItem.updateMany({
      where: { runId, kind, itemId: { in: itemIds.slice(start, start + UPDATE_CHUNK) } },
      data: { status: "over_quota", error: reason, payload: null },
    });
  }
}

function byProductPriority(a: Candidate, b: Candidate): number {
  return compareProductPriority(priorityKey(a), priorityKey(b));
}

function priorityKey(candidate: Candidate) {
  return {
    id: candidate.itemId,
    stock_status: (candidate.stockStatus ?? "outofstock") as StockStatus,
    updated_at: candidate.sourceUpdatedAt?.toISOString() ?? "",
  };
}

function byRecency(a: Candidate, b: Candidate): number {
  const updated = (b.sourceUpdatedAt?.getTime() ?? 0) - (a.sourceUpdatedAt?.getTime() ?? 0);
  return updated !== 0 ? updated : a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0;
}
