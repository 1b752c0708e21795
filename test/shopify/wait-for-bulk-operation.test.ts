/**
 * Waiting for a bulk export (the domain fill and the hourly check share it): the first look comes
 * soon, the next ones twice as late up to the poll interval, and an export Shopify never
 * finishes ends in a clear error past the deadline instead of a wait without end. The Admin API
 * is a stub here (a unit test); the fake Shopify's exports are waited for in the sync tests.
 */
import { describe, expect, it } from "vitest";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";
import { waitForBulkOperation } from "../../app/shopify/bulk-operation";

/** An Admin API whose export reports `statuses` in turn (the last one from then on). */
function adminReporting(statuses: string[]): AdminGraphql & { asked: number[] } {
  const asked: number[] = [];
  const started = Date.now();
  return {
    asked,
    async graphql() {
      asked.push(Date.now() - started);
      const status = statuses[Math.min(asked.length - 1, statuses.length - 1)];
      const node = {
        id: "gid://shopify/BulkOperation/1",
        status,
        errorCode: null,
        objectCount: "3",
        url: status === "COMPLETED" ? "https://files.example/1.jsonl" : null,
      };
      return Response.json({ data: { node } });
    },
  };
}

describe("waitForBulkOperation", () => {
  it("returns the finished export, having asked until it finished", async () => {
    const admin = adminReporting(["CREATED", "RUNNING", "COMPLETED"]);
    const state = await waitForBulkOperation(admin, "gid://shopify/BulkOperation/1", {
      pollEveryMs: 20,
    });
    expect(state).toMatchObject({
      status: "COMPLETED",
      objectCount: 3,
      url: "https://files.example/1.jsonl",
    });
    expect(admin.asked).toHaveLength(3);
  });

  it("an export that never finishes ends in an error naming it once the deadline passed", async () => {
    const admin = adminReporting(["RUNNING"]);
    await expect(
      waitForBulkOperation(admin, "gid://shopify/BulkOperation/1", {
        pollEveryMs: 5,
        timeoutMs: 50,
      }),
    ).rejects.toThrow("Shopify's export gid://shopify/BulkOperation/1 took too long");
  });
});
