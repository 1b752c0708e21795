import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import * as outbox from "../../../app/models/outbox.server";
import * as leaseRows from "../../../app/models/shop-leases.server";
import * as processLeases from "../../../app/sync/engine/process-leases.server";
import * as webhook from "../../../app/sync/live/intake.server";
import * as ledger from "../../../app/models/ledger.server";

// The lease rows (models) and the leases a process holds of them (sync/engine/process-leases).
const leases = { ...leaseRows, ...processLeases };

const SHOP = "units.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment();
});

beforeEach(async () => {
  await prisma.shop.upsert({
    where: { shopDomain: SHOP },
    create: { shopDomain: SHOP },
    update: {},
  });
  await prisma.pendingChange.deleteMany();
  await prisma.webhookReceipt.deleteMany();
  await prisma.shopLease.deleteMany();
});

describe("reading a products/* delivery", () => {
  const receivedAt = new Date("2026-05-01T12:00:00.000Z");

  it("takes the product id and the time Shopify says the change happened", () => {
    expect(
      webhook.productChangeOf({
        topic: "PRODUCTS_UPDATE",
        payload: { id: 632910392, updated_at: "2026-05-01T13:59:00+02:00" },
        triggeredAt: "2026-05-01T11:59:30.123Z",
        receivedAt,
      }),
    ).toMatchObject({
      productId: "632910392",
      change: "update",
      changedAt: new Date("2026-05-01T11:59:30.123Z"),
    });
  });

  it("falls back to the payload's updated_at, then to the time of receipt", () => {
    const fromPayload = webhook.productChangeOf({
      topic: "PRODUCTS_CREATE",
      payload: {
        admin_graphql_api_id: "gid://shopify/Product/7",
        updated_at: "2026-05-01T13:59:00+02:00",
      },
      receivedAt,
    });
    expect(fromPayload).toMatchObject({
      productId: "7",
      change: "update",
      changedAt: new Date("2026-05-01T11:59:00.000Z"),
    });
    const deleted = webhook.productChangeOf({
      topic: "PRODUCTS_DELETE",
      payload: { id: 8 },
      receivedAt,
    });
    expect(deleted).toMatchObject({ productId: "8", change: "delete", changedAt: receivedAt });
  });

  it("refuses a payload without a product id", () => {
    expect(() =>
      webhook.productChangeOf({ topic: "PRODUCTS_UPDATE", payload: { title: "x" }, receivedAt }),
    ).toThrow(webhook.MalformedProductWebhookError);
  });
});

describe("the outbox", () => {
  const deliver = (
    webhookId: string,
    productId: string,
    change: "update" | "delete",
    at: string,
    shopDomain = SHOP,
  ) =>
    outbox
      .recordProductDeliveries([
        {
          shopDomain,
          webhookId,
          topic: "PRODUCTS_UPDATE",
          signal: { productId, change, changedAt: new Date(at) },
          receivedAt: new Date(),
        },
      ])
      .then(([outcome]) => outcome);

  it("holds one row per product, the newest change winning whatever the order", async () => {
    expect(await deliver("w1", "1", "update", "2026-05-01T10:00:02Z")).toBe("recorded");
    expect(await deliver("w2", "1", "delete", "2026-05-01T10:00:05Z")).toBe("recorded");
    expect(await deliver("w3", "1", "update", "2026-05-01T10:00:03Z")).toBe("recorded");
    expect(await deliver("w2", "1", "delete", "2026-05-01T10:00:05Z")).toBe("duplicate");
    expect(await deliver("w4", "1", "update", "2026-05-01T10:00:09Z", "other.myshopify.com")).toBe(
      "ignored",
    );
    const rows = await prisma.pendingChange.findMany();
    expect(rows).toEqual([
      expect.objectContaining({
        productId: "1",
        change: "delete",
        changedAt: new Date("2026-05-01T10:00:05Z"),
      }),
    ]);
  });

  it("takes concurrent deliveries, a duplicate among them once", async () => {
    const outcomes = await Promise.all([
      deliver("g1", "5", "update", "2026-05-01T10:00:01Z"),
      deliver("g2", "5", "update", "2026-05-01T10:00:04Z"),
      deliver("g3", "6", "update", "2026-05-01T10:00:02Z"),
      deliver("g1", "5", "update", "2026-05-01T10:00:01Z"),
    ]);
    expect(outcomes.filter((o) => o === "recorded")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(1);
    const rows = await prisma.pendingChange.findMany({ orderBy: { productId: "asc" } });
    expect(rows.map((r) => [r.productId, r.changedAt.toISOString()])).toEqual([
      ["5", "2026-05-01T10:00:04.000Z"],
      ["6", "2026-05-01T10:00:02.000Z"],
    ]);
  });

  it("removes only the change that was read: a newer one that came meanwhile stays", async () => {
    await deliver("w1", "1", "update", "2026-05-01T10:00:00Z");
    const [taken] = await outbox.nextChanges(SHOP, { limit: 10, includeHeld: true });
    await deliver("w2", "1", "update", "2026-05-01T10:00:09Z");
    await outbox.removeChanges([taken!]);
    expect(await prisma.pendingChange.count()).toBe(1);
    const [again] = await outbox.nextChanges(SHOP, { limit: 10, includeHeld: true });
    await outbox.removeChanges([again!]);
    expect(await prisma.pendingChange.count()).toBe(0);
  });

  it("a change that came while its pass ran waits a window from the pass's read, not from its first receipt", async () => {
    await deliver("v1", "1", "update", "2026-05-01T10:00:00Z");
    await deliver("v2", "2", "update", "2026-05-01T10:00:00Z");
    const firstReceipt = (await prisma.pendingChange.findFirstOrThrow()).receivedAt;
    const taken = await outbox.nextChanges(SHOP, { limit: 10, includeHeld: true });
    const readAt = new Date(firstReceipt.getTime() + 5_000);
    // Product 1 sold again while the pass sent: its row stays, first received long ago.
    await deliver("v3", "1", "update", "2026-05-01T10:00:09Z");
    await outbox.removeChanges(taken, undefined, { windowFrom: readAt });

    const left = await prisma.pendingChange.findMany();
    expect(left.map((row) => [row.productId, row.changedAt.toISOString()])).toEqual([
      ["1", "2026-05-01T10:00:09.000Z"],
    ]);
    expect(left[0]!.receivedAt).toEqual(readAt);
    // So it is not due the moment the pass ends (a second write a moment after the first)...
    expect(await outbox.mayHaveDueWork(SHOP, new Date(readAt.getTime() - 1), 100)).toBe(false);
    // ...but a window after the read, like any change that came then.
    expect(await outbox.mayHaveDueWork(SHOP, readAt, 100)).toBe(true);
  });

  it("a row received after the pass's read keeps its own receipt", async () => {
    await deliver("u1", "1", "update", "2026-05-01T10:00:00Z");
    const taken = await outbox.nextChanges(SHOP, { limit: 10, includeHeld: true });
    const readAt = new Date(Date.now() - 60_000);
    await deliver("u2", "1", "update", "2026-05-01T10:00:09Z");
    const receipt = (await prisma.pendingChange.findFirstOrThrow()).receivedAt;
    await outbox.removeChanges(taken, undefined, { windowFrom: readAt });
    expect((await prisma.pendingChange.findFirstOrThrow()).receivedAt).toEqual(receipt);
  });

  it("says whether another pass of a shop could find work: lookups, due changes, a full batch", async () => {
    await prisma.pendingLookup.deleteMany();
    const now = Date.now();
    const cutoff = new Date(now - 3_000);
    expect(await outbox.mayHaveDueWork(SHOP, cutoff, 2)).toBe(false);
    await deliver("f1", "1", "update", "2026-05-01T10:00:00Z"); // received now: not due yet
    expect(await outbox.mayHaveDueWork(SHOP, cutoff, 2)).toBe(false);
    expect(await outbox.mayHaveDueWork("other.myshopify.com", new Date(now + 1_000), 2)).toBe(
      false,
    );
    expect(await outbox.mayHaveDueWork(SHOP, new Date(now + 1_000), 2)).toBe(true);
    await deliver("f2", "2", "update", "2026-05-01T10:00:00Z"); // a batch's worth, however new
    expect(await outbox.mayHaveDueWork(SHOP, cutoff, 2)).toBe(true);
    await prisma.pendingChange.deleteMany();
    await prisma.pendingLookup.create({
      data: {
        shopDomain: SHOP,
        kind: "collection",
        resourceId: "9",
        changedAt: new Date(now),
        receivedAt: new Date(now),
      },
    });
    expect(await outbox.mayHaveDueWork(SHOP, cutoff, 2)).toBe(true);
    await prisma.pendingLookup.deleteMany();
  });

  it("tells the worker's poll which shops have changes (sendable, held, since when) and which have lookups", async () => {
    await prisma.pendingLookup.deleteMany();
    expect(await outbox.outboxBacklogs()).toEqual({ changes: [], lookups: [] });
    await deliver("b1", "1", "update", "2026-05-01T10:00:00Z");
    await deliver("b2", "2", "update", "2026-05-01T10:00:01Z");
    await deliver("b3", "3", "update", "2026-05-01T10:00:02Z");
    await outbox.holdForQuota(SHOP, ["3"], "the month's products are used");
    const first = await prisma.pendingChange.findUniqueOrThrow({
      where: { shopDomain_productId: { shopDomain: SHOP, productId: "1" } },
    });
    const lookupAt = new Date("2026-05-01T09:00:00.123Z");
    await prisma.pendingLookup.create({
      data: {
        shopDomain: "lookups.myshopify.com",
        kind: "collection",
        resourceId: "9",
        changedAt: lookupAt,
        receivedAt: lookupAt,
      },
    });

    const { changes, lookups } = await outbox.outboxBacklogs();
    expect(changes).toEqual([
      { shopDomain: SHOP, sendable: 2, oldestSendableAt: first.receivedAt, held: 1 },
    ]);
    expect(lookups).toEqual([{ shopDomain: "lookups.myshopify.com", oldest: lookupAt }]);
    await prisma.pendingLookup.deleteMany();
  });

  it("forgets delivery ids after a few days", async () => {
    await deliver("old", "1", "update", "2026-05-01T10:00:00Z");
    await prisma.webhookReceipt.update({
      where: { webhookId: "old" },
      data: { receivedAt: new Date(Date.now() - 4 * 24 * 3600_000) },
    });
    await deliver("new", "2", "update", "2026-05-01T10:00:00Z");
    expect(await outbox.pruneWebhookReceipts(new Date())).toBe(1);
    expect((await prisma.webhookReceipt.findMany()).map((r) => r.webhookId)).toEqual(["new"]);
  });
});

describe("shop leases", () => {
  it("lets one holder at a time send for a shop, and frees a dead holder's shop when it expires", async () => {
    const start = new Date("2026-05-01T10:00:00Z");
    expect(await leases.acquireShopLease(SHOP, "a", 1_000, start)).toBe(true);
    expect(await leases.acquireShopLease(SHOP, "b", 1_000, start)).toBe(false);
    // The holder renews its own lease.
    expect(await leases.acquireShopLease(SHOP, "a", 1_000, new Date(start.getTime() + 500))).toBe(
      true,
    );
    expect(await leases.acquireShopLease(SHOP, "b", 1_000, new Date(start.getTime() + 1_200))).toBe(
      false,
    );
    expect(await leases.acquireShopLease(SHOP, "b", 1_000, new Date(start.getTime() + 1_600))).toBe(
      true,
    );
    expect(await leases.leaseHolder(SHOP, new Date(start.getTime() + 1_700))).toBe("b");
  });

  it("among racing holders, exactly one wins", async () => {
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((holder) => leases.acquireShopLease(SHOP, holder)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("a process shares its lease between its users and gives it back after the last", async () => {
    const mine = new leases.ShopLeases("process-1", 60_000);
    const other = new leases.ShopLeases("process-2", 60_000);
    const first = await mine.hold(SHOP);
    const second = await mine.hold(SHOP);
    expect(first && second).toBeTruthy();
    expect(await other.hold(SHOP)).toBeNull();
    await first!.release();
    expect(await leases.leaseHolder(SHOP)).toBe("process-1");
    await second!.release();
    expect(await leases.leaseHolder(SHOP)).toBeNull();
    expect(await other.hold(SHOP)).not.toBeNull();
  });

  it("a holder that lost its lease writes nothing once another took the shop over (fencing)", async () => {
    await prisma.indexedItem.deleteMany();
    const stalled = new leases.ShopLeases("stalled", 60_000);
    const a = await stalled.hold(SHOP);
    // The holder stalls (a long pause, a lost connection) past its lease: it runs out.
    await prisma.shopLease.update({
      where: { shopDomain: SHOP },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const b = await new leases.ShopLeases("new-owner", 60_000).hold(SHOP);
    expect(a && b).toBeTruthy();
    const scopeOf = (fence: NonNullable<typeof a>["fence"]) => ({
      shopDomain: SHOP,
      workspaceId: "ws",
      fence,
    });
    const hashes = async () =>
      (await prisma.indexedItem.findMany()).map((r) => [r.itemId, r.contentHash]);

    // The stale holder wakes up: every write that matters is refused, and it is told to stop.
    const stale = (write: Promise<unknown>) =>
      expect(write).rejects.toBeInstanceOf(leases.LeaseLostError);
    await stale(a!.confirm());
    await stale(
      ledger.recordDelivered(
        scopeOf(a!.fence),
        "product",
        [{ itemId: "1", contentHash: "old" }],
        "live",
        new Date(),
      ),
    );
    expect(await hashes()).toEqual([]);
    await ledger.recordDelivered(
      scopeOf(b!.fence),
      "product",
      [{ itemId: "1", contentHash: "new" }],
      "live",
      new Date(),
    );
    await stale(
      ledger.recordDelivered(
        scopeOf(a!.fence),
        "product",
        [{ itemId: "1", contentHash: "old" }],
        "live",
        new Date(),
      ),
    );
    await stale(ledger.recordDeleted(scopeOf(a!.fence), "product", ["1"]));
    expect(await hashes()).toEqual([["1", "new"]]);

    await prisma.pendingChange.create({
      data: { shopDomain: SHOP, productId: "1", change: "update", changedAt: new Date() },
    });
    const rows = await prisma.pendingChange.findMany();
    await stale(outbox.removeChanges(rows, a!.fence));
    expect(await prisma.pendingChange.count()).toBe(1);
    await outbox.removeChanges(rows, b!.fence);
    expect(await prisma.pendingChange.count()).toBe(0);

    // Giving back a lost lease leaves the new owner's alone.
    await b!.confirm();
    await a!.release();
    expect(await leases.leaseHolder(SHOP)).toBe("new-owner");
    await b!.release();
  });
});
