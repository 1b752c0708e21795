/**
 * "This month's quota" on the Dashboard: every quota the service counts (products, pages and
 * articles, chat messages, search queries, recommendations) with its use and limit, and a warning
 * from 80 % on that says what shoppers see once it is used up (docs/admin.md). Chat, search and
 * recommendations are spent by shoppers in their browsers, so the app asks the service for them
 * (`GET /usage`, at most once a minute per shop; docs/decisions/0024).
 */
import type { Shop } from "@prisma/client";
import type { AdminFormat } from "../format";
import { IndexServiceError } from "../index-service/errors";
import { MONTHLY_QUOTAS, isTier, nextQuotaReset, type MonthlyQuotas } from "../index-service/tiers";
import type { UsageReport } from "../index-service/types";
import {
  recordReportedQuota,
  reportedQuotas,
  type QuotaKind,
  type ReportedQuota,
} from "../models/quota-usage.server";
import { SecretUnreadableError } from "../secret-box.server";
import { ShopNotConnectedError, serviceClientFor } from "../shop/service-keys.server";

/** How long after asking the service the Dashboard asks again (whatever the answer was). */
const USAGE_FRESH_MS = 60_000;
/** The Dashboard does not wait longer than this for the reading; it shows the last one instead. */
const USAGE_TIMEOUT_MS = 3_000;
/** From this share used on, a quota is shown with a warning. */
export const QUOTA_WARNING_PERCENT = 80;

interface QuotaSpec {
  kind: QuotaKind;
  label: string;
  report: keyof UsageReport;
  tier: keyof MonthlyQuotas;
  /** What shoppers and the catalogue meet once it is used up, until the quota starts again. */
  whenOut: string;
}

const QUOTAS: readonly QuotaSpec[] = [
  {
    kind: "product",
    label: "Products",
    report: "products",
    tier: "products",
    whenOut:
      "new products are not added to the index, so shoppers do not find them in the chat or the search box (changes to products already in the index still go through)",
  },
  {
    kind: "post",
    label: "Pages and articles",
    report: "posts",
    tier: "posts",
    whenOut:
      "new pages and articles are not added to the index, so the chat does not know them (changes to those already in the index still go through)",
  },
  {
    kind: "chat",
    label: "Chat messages",
    report: "chatMessages",
    tier: "chatMessages",
    whenOut:
      "the storefront chat does not answer; shoppers who ask a question are offered your store's own search for their words and your contact page instead",
  },
  {
    kind: "search",
    label: "Search queries",
    report: "searchQueries",
    tier: "searchQueries",
    whenOut:
      "the search box shows no suggestions, and shoppers' searches go to your theme's own search page",
  },
  {
    kind: "recommendation",
    label: "Recommendations",
    report: "recommendations",
    tier: "recommendations",
    whenOut: "the chat still answers, but without product or article cards",
  },
];

const SPENT_BY_SHOPPERS: ReadonlySet<QuotaKind> = new Set(["chat", "search", "recommendation"]);

const MORE = "To get more before then, move the search service account to a larger plan.";

/** When this process last asked the service, by shop: the page refreshes every 1.5 s in a run. */
const lastAsked = new Map<string, number>();

export type QuotaLevel = "ok" | "near" | "out";

export interface QuotaLine {
  kind: QuotaKind;
  label: string;
  /** Null when the service did not report it (a service without `GET /usage`). */
  used: number | null;
  limit: number;
  percent: number;
  remaining: number | null;
  level: QuotaLevel;
  /** "Chat messages: 3,400 of 4,000" or "Chat messages: 4,000 a month (use not reported)". */
  line: string;
  warning: string | null;
}

/** The Dashboard's quota lines for the shop; none before keys are saved (no tier known). */
export async function quotaLinesOf(
  shop: Shop | null,
  now: Date,
  f: AdminFormat,
): Promise<QuotaLine[]> {
  const tier = shop?.tier;
  if (!shop || !isTier(tier)) return [];
  const asked = lastAsked.get(shop.shopDomain);
  if (asked === undefined || now.getTime() - asked >= USAGE_FRESH_MS) {
    lastAsked.set(shop.shopDomain, now.getTime());
    await readUsage(shop, now);
  }
  const reported = await reportedQuotas(shop.shopDomain, now);
  const day = f.day(nextQuotaReset(now));
  return QUOTAS.map((spec) =>
    lineOf(spec, reported[spec.kind], MONTHLY_QUOTAS[tier][spec.tier], day, f),
  );
}

function lineOf(
  spec: QuotaSpec,
  reported: ReportedQuota | undefined,
  tierLimit: number,
  day: string,
  f: AdminFormat,
): QuotaLine {
  const limit = reported?.limit ?? tierLimit;
  // Products and pages are the app's own writes: none reported yet is none written this month.
  const used = reported ? reported.used : SPENT_BY_SHOPPERS.has(spec.kind) ? null : 0;
  const figure = (n: number) => f.number(n);
  if (used === null) {
    return {
      kind: spec.kind,
      label: spec.label,
      used,
      limit,
      percent: 0,
      remaining: null,
      level: "ok",
      line: `${spec.label}: ${figure(limit)} a month (use not reported by the search service)`,
      warning: null,
    };
  }
  const share = limit > 0 ? (used / limit) * 100 : 100;
  const level: QuotaLevel = used >= limit ? "out" : share >= QUOTA_WARNING_PERCENT ? "near" : "ok";
  const { whenOut } = spec;
  return {
    kind: spec.kind,
    label: spec.label,
    used,
    limit,
    percent: Math.min(100, share),
    remaining: Math.max(0, limit - used),
    level,
    line: `${spec.label}: ${figure(used)} of ${figure(limit)}`,
    warning:
      level === "out"
        ? `${spec.label}: none left until ${day}. ${capitalized(whenOut)}. ${MORE}`
        : level === "near"
          ? `${spec.label}: ${Math.floor(share)}% of this month's quota is used (${figure(limit - used)} left). When it runs out, ${whenOut}.`
          : null,
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Asks the service for the month's use of every quota and records what it said. */
async function readUsage(shop: Shop, now: Date): Promise<void> {
  let report: UsageReport;
  try {
    ({ data: report } = await serviceClientFor(shop).usageReport({ timeoutMs: USAGE_TIMEOUT_MS }));
  } catch (error) {
    // A service without the endpoint (404), one that does not answer, a shop without a readable
    // key: the last reading stays (the Sync card says what is wrong with the keys).
    if (
      error instanceof IndexServiceError ||
      error instanceof ShopNotConnectedError ||
      error instanceof SecretUnreadableError
    ) {
      return;
    }
    throw error;
  }
  // Products and pages keep the counts their own writes reported: the sync plans with them, and
  // after a refused batch they say "spent" where the service may still have a few left.
  for (const spec of QUOTAS) {
    const reading = report[spec.report];
    if (reading && SPENT_BY_SHOPPERS.has(spec.kind)) {
      await recordReportedQuota(shop.shopDomain, spec.kind, now, reading);
    }
  }
}
