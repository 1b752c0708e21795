/**
 * Insights: what shoppers did in the chat per day (UTC) over the last 7 or 30 days, counted from
 * the service's events, and the questions they ask most, as far as chat.message_sent carries the
 * message. Test events are left out; only the named shop's events are read.
 */
import { chatMessagesSince, eventsSince } from "../models/service-events.server";

type InsightPeriod = 7 | 30;

export function insightPeriodOf(value: string | null): InsightPeriod {
  return value === "30" ? 30 : 7;
}

/** Shoppers' answers to an offer's buttons arrive as messages too; they are not questions. */
const NOT_QUESTIONS = new Set(["send", "submit", "cancel", "ok", "yes", "no", "not now"]);
const TOP_QUESTIONS = 10;
/** The most recent messages looked at for the top questions (a bound on the page's work). */
const QUESTION_SCAN_LIMIT = 5_000;
const DAY_MS = 86_400_000;

const COUNTED = [
  "chat.conversation_started",
  "chat.message_sent",
  "handoff.requested",
  "feedback.submitted",
] as const;

interface DailyInsights {
  period: InsightPeriod;
  /** YYYY-MM-DD, oldest first, one per day of the period (today included). */
  days: string[];
  conversations: number[];
  messages: number[];
  handoffs: number[];
  /** Handoffs per conversation that day, 0–1; null on a day without conversations. */
  handoffRate: (number | null)[];
  positive: number[];
  negative: number[];
  totals: {
    conversations: number;
    messages: number;
    handoffs: number;
    handoffRate: number | null;
    positive: number;
    negative: number;
  };
  topQuestions: { question: string; count: number }[];
  /**
   * The period's conversations, messages and handoffs by the storefront domain they were on,
   * most conversations first (events naming no workspace the shop holds are left out).
   */
  byStorefront: { storefront: string; conversations: number; messages: number; handoffs: number }[];
}

/** The way a question is compared: case, spacing and trailing punctuation do not matter. */
function normalizeQuestion(message: string): string | null {
  const text = message
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s?!.…]+$/u, "");
  if (text.length < 2 || NOT_QUESTIONS.has(text) || text.length > 300) return null;
  return text;
}

export async function dailyInsights(
  shopDomain: string,
  period: InsightPeriod,
  now: Date = new Date(),
): Promise<DailyInsights> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (period - 1) * DAY_MS);
  const days = Array.from({ length: period }, (_, i) =>
    new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  const index = new Map(days.map((day, i) => [day, i]));
  const zeros = () => days.map(() => 0);
  const series = {
    conversations: zeros(),
    messages: zeros(),
    handoffs: zeros(),
    positive: zeros(),
    negative: zeros(),
  };
  const storefronts = new Map<
    string,
    { conversations: number; messages: number; handoffs: number }
  >();
  for (const row of await eventsSince(shopDomain, from, COUNTED)) {
    const i = index.get(row.occurredAt.toISOString().slice(0, 10));
    if (i === undefined) continue;
    if (row.storefront !== null && row.eventType !== "feedback.submitted") {
      const counts = storefronts.get(row.storefront) ?? {
        conversations: 0,
        messages: 0,
        handoffs: 0,
      };
      if (row.eventType === "chat.conversation_started") counts.conversations += 1;
      else if (row.eventType === "chat.message_sent") counts.messages += 1;
      else counts.handoffs += 1;
      storefronts.set(row.storefront, counts);
    }
    if (row.eventType === "chat.conversation_started") series.conversations[i]! += 1;
    else if (row.eventType === "chat.message_sent") series.messages[i]! += 1;
    else if (row.eventType === "handoff.requested") series.handoffs[i]! += 1;
    else {
      const rating = (JSON.parse(row.data) as { rating?: unknown }).rating;
      if (rating === "positive") series.positive[i]! += 1;
      if (rating === "negative") series.negative[i]! += 1;
    }
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const totals = {
    conversations: sum(series.conversations),
    messages: sum(series.messages),
    handoffs: sum(series.handoffs),
    positive: sum(series.positive),
    negative: sum(series.negative),
  };
  return {
    period,
    days,
    ...series,
    handoffRate: series.conversations.map((c, i) => (c > 0 ? series.handoffs[i]! / c : null)),
    totals: {
      ...totals,
      handoffRate: totals.conversations > 0 ? totals.handoffs / totals.conversations : null,
    },
    topQuestions: await topQuestions(shopDomain, from),
    byStorefront: [...storefronts]
      .map(([storefront, counts]) => ({ storefront, ...counts }))
      .sort(
        (a, b) => b.conversations - a.conversations || a.storefront.localeCompare(b.storefront),
      ),
  };
}

async function topQuestions(shopDomain: string, from: Date) {
  // The event's JSON is read here rather than in SQL: SQLite's json_extract and PostgreSQL's
  // JSON operators differ, and the scan is bounded.
  const counts = new Map<string, number>();
  for (const data of await chatMessagesSince(shopDomain, from, QUESTION_SCAN_LIMIT)) {
    const message = messageOf(data);
    if (message === undefined) continue;
    const question = normalizeQuestion(message);
    if (question) counts.set(question, (counts.get(question) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_QUESTIONS)
    .map(([question, count]) => ({ question, count }));
}

function messageOf(data: string): string | undefined {
  try {
    const message = (JSON.parse(data) as { message?: unknown } | null)?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
