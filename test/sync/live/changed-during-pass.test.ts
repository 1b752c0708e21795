/**
 * A product changed again while its pass sends (bought during the send, in a sale) stays in the
 * outbox with its newer change, and waits a coalescing window from when the pass read its rows:
 * before, it kept its first receipt, was due at once, and a second pass wrote again a moment
 * after the first (the flash-sale benchmark's flushes over one write per 100 products). Through
 * the live worker in this process, the app's intake and the fake Shopify's webhooks.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import {
  indexableProduct,
  indexedItem,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { IndexServiceClient } from "../../../app/index-service/client";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 10, seed: 62 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await env?.close();
});

const WINDOW_MS = 60_000;

it("waits a window from the pass's read, so the next pass does not write again at once", async () => {
  const product = indexableProduct(env);
  const row = () =>
    env.prisma.pendingChange.findUnique({
      where: {
        shopDomain_productId: { shopDomain: SHOP, productId: numericId(product.id) },
      },
    });
  env.shopify.state.updateProduct(product.id, { title: "First edit" }, { webhook: true });
  await env.shopify.state.settled();
  const first = await row();
  expect(first).not.toBeNull();
  // Received two windows ago: due at once for a worker whose window is a minute.
  const firstReceipt = new Date(Date.now() - 2 * WINDOW_MS);
  await env.prisma.pendingChange.update({
    where: { shopDomain_productId: { shopDomain: first!.shopDomain, productId: first!.productId } },
    data: { receivedAt: firstReceipt },
  });

  // While the pass sends the first edit, the merchant edits again and Shopify says so.
  const send = IndexServiceClient.prototype.bulkUpsertProducts;
  let editedDuringSend = false;
  vi.spyOn(IndexServiceClient.prototype, "bulkUpsertProducts").mockImplementation(async function (
    this: IndexServiceClient,
    ...args: Parameters<typeof send>
  ) {
    if (!editedDuringSend) {
      editedDuringSend = true;
      env.shopify.state.updateProduct(product.id, { title: "Second edit" });
      const delivery = await env.shopify.state.sendWebhook("products/update", product.id);
      expect(delivery.status).toBe(200);
    }
    return send.apply(this, args);
  });

  const readBefore = Date.now();
  const worker = await startTestWorker({ coalesceMs: WINDOW_MS });
  try {
    await waitFor(
      "the first edit in the index",
      () => indexedItem(env, product.id)?.name === "First edit",
    );
    // The second edit's row stays, its window restarted at the pass's read...
    await waitFor("the pass to settle its row", async () => {
      const pending = await row();
      return pending !== null && pending.receivedAt.getTime() >= readBefore;
    });
    // ...so no pass sends it while the worker polls (40 ms) for a while.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(indexedItem(env, product.id)?.name).toBe("First edit");
    expect(await row()).not.toBeNull();
  } finally {
    await worker.stop();
    vi.restoreAllMocks();
  }

  // Nothing is lost: a worker whose window has passed sends it.
  const flush = await startTestWorker({ coalesceMs: 0 });
  try {
    await waitForEmptyOutbox(env);
    await waitFor(
      "the second edit in the index",
      () => indexedItem(env, product.id)?.name === "Second edit",
    );
  } finally {
    await flush.stop();
  }
});
