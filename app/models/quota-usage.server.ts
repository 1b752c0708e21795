/** The month's quota use per shop and kind (`QuotaUsage`), as the service reported it. */
import { Prisma } from "@prisma/client";
import prisma, { driverExecute } from "./db.server";
import { monthlyQuotaOf, quotaMonthOf, type Tier } from "../index-service/tiers";
import type { ContentKind } from "./ledger.server";

/**
 * What a `QuotaUsage` row counts: the content kinds the sync writes, and the quotas the shoppers
 * spend from the storefront (chat messages, search queries, chat recommendations).
 */
export type QuotaKind = ContentKind | "chat" | "search" | "recommendation";

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
  return standingOf(row, tier, kind);
}

/** quotaStanding from the month's row already read (null: none yet this month). */
export function standingOf(
  row: { used: number | null; limit: number | null } | null,
  tier: Tier,
  kind: ContentKind,
): QuotaStanding {
  const limit = row?.limit ?? monthlyQuotaOf(tier, kind);
  const used = row?.used ?? 0;
  return { kind, used, limit, remaining: Math.max(0, limit - used) };
}

/** Records the service's own count after a write (`usage.quota` of the success envelope). */
export async function recordReportedQuota(
  shopDomain: string,
  kind: QuotaKind,
  now: Date,
  quota: { current: number; limit: number },
): Promise<void> {
  // To the driver: it runs after every batch (docs/decisions/0001, 0052).
  await driverExecute(Prisma.sql`
    INSERT INTO "QuotaUsage" ("shopDomain", "month", "kind", "used", "limit", "updatedAt")
    VALUES (${shopDomain}, ${quotaMonthOf(now)}, ${kind}, ${quota.current}, ${quota.limit}, ${now})
    ON CONFLICT ("shopDomain", "month", "kind")
    DO UPDATE SET "used" = excluded."used", "limit" = excluded."limit", "updatedAt" = excluded."updatedAt"`);
}

export interface ReportedQuota {
  used: number;
  /** Null when only the app's own count is known (recordQuotaSpent without a reported limit). */
  limit: number | null;
  updatedAt: Date;
}

/** The month's counts the service reported for the shop, by kind. */
export async function reportedQuotas(
  shopDomain: string,
  now: Date,
): Promise<Partial<Record<QuotaKind, ReportedQuota>>> {
  const rows = await prisma.quotaUsage.findMany({
    where: { shopDomain, month: quotaMonthOf(now) },
  });
  return Object.fromEntries(
    rows.map((row) => [row.kind, { used: row.used, limit: row.limit, updatedAt: row.updatedAt }]),
  );
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
