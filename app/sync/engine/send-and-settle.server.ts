import { BULK_DELETE_NOT_FOUND_CODE } from "../../index-service/assumptions";
import { sendInBatches } from "../../index-service/bulk";
import type { IndexServiceClient } from "../../index-service/client";
import { QuotaExceededError } from "../../index-service/errors";
import { quotaMonthOf, type Tier } from "../../index-service/tiers";
import type {
  BulkResult,
  IndexPost,
  IndexProduct,
  ServiceResponse,
} from "../../index-service/types";
import {
  recordDeleted,
  recordDeliveredTogether,
  type ContentKind,
  type DeliveredItem,
  type DeliveredWrite,
  type LedgerScope,
} from "../../models/ledger.server";
import {
  quotaStanding,
  recordQuotaSpent,
  recordReportedQuota,
} from "../../models/quota-usage.server";
import { appMetrics } from "../../server/metrics";
import { titleOf } from "./catalogue-entry";
import type { Pacer, PrepaidPlaces, SendGuard } from "./pacer";
import { overQuotaReason } from "./plan-quota.server";

export type SendAction = "upsert" | "delete";

/** Items of one kind to upsert or delete, whatever holds them (a run's staged rows, the outbox). */
export interface SettleJob<T> {
  scope: LedgerScope;
  tier: Tier;
  kind: ContentKind;
  action: SendAction;
  client: IndexServiceClient;
  pacer: Pacer;
  now: () => Date;
  items: readonly T[];
  idOf: (item: T) => string;
  /** Upserts: the item as the service takes it. */
  payloadOf: (item: T) => unknown;
  /**
   * Upserts: a product's document for the ledger when the caller has it already: as JSON, or as
   * the document a run staged (`{ stagedBy: runId }`, copied by the database); otherwise it is
   * `payloadOf` stringified.
   */
  contentOf?: (item: T) => NonNullable<DeliveredItem["content"]>;
  /** Upserts: its content hash, for the ledger. */
  hashOf: (item: T) => string;
  /** Upserts: a product's collections for the ledger (",1,2,"), when known. */
  collectionIdsOf?: (item: T) => string | null;
  isNew: (item: T) => boolean;
  /** The ledger's "last seen by" of what the service acknowledged: a run's id, or live's mark. */
  seenMark: string;
  /**
   * Whose month's quota these writes spend, when not `scope.shopDomain`'s own: a storefront
   * domain's workspace is written with the shop's key, from the shop's account
   * (docs/reference/quota-per-account.md), so the counts the service reports are the shop's.
   */
  quotaShopDomain?: string;
  /**
   * The quota reports this live pass or run recorded already, by key and kind: a report the
   * same as the last one recorded is not written again (a pass's own and domain workspaces, a
   * run's batches of updates all report the same count). A live pass starts it with the row it
   * read (quotaReportsRead). Cleared when a refusal records the quota as spent.
   */
  quotaReports?: Map<string, string>;
  /** Checked right before each request; throws to stop sending (nothing is then written). */
  guard?: SendGuard;
  /** Places taken for these requests with others of the same pass (Pacer.takePlaces). */
  prepaid?: PrepaidPlaces;
  /**
   * Upserts: when given, and while `prepaid`'s requests still go together, their ledger rows are
   * added here instead of written, and the caller writes them (recordDeliveredTogether) with those
   * of the pass's other sends, before it settles its own rows.
   */
  deferredLedger?: DeliveredWrite[];
  /**
   * The service refused an upsert for a spent quota (already recorded as spent): hold back what
   * must wait, with the reason in the merchant's words. Returns what to send instead (once).
   */
  holdBack: (refused: readonly T[], reason: string) => Promise<T[]>;
}

export interface Settled<T> {
  /** Written to the ledger: the caller settles its own rows after this, never before. */
  acknowledged: T[];
  /** Refused one by one, with the service's reason when it gave one. */
  refused: { item: T; error: string | undefined }[];
}

/**
 * The one path by which the app writes to the index: sends the items in bulk requests (at most
 * 100, a 413 halves the batch) through the shop's pacer, feeds the pacer the usage of each answer
 * and records the quota the service reports, counts what the service acknowledged (deleting what
 * it does not hold counts), collects what it refused, and on a quota refusal records the quota as
 * spent and lets the caller hold new items back. What was acknowledged is written to the ledger
 * before this returns (or handed to the caller to write, `deferredLedger`); the caller then marks
 * its own rows, in that order and without a transaction (docs/decisions/0001): a crash in between
 * resends the same content.
 */
export async function sendAndSettle<T>(job: SettleJob<T>): Promise<Settled<T>> {
  let items = [...job.items];
  if (items.length === 0) return { acknowledged: [], refused: [] };
  let answer: BulkResult;
  try {
    answer = await send(job, items);
  } catch (error) {
    if (!(error instanceof QuotaExceededError && job.action === "upsert")) throw error;
    const { tier, kind } = job;
    const now = job.now();
    job.quotaReports?.clear();
    await recordQuotaSpent(quotaKeyOf(job), kind, tier, now);
    const standing = await quotaStanding(quotaKeyOf(job), tier, kind, now);
    const offered = items.length;
    items = await job.holdBack(items, overQuotaReason(kind, standing, now));
    const overQuota = Math.max(0, offered - items.length);
    appMetrics().countItems(job.scope.shopDomain, kind, "over_quota", overQuota);
    if (items.length === 0) return { acknowledged: [], refused: [] };
    answer = await send(job, items);
  }
  const ok = acknowledgedIds(answer, job.action);
  const reasons = new Map(answer.failedItems.map((failure) => [failure.id, failure.error]));
  const acknowledged = items.filter((item) => ok.has(job.idOf(item)));
  const refused = items
    .filter((item) => !ok.has(job.idOf(item)))
    .map((item) => ({ item, error: reasons.get(job.idOf(item)) }));
  const metrics = appMetrics();
  const done = job.action === "upsert" ? "sent" : "deleted";
  metrics.countItems(job.scope.shopDomain, job.kind, done, acknowledged.length);
  metrics.countItems(job.scope.shopDomain, job.kind, "refused", refused.length);
  if (job.action === "upsert") {
    // A product's document is kept beside its hash: a stock change is sent again from it.
    const delivered = acknowledged.map((item) => ({
      itemId: job.idOf(item),
      contentHash: job.hashOf(item),
      title: titleOf(job.payloadOf(item)),
      collectionIds: job.collectionIdsOf?.(item) ?? null,
      ...(job.kind === "product"
        ? { content: job.contentOf?.(item) ?? JSON.stringify(job.payloadOf(item)) }
        : {}),
    }));
    const write = {
      scope: job.scope,
      kind: job.kind,
      items: delivered,
      runId: job.seenMark,
      sentAt: job.now(),
    };
    // Left to the caller only while the pass's requests still go together on their places: once
    // one went apart (a retry, a wait), what is acknowledged is written at once.
    if (job.deferredLedger && job.prepaid?.apart) job.deferredLedger.push(write);
    else await recordDeliveredTogether([write]);
  } else {
    await recordDeleted(job.scope, job.kind, acknowledged.map(job.idOf));
  }
  return { acknowledged, refused };
}

/** The ids a bulk answer acknowledged: deleting what the service does not hold leaves it as wanted. */
export function acknowledgedIds(answer: BulkResult, action: SendAction): Set<string> {
  const ok = new Set(answer.successfulIds);
  if (action === "delete") {
    for (const failure of answer.failedItems) {
      if (failure.error.startsWith(BULK_DELETE_NOT_FOUND_CODE)) ok.add(failure.id);
    }
  }
  return ok;
}

function send<T>(job: SettleJob<T>, items: T[]): Promise<BulkResult> {
  const { pacer, action } = job;
  return sendInBatches(
    items,
    async (batch) => {
      const response = await pacer.send(() => request(job, batch), job.guard, job.prepaid);
      pacer.observeUsage(response.usage);
      if (action === "upsert" && response.usage) await recordReport(job, response.usage.quota);
      return response.data;
    },
    { idOf: job.idOf },
  );
}

/**
 * The quota reports to start a live pass with: the month's row as the pass read it, so that a
 * report the same as what the database holds is not written again (an update leaves the count as
 * it was). A row without a reported limit (the app's own count) is not a report.
 */
export function quotaReportsRead(
  shopDomain: string,
  kind: ContentKind,
  row: { month: string; used: number | null; limit: number | null },
): Map<string, string> {
  const reports = new Map<string, string>();
  if (row.used !== null && row.limit !== null) {
    reports.set(reportKeyOf(shopDomain, kind), reportOf(row.month, row.used, row.limit));
  }
  return reports;
}

const reportKeyOf = (account: string, kind: ContentKind) => `${account}\n${kind}`;
const reportOf = (month: string, used: number, limit: number) => `${month} ${used} ${limit}`;

async function recordReport<T>(
  job: SettleJob<T>,
  quota: { current: number; limit: number },
): Promise<void> {
  const now = job.now();
  const account = quotaKeyOf(job);
  const key = reportKeyOf(account, job.kind);
  const report = reportOf(quotaMonthOf(now), quota.current, quota.limit);
  if (job.quotaReports?.get(key) === report) return;
  await recordReportedQuota(account, job.kind, now, quota);
  job.quotaReports?.set(key, report);
}

function quotaKeyOf<T>(job: SettleJob<T>): string {
  return job.quotaShopDomain ?? job.scope.shopDomain;
}

function request<T>(job: SettleJob<T>, batch: T[]): Promise<ServiceResponse<BulkResult>> {
  const { client, kind, action } = job;
  if (action === "delete") {
    const ids = batch.map(job.idOf);
    return kind === "product" ? client.bulkDeleteProducts(ids) : client.bulkDeletePosts(ids);
  }
  const items = batch.map(job.payloadOf);
  return kind === "product"
    ? client.bulkUpsertProducts(items as IndexProduct[])
    : client.bulkUpsertPosts(items as IndexPost[]);
}
