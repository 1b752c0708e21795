/** Reading the success envelope `{data, tierLimits, usage}` of spec §2. Pure. */
import { tierFromSearchQueriesPerMonth, type Tier } from "./tiers";
import type { Envelope, TierLimits, Usage } from "./types";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

export function isTierLimits(value: unknown): value is TierLimits {
  return (
    isObject(value) &&
    isObject(value.search) &&
    isNumber(value.search.queriesPerMonth) &&
    isObject(value.chat) &&
    isNumber(value.chat.messagesPerMonth)
  );
}

export function isUsage(value: unknown): value is Usage {
  if (!isObject(value) || !isObject(value.rateLimit) || !isObject(value.quota)) return false;
  const { rateLimit, quota } = value;
  return (
    isObject(rateLimit.remaining) &&
    isNumber(rateLimit.remaining.perMinute) &&
    isNumber(rateLimit.remaining.perHour) &&
    isNumber(rateLimit.resetTime) &&
    isNumber(quota.current) &&
    isNumber(quota.limit) &&
    typeof quota.resetDate === "string"
  );
}

/**
 * A success body as an envelope. A body without a `data` field is taken as the data itself;
 * `tierLimits` and `usage` are kept only when they have the documented shape.
 */
export function parseEnvelope(body: unknown): Envelope<unknown> {
  if (!isObject(body) || !("data" in body)) return { data: body };
  const envelope: Envelope<unknown> = { data: body.data };
  if (isTierLimits(body.tierLimits)) envelope.tierLimits = body.tierLimits;
  if (isUsage(body.usage)) envelope.usage = body.usage;
  return envelope;
}

/** The tier named by `tierLimits.search.queriesPerMonth` (TIER_DETECTION_FIELD). */
export function tierOf(tierLimits: TierLimits | undefined): Tier | undefined {
  return tierLimits ? tierFromSearchQueriesPerMonth(tierLimits.search.queriesPerMonth) : undefined;
}
