import { MONTHLY_QUOTAS, type Tier } from "../index-service/tiers";

/** What the index holds: products, and posts (online-store pages and blog articles). */
export type ContentKind = "product" | "post";
export const CONTENT_KINDS: readonly ContentKind[] = ["product", "post"];

/** The tier's monthly quota for a kind ("Products" and "Content pages" in spec §8). */
export function monthlyQuotaOf(tier: Tier, kind: ContentKind): number {
  return kind === "product" ? MONTHLY_QUOTAS[tier].products : MONTHLY_QUOTAS[tier].posts;
}

/** The quota month of a moment: quotas reset on the 1st at 00:00 UTC (spec §8 rule 2). */
export function quotaMonthOf(moment: Date): string {
  return moment.toISOString().slice(0, 7);
}

/** When the month's quotas come back. */
export function nextQuotaReset(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1));
}
