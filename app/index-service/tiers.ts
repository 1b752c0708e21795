/** The tier tables of spec §8, in one place. */

export type Tier = "personal" | "starter" | "professional" | "enterprise";

export const TIERS: readonly Tier[] = ["personal", "starter", "professional", "enterprise"];

export interface RateLimits {
  perMinute: number;
  perHour: number;
}

export interface MonthlyQuotas {
  products: number;
  /** "Content pages" in the spec: the service's posts. */
  posts: number;
  chatMessages: number;
  searchQueries: number;
  recommendations: number;
}

export const RATE_LIMITS: Readonly<Record<Tier, RateLimits>> = {
  personal: { perMinute: 100, perHour: 1_000 },
  starter: { perMinute: 150, perHour: 1_500 },
  professional: { perMinute: 200, perHour: 2_000 },
  enterprise: { perMinute: 300, perHour: 5_000 },
};

export const MONTHLY_QUOTAS: Readonly<Record<Tier, MonthlyQuotas>> = {
  personal: {
    products: 200,
    posts: 100,
    chatMessages: 250,
    searchQueries: 3_000,
    recommendations: 500,
  },
  starter: {
    products: 500,
    posts: 200,
    chatMessages: 1_200,
    searchQueries: 10_000,
    recommendations: 1_800,
  },
  professional: {
    products: 1_000,
    posts: 1_000,
    chatMessages: 4_000,
    searchQueries: 50_000,
    recommendations: 5_000,
  },
  enterprise: {
    products: 10_000,
    posts: 10_000,
    chatMessages: 12_000,
    searchQueries: 150_000,
    recommendations: 25_000,
  },
};

/** The tier's monthly quota for a kind ("Products" and "Content pages" in spec §8). */
export function monthlyQuotaOf(tier: Tier, kind: "product" | "post"): number {
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

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/**
 * The tier whose monthly search quota equals the given number, or undefined (e.g. an Enterprise
 * account with custom limits). See TIER_DETECTION_FIELD in ./assumptions.
 */
export function tierFromSearchQueriesPerMonth(queriesPerMonth: number): Tier | undefined {
  return TIERS.find((tier) => MONTHLY_QUOTAS[tier].searchQueries === queriesPerMonth);
}

/** A plan as the service names it to its customers ("Professional"). */
export function tierName(tier: string): string {
  return isTier(tier) ? tier.charAt(0).toUpperCase() + tier.slice(1) : tier;
}
