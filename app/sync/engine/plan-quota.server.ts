import { nextQuotaReset, type Tier } from "../../index-service/tiers";
import { CONTENT_KINDS, type ContentKind } from "../../models/ledger.server";
import { quotaStanding, type QuotaStanding } from "../../models/quota-usage.server";
import { markOverQuotaBeyond, pendingNewCount } from "../../models/staged-items.server";

/**
 * Items new to the index count against the month's quota (docs/sync.md, "Assumptions of the sync
 * engine"); when a run has more of them than the quota has left, the most deserving go
 * (products: buyable first, then most recently updated; posts: most recently updated) and the
 * rest are marked over quota, each with the reason, never dropped silently.
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
    const count = await pendingNewCount(runId, kind);
    let overQuota = 0;
    if (count > standing.remaining) {
      overQuota = count - standing.remaining;
      const reason = overQuotaReason(kind, standing, now);
      // Ranked in the database, so a catalogue of any size plans in constant memory.
      await markOverQuotaBeyond(runId, kind, standing.remaining, reason);
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
