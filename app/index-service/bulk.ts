/** Bulk results and batching (service-gaps: at most 100 items; on 413 split in half). Pure. */
import { BULK_MAX_ITEMS, BULK_RESULT_FIELDS, SPLIT_BULK_BATCH_ON_413 } from "./assumptions";
import { PayloadTooLargeError } from "./errors";
import type { BulkFailedItem, BulkResult } from "./types";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads `data` of a bulk answer; missing parts read as empty. */
export function normalizeBulkResult(data: unknown): BulkResult {
  const body = isObject(data) ? data : {};
  const successful = body[BULK_RESULT_FIELDS.successfulIds];
  const failed = body[BULK_RESULT_FIELDS.failedItems];
  const successfulIds = Array.isArray(successful)
    ? successful.filter((id): id is string => typeof id === "string")
    : [];
  const failedItems: BulkFailedItem[] = Array.isArray(failed)
    ? failed.filter(isObject).map((item) => ({
        id: typeof item.id === "string" ? item.id : String(item.id ?? ""),
        error: typeof item.error === "string" ? item.error : JSON.stringify(item.error ?? "failed"),
      }))
    : [];
  const processed = body[BULK_RESULT_FIELDS.processed];
  return {
    successfulIds,
    failedItems,
    processed:
      typeof processed === "number" ? processed : successfulIds.length + failedItems.length,
  };
}

export function mergeBulkResults(results: readonly BulkResult[]): BulkResult {
  return {
    successfulIds: results.flatMap((result) => result.successfulIds),
    failedItems: results.flatMap((result) => result.failedItems),
    processed: results.reduce((sum, result) => sum + result.processed, 0),
  };
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size ${size} is not >= 1`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    batches.push(items.slice(start, start + size));
  }
  return batches;
}

/** How many bulk requests `count` items take (sendInBatches, before any 413 splits one). */
export const bulkRequestsFor = (count: number): number => Math.ceil(count / BULK_MAX_ITEMS);

export interface BatchOptions<T> {
  /** The id reported in failedItems when a single item is still too large. */
  idOf: (item: T) => string;
  maxItems?: number;
}

/**
 * Sends items in batches of at most `maxItems` (one `send` per batch, in order). A batch answered
 * 413 is split in half and each half sent again; a single item still answered 413 becomes a
 * failed item. Any other error is thrown as is.
 */
export async function sendInBatches<T>(
  items: readonly T[],
  send: (batch: T[]) => Promise<BulkResult>,
  options: BatchOptions<T>,
): Promise<BulkResult> {
  const results: BulkResult[] = [];
  const sendSplitting = async (batch: T[]): Promise<void> => {
    try {
      results.push(await send(batch));
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError) || !SPLIT_BULK_BATCH_ON_413) throw error;
      if (batch.length === 1) {
        const [item] = batch as [T];
        results.push({
          successfulIds: [],
          failedItems: [{ id: options.idOf(item), error: error.message }],
          processed: 1,
        });
        return;
      }
      const middle = Math.ceil(batch.length / 2);
      await sendSplitting(batch.slice(0, middle));
      await sendSplitting(batch.slice(middle));
    }
  };
  for (const batch of chunk(items, options.maxItems ?? BULK_MAX_ITEMS)) {
    await sendSplitting(batch);
  }
  return mergeBulkResults(results);
}
