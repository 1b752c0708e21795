/**
 * The tier tables of spec §8 as the service applies them. Deliberately not imported from app/:
 * the emulator is the other side of the contract.
 */

export type Tier = "personal" | "starter" | "professional" | "enterprise";

export const TIERS: readonly Tier[] = ["personal", "starter", "professional", "enterprise"];

export interface RateLimits {
  perMinute: number;
  perHour: number;
}

export interface Quotas {
  products: number;
  posts: number;
  chatMessages: number;
  searchQueries: number;
  recommendations: number;
}

export type QuotaFeature = keyof Quotas;

export const QUOTA_FEATURES: readonly QuotaFeature[] = [
  "products",
  "posts",
  "chatMessages",
  "searchQueries",
  "recommendations",
];

export const TIER_RATE_LIMITS: Readonly<Record<Tier, RateLimits>> = {
  personal: { perMinute: 100, perHour: 1_000 },
  starter: { perMinute: 150, perHour: 1_500 },
  professional: { perMinute: 200, perHour: 2_000 },
  enterprise: { perMinute: 300, perHour: 5_000 },
};

export const TIER_QUOTAS: Readonly<Record<Tier, Quotas>> = {
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

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}
