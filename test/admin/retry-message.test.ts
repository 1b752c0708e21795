/**
 * What "Retry failed items" says after a press, in the admin's number format (issue 26, item 7):
 * the banner's counts are written as the rest of the page writes numbers.
 */
import { describe, expect, it } from "vitest";
import { retryMessage } from "../../app/admin/dashboard-actions.server";
import { adminFormat } from "../../app/format";
import type { RetryOutcome } from "../../app/sync/full/retry-refused-items.server";

const outcome: RetryOutcome = {
  kind: "done",
  tried: 1_200,
  indexed: Array.from({ length: 1_199 }, (_, index) => `Board ${index}`),
  removed: [],
  refused: [{ name: "Wax", error: "VALIDATION_ERROR: price must be a number >= 0" }],
  overQuota: [],
  notRetried: 0,
  more: 1_050,
};

describe("the retry's banner", () => {
  it("writes its counts in the admin's language", () => {
    expect(retryMessage(outcome, adminFormat("de")).message).toBe(
      "Retried 1.200 refused items, read again from your store: 1.199 items are in the index now, 1 item was refused again. 1.050 more items are retried with the next press.",
    );
    expect(retryMessage(outcome, adminFormat("en-GB")).message).toBe(
      "Retried 1,200 refused items, read again from your store: 1,199 items are in the index now, 1 item was refused again. 1,050 more items are retried with the next press.",
    );
  });

  it("keeps en-GB when no language is given", () => {
    expect(retryMessage(outcome).message).toMatch(/^Retried 1,200 refused items/);
  });
});
