/**
 * Group commit of product webhooks: deliveries that arrive together are written together, and
 * each is answered only once its own write is in the database.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import { refuseReceipts } from "../../testkit/refuse-receipts";
import prisma from "../../app/models/db.server";
import * as intake from "../../app/sync/live/intake.server";
import { action as route } from "../../app/routes/webhooks.products";
import { GroupCommit } from "../../app/sync/live/group-commit";

const SHOP = "intake.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
});

beforeEach(async () => {
  await refuseReceipts(prisma, false);
  await prisma.pendingChange.deleteMany();
  await prisma.webhookReceipt.deleteMany();
  await prisma.shop.deleteMany();
  await prisma.shop.create({ data: { shopDomain: SHOP } });
});

const deliver = (productId: number, webhookId: string, triggeredAt = new Date().toISOString()) => {
  const request = shopifyWebhookRequest({
    topic: "products/update",
    shop: SHOP,
    body: JSON.stringify({ id: productId, title: `Product ${productId}` }),
    secret: TEST_API_SECRET,
    webhookId,
  });
  request.headers.set("X-Shopify-Triggered-At", triggeredAt);
  return callAction(route, request);
};

const take = (productId: number, webhookId: string, triggeredAt: string) =>
  intake.receiveProductWebhook({
    shopDomain: SHOP,
    topic: "PRODUCTS_UPDATE",
    webhookId,
    triggeredAt,
    payload: { id: productId },
  });

describe("group commit of product webhooks", () => {
  it("200 deliveries at once: every one answered 200 and in the database", async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, k) => deliver(1000 + (k % 50), `wh-${k}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await prisma.webhookReceipt.count()).toBe(200);
    expect(await prisma.pendingChange.count()).toBe(50);
  });

  it("deliveries taken together share one write, each told its own outcome", async () => {
    await prisma.shop.create({ data: { shopDomain: "gone.myshopify.com", state: "uninstalled" } });
    const t = (s: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, s)).toISOString();
    const outcomes = await Promise.all([
      take(1, "a", t(1)),
      take(1, "b", t(3)),
      take(1, "c", t(2)),
      take(2, "a", t(4)), // the same delivery id again: the first one counts
      intake.receiveProductWebhook({
        shopDomain: "gone.myshopify.com",
        topic: "PRODUCTS_UPDATE",
        webhookId: "d",
        payload: { id: 9 },
      }),
    ]);
    expect(outcomes).toEqual(["recorded", "recorded", "recorded", "duplicate", "ignored"]);
    const rows = await prisma.pendingChange.findMany({ orderBy: { productId: "asc" } });
    // Product 1 holds its newest change, whatever the order within the batch; product 2's
    // delivery was a duplicate and left nothing.
    expect(rows.map((r) => [r.productId, r.changedAt.toISOString()])).toEqual([["1", t(3)]]);
  });

  it("a delivery id taken in an earlier write is a duplicate, even after its change was sent", async () => {
    expect((await deliver(7, "once")).status).toBe(200);
    await prisma.pendingChange.deleteMany(); // the worker sent it
    const answers = await Promise.all([deliver(7, "once"), deliver(7, "once"), deliver(8, "new")]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await prisma.pendingChange.findMany()).map((r) => r.productId)).toEqual(["8"]);
    expect(await prisma.webhookReceipt.count()).toBe(2);
  });

  it("a write that fails answers 500 to each delivery it carried, and Shopify's retries are taken", async () => {
    await refuseReceipts(prisma, true);
    const ids = Array.from({ length: 20 }, (_, k) => `failing-${k}`);
    // A thrown error is what Remix answers with 500: none of them may be a 200.
    const answers = await Promise.allSettled(ids.map((id, k) => deliver(500 + k, id)));
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value.status : 500))).toEqual(
      ids.map(() => 500),
    );
    expect(await prisma.webhookReceipt.count()).toBe(0);

    await refuseReceipts(prisma, false);
    const retries = await Promise.all(ids.map((id, k) => deliver(500 + k, id)));
    expect(retries.map((a) => a.status)).toEqual(ids.map(() => 200));
    expect(await prisma.webhookReceipt.count()).toBe(20);
    expect(await prisma.pendingChange.count()).toBe(20);
  });
});

describe("GroupCommit", () => {
  it("what arrives while a write is under way goes in the next write, all of it at once", async () => {
    const writes: number[][] = [];
    let release = () => {};
    const commit = new GroupCommit<number, string>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => `done ${item}`);
    });
    const first = commit.submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = Array.from({ length: 10 }, (_, k) => commit.submit(k + 1));
    release();
    expect(await Promise.all([first, ...rest])).toEqual(
      Array.from({ length: 11 }, (_, k) => `done ${k}`),
    );
    expect(writes).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
  });

  it("a write that fails rejects every item it carried, and the next write goes on", async () => {
    let fail = true;
    const commit = new GroupCommit<number, number>(async (items) => {
      if (fail) throw new Error("disk full");
      return items;
    });
    const failed = await Promise.allSettled([commit.submit(1), commit.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await commit.submit(3)).toBe(3);
  });
});
