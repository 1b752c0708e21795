/**
 * Per-minute and per-hour rate limits, counted per account in fixed clock windows (the 101st
 * request in one clock minute on Personal is refused), and the usage part of the envelope.
 */
import type { Account } from "./accounts";
import { HOUR_MS, MINUTE_MS, nextMonthStart } from "./clock";
import type { QuotaFeature } from "./tiers";

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the exhausted window(s) end; at least 1. */
  retryAfterSeconds: number;
}

function roll(account: Account, now: number): void {
  const minute = Math.floor(now / MINUTE_MS);
  const hour = Math.floor(now / HOUR_MS);
  if (account.rate.minute !== minute) {
    account.rate.minute = minute;
    account.rate.minuteCount = 0;
  }
  if (account.rate.hour !== hour) {
    account.rate.hour = hour;
    account.rate.hourCount = 0;
  }
}

/** Counts one request when the windows allow it; refused requests are not counted. */
export function takeRequest(account: Account, now: number): RateDecision {
  roll(account, now);
  const limits = account.rateLimits;
  const ends: number[] = [];
  if (account.rate.minuteCount >= limits.perMinute)
    ends.push((account.rate.minute + 1) * MINUTE_MS);
  if (account.rate.hourCount >= limits.perHour) ends.push((account.rate.hour + 1) * HOUR_MS);
  if (ends.length > 0) {
    account.rateLimited += 1;
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((Math.max(...ends) - now) / 1_000)),
    };
  }
  account.rate.minuteCount += 1;
  account.rate.hourCount += 1;
  return { allowed: true, retryAfterSeconds: 0 };
}

export function rateLimitUsage(account: Account, now: number) {
  roll(account, now);
  const limits = account.rateLimits;
  return {
    remaining: {
      perMinute: Math.max(0, limits.perMinute - account.rate.minuteCount),
      perHour: Math.max(0, limits.perHour - account.rate.hourCount),
    },
    resetTime: (account.rate.minute + 1) * MINUTE_MS,
  };
}

export function quotaUsage(account: Account, feature: QuotaFeature, now: number) {
  account.rollMonth(now);
  return {
    current: account.used[feature],
    limit: account.quotas[feature],
    resetDate: nextMonthStart(now),
  };
}

/** The success envelope of spec §2. */
export function envelope(account: Account, data: unknown, feature: QuotaFeature, now: number) {
  const quotas = account.quotas;
  return {
    data,
    tierLimits: {
      search: { enabled: true, queriesPerMonth: quotas.searchQueries },
      chat: { enabled: true, messagesPerMonth: quotas.chatMessages },
    },
    usage: {
      rateLimit: rateLimitUsage(account, now),
      quota: quotaUsage(account, feature, now),
    },
  };
}
