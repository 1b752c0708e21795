/**
 * Changes a complete full sync already covered (they happened before its export) leave the outbox
 * without a re-read, also when they come in after the worker took the run's covered changes out
 * (it does that once per run, not every pass: issue 28, item 4).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueProductUpdates } from "../../../app/models/outbox.server";
import {
  indexableProduct,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  type LiveEnvironment,
} from "../../../testkit/live-stack";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 12 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const rereads = () =>
  env.shopify.state
    .requests()
    .filter((request) => /^Product/.test(request.operationName ?? "") && !request.throttled).length;

async function productExportStartedAt(): Promise<Date> {
  const exported = await env.prisma.bulkExport.findFirst({
    where: { type: "product", status: "COMPLETED" },
    orderBy: { createdAt: "desc" },
  });
  if (!exported) throw new Error("the first full sync exported no products");
  return exported.createdAt;
}

describe("changes a complete full sync covered", () => {
  it("leave the outbox without a re-read, before and after the worker applied the run", async () => {
    const exportedAt = await productExportStartedAt();
    const before = new Date(exportedAt.getTime() - 60_000);
    const worker = await startTestWorker();
    try {
      // Waiting since before the export (a change the full sync already sent).
      await enqueueProductUpdates(SHOP, [numericId(indexableProduct(env, 0).id)], before, before);
      await waitForEmptyOutbox(env);
      expect(rereads()).toBe(0);

      // A real change after the export is re-read and sent.
      const edited = indexableProduct(env, 1);
      env.shopify.state.updateProduct(edited.id, { title: "Renamed after the full sync" });
      expect((await env.shopify.state.sendWebhook("products/update", edited.id)).status).toBe(200);
      await waitForIndexToEqualStore(env);
      await waitForEmptyOutbox(env);
      const afterEdit = rereads();
      expect(afterEdit).toBeGreaterThan(0);
      const writes = env.emulator.state.requests().length;

      // Late: comes in once the run's covered changes were taken out, yet older than its export.
      await enqueueProductUpdates(
        SHOP,
        [numericId(indexableProduct(env, 2).id)],
        before,
        new Date(Date.now() - 10_000),
      );
      await waitForEmptyOutbox(env);
      expect(rereads()).toBe(afterEdit);
      expect(env.emulator.state.requests().length).toBe(writes);
    } finally {
      await worker.stop();
    }
  });
});
