import prisma from "../db.server";
import { MONTHLY_QUOTAS, type Tier } from "../index-service/tiers";
import type { ContentKind } from "./ledger.server";

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

export interface QuotaStanding {
  kind: ContentKind;
  used: number;
  limit: number;
  remaining: number;
}

/** The month's quota for a kind, less what the service reported (or the app counted) as used. */
export async function quotaStanding(
  shopDomain: string,
  tier: Tier,
  kind: ContentKind,
  now: Date,
): Promise<QuotaStanding> {
  const row = await prisma.quotaUsage.findUnique({
    where: { shopDomain_month_kind: { shopDomain, month: quotaMonthOf(now), kind } },
  });
  const limit = row?.limit ?? monthlyQuotaOf(tier, kind);
  const used = row?.used ?? 0;
  return { kind, used, limit, remaining: Math.max(0, limit - used) };
}

/** Records the service's own count after a write (`usage.quota` of the success envelope). */
export async function recordReportedQuota(
  shopDomain: string,
  kind: ContentKind,
  now: Date,
  quota: { current: number; limit: number },
): Promise<void> {
  // Raw SQL: it runs after every batch (docs/decisions/0001).
  await prisma.$executeRaw`
    INSERT INTO "QuotaUsage" ("shopDomain", "month", "kind", "used", "limit", "updatedAt")
    VALUES (${shopDomain}, ${quotaMonthOf(now)}, ${kind}, ${quota.current}, ${quota.limit}, ${now})
    ON CONFLICT ("shopDomain", "month", "kind")
    DO UPDATE SET "used" = excluded."used", "limit" = excluded."limit", "updatedAt" = excluded."updatedAt"`;
}

/** Another account's key was saved: the counts reported by the former account no longer apply. */
export async function forgetReportedQuota(shopDomain: string): Promise<void> {
  await prisma.quotaUsage.deleteMany({ where: { shopDomain } });
}

/** After the service refused a write for a spent quota: nothing more of that kind this month. */
export async function recordQuotaSpent(
  shopDomain: string,
  kind: ContentKind,
  tier: Tier,
  now: Date,
): Promise<void> {
  const key = { shopDomain, month: quotaMonthOf(now), kind };
  const row = await prisma.quotaUsage.findUnique({ where: { shopDomain_month_kind: key } });
  const limit = row?.limit ?? monthlyQuotaOf(tier, kind);
  await prisma.quotaUsage.upsert({
    where: { shopDomain_month_kind: key },
    create: { ...key, used: limit, limit },
    update: { used: limit },
  });
}
