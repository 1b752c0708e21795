import type { SyncRun } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, type RunningDemo } from "../../../dev/demo/admin-demo";
import { startTestDemo } from "../../../testkit/demo-browser";
import { indexedIds } from "../../../testkit/emulator";
import prisma from "../../../app/models/db.server";
import * as shopSync from "../../../app/sync/full/run-full-sync.server";
import { runProgress } from "../../../app/sync/full/run-progress.server";

let demo: RunningDemo;
const QUICK = { checkEveryMs: 50, webhookGraceMs: 60_000, pollEveryMs: 100 };

beforeAll(async () => {
  demo = await startTestDemo({ products: 60 });
  await demo.firstSync;
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

async function resync(timing = QUICK): Promise<SyncRun> {
  const run = await shopSync.startShopSync(DEMO_SHOP, "resync", timing);
  for (;;) {
    const current = await prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } });
    if (current.state !== "running") return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const index = () => indexedIds(demo.emulator, "professional", demo.workspaceId);

describe("exporting from Shopify", () => {
  it("runs the app's three bulk queries and the stock model's, valid against the 2026-10 schema, finished by Shopify's signed webhook", async () => {
    demo.shopify.state.clearWebhookDeliveries();
    const run = await resync();
    expect(run.state).toBe("succeeded");
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id } });
    expect(exports.map((e) => e.type).sort()).toEqual(["article", "page", "product", "stock"]);
    // The webhook said so, with a grace of a minute the run did not wait for polling.
    expect(exports.every((e) => e.finishedNoticeAt !== null)).toBe(true);
    const deliveries = demo.shopify.state.webhookDeliveries("bulk_operations/finish");
    expect(deliveries.length).toBe(4);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(demo.shopify.state.requests().filter((r) => r.errors.length > 0)).toEqual([]);
  });

  it("finishes by polling Shopify when the webhook never comes", async () => {
    demo.shopify.state.dropFinishWebhooks(4);
    const run = await resync({ checkEveryMs: 50, webhookGraceMs: 300, pollEveryMs: 100 });
    expect(run.state).toBe("succeeded");
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id } });
    expect(exports.every((e) => e.finishedNoticeAt === null && e.status === "COMPLETED")).toBe(
      true,
    );
  });

  it("waits out Shopify's cost throttling instead of failing", async () => {
    demo.shopify.state.clearRequests();
    demo.shopify.state.throttleNextRequests(2);
    const run = await resync();
    expect(run.state).toBe("succeeded");
    const requests = demo.shopify.state.requests();
    expect(requests.filter((r) => r.throttled).length).toBe(2);
  });

  it("fails the run with Shopify's error code, in words a merchant understands, and deletes nothing", async () => {
    const before = index();
    demo.shopify.state.failNextBulkOperation("ACCESS_DENIED");
    const run = await resync();
    expect(run).toMatchObject({ state: "failed", errorCode: "SHOPIFY_ACCESS_DENIED" });
    expect(run.errorMessage).toMatch(
      /Shopify refused to export your catalogue.*approve the permissions/,
    );
    expect(index()).toEqual(before);

    demo.shopify.state.expireNextBulkOperation();
    const expired = await resync();
    expect(expired).toMatchObject({ state: "failed", errorCode: "SHOPIFY_EXPIRED" });
    expect(index()).toEqual(before);
  });

  it("a stock export Shopify refuses to start fails nothing, and counts as over for the progress bar", async () => {
    demo.shopify.state.refuseNextBulkQuery("inventoryItems");
    const run = await resync();
    expect(run.state).toBe("succeeded");
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id } });
    expect(exports.map((e) => [e.type, e.status, e.errorCode]).sort()).toEqual([
      ["article", "COMPLETED", null],
      ["page", "COMPLETED", null],
      ["product", "COMPLETED", null],
      ["stock", "FAILED", "OPERATION_IN_PROGRESS"],
    ]);
    // As the bar saw it in the export phase: every export over, none waited for.
    const progress = await runProgress({ ...run, state: "running", phase: "request" });
    expect(progress).toMatchObject({ done: 4, total: 4, percent: 10 });
  });

  it("takes an export that finds nothing as a valid empty export", async () => {
    for (const product of demo.shopify.state.products())
      demo.shopify.state.deleteProduct(product.id);
    const run = await resync();
    expect(run.state).toBe("succeeded");
    const exports = await prisma.bulkExport.findMany({ where: { runId: run.id, type: "product" } });
    expect(exports[0]).toMatchObject({ status: "COMPLETED", url: null });
    expect(index().products).toEqual([]);
    expect(index().posts.length).toBeGreaterThan(0);
  });
});
