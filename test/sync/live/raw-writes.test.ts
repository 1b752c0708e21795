import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import * as lookups from "../../../app/models/lookups.server";
import * as inboxModel from "../../../app/models/inbox.server";
import * as inboxPage from "../../../app/admin/inbox-page.server";
import * as shops from "../../../app/models/shops.server";
import * as bulkExports from "../../../app/models/bulk-exports.server";

const inbox = { ...inboxModel, ...inboxPage };

/**
 * The per-request and per-item writes that went from model `updateMany` (a transaction of its
 * own, a connection each on SQLite: docs/database.md, "Memory") to raw SQL: the same rows change,
 * the same way.
 */
const SHOP = "raw-writes.myshopify.com";
const OTHER = "raw-writes-other.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment();
});

beforeEach(async () => {
  for (const shopDomain of [SHOP, OTHER]) {
    await prisma.pendingLookup.deleteMany({ where: { shopDomain } });
    await prisma.inboxItem.deleteMany({ where: { shopDomain } });
    await prisma.bulkExport.deleteMany({ where: { shopDomain } });
    await prisma.shop.deleteMany({ where: { shopDomain } });
    await prisma.shop.create({ data: { shopDomain, state: "active" } });
  }
});

describe("a failed lookup", () => {
  it("counts an attempt and keeps the reason on the named rows only", async () => {
    const changedAt = new Date("2026-05-01T12:00:00.000Z");
    const row = (shopDomain: string, resourceId: string) => ({
      shopDomain,
      kind: "collection",
      resourceId,
      changedAt,
    });
    await prisma.pendingLookup.createMany({
      data: [row(SHOP, "1"), row(SHOP, "2"), row(OTHER, "1")],
    });
    await lookups.noteLookupAttempt([row(SHOP, "1")], "boom");
    await lookups.noteLookupAttempt([row(SHOP, "1")], `later ${"x".repeat(600)}`);
    const rows = await prisma.pendingLookup.findMany({
      orderBy: [{ shopDomain: "asc" }, { resourceId: "asc" }],
      where: { shopDomain: { in: [SHOP, OTHER] } },
    });
    expect(rows.map((r) => [r.shopDomain, r.resourceId, r.attempts, r.lastError?.length])).toEqual([
      [OTHER, "1", 0, undefined],
      [SHOP, "1", 2, 500],
      [SHOP, "2", 0, undefined],
    ]);
    expect(rows[1]!.changedAt).toEqual(changedAt);
  });
});

describe("the Inbox's buttons", () => {
  it("mark one of the shop's entries handled and open again; another shop's entry is not found", async () => {
    const at = new Date("2026-05-01T12:00:00.000Z");
    await prisma.inboxItem.create({
      data: { shopDomain: SHOP, threadId: "t1", firstAt: at, lastAt: at },
    });
    const before = Date.now();
    expect(await inbox.updateInboxEntry(SHOP, "t1", "handled")).toEqual({ ok: true });
    const handled = await prisma.inboxItem.findUniqueOrThrow({
      where: { shopDomain_threadId: { shopDomain: SHOP, threadId: "t1" } },
    });
    expect(handled.handledAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(await inbox.unreadInboxCount(SHOP)).toBe(0);
    expect(await inbox.updateInboxEntry(SHOP, "t1", "reopen")).toEqual({ ok: true });
    expect(await inbox.unreadInboxCount(SHOP)).toBe(1);
    expect(await inbox.updateInboxEntry(OTHER, "t1", "handled")).toEqual({ ok: false });
    expect(await inbox.unreadInboxCount(SHOP)).toBe(1);
  });
});

describe("bulk_operations/finish", () => {
  it("notes the finish on the shop's own export only", async () => {
    await prisma.bulkExport.create({
      data: {
        id: "gid://shopify/BulkOperation/1",
        shopDomain: SHOP,
        runId: "r",
        type: "products",
        status: "RUNNING",
      },
    });
    expect(
      await bulkExports.noteBulkOperationFinished(OTHER, "gid://shopify/BulkOperation/1"),
    ).toBe(false);
    expect(await bulkExports.noteBulkOperationFinished(SHOP, "gid://shopify/BulkOperation/2")).toBe(
      false,
    );
    const before = Date.now();
    expect(await bulkExports.noteBulkOperationFinished(SHOP, "gid://shopify/BulkOperation/1")).toBe(
      true,
    );
    const row = await prisma.bulkExport.findUniqueOrThrow({
      where: { id: "gid://shopify/BulkOperation/1" },
    });
    expect(row.finishedNoticeAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
  });
});

describe("pausing, resuming and the tier", () => {
  it("change the shop's state and reasons as before, and its updatedAt", async () => {
    const created = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await shops.pauseShop(SHOP, { code: "UNAUTHORIZED", message: "The key was refused" });
    const paused = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(paused).toMatchObject({
      state: "paused",
      pauseCode: "UNAUTHORIZED",
      pauseReason: "The key was refused",
      pauseUrl: null,
    });
    expect(paused.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
    await shops.pauseShop(SHOP, { code: "TRIAL_EXPIRED", message: "Trial over", url: "https://x" });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } })).toMatchObject({
      pauseCode: "TRIAL_EXPIRED",
      pauseUrl: "https://x",
    });

    await shops.recordShopTier(SHOP, "starter");
    await shops.resumeShop(SHOP);
    expect(await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } })).toMatchObject({
      state: "active",
      tier: "starter",
      pauseCode: null,
      pauseReason: null,
      pauseUrl: null,
    });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shopDomain: OTHER } })).tier).toBeNull();
  });

  it("never pause an uninstalled shop, and resume only a paused one", async () => {
    await shops.markShopUninstalled(SHOP);
    await shops.pauseShop(SHOP, { code: "UNAUTHORIZED", message: "The key was refused" });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } })).state).toBe(
      "uninstalled",
    );
    await shops.resumeShop(SHOP);
    expect((await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } })).state).toBe(
      "uninstalled",
    );
  });
});
