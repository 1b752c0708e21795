import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { findShop, resumeShop } from "../../app/models/shops.server";
import { dashboardAction } from "../../app/admin/dashboard-actions.server";
import { pauseForStop, shopsPausedByService, stopReasonOf } from "../../app/shop/pause.server";
import { UnauthorizedError } from "../../app/index-service/errors";
import { startShopSync, SyncPausedByMerchantError } from "../../app/sync/full/run-full-sync.server";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";

/**
 * The merchant's own pause (Dashboard, "Pause syncing"): only their "Resume syncing" lifts it,
 * not what lifts the service's pauses (a run that succeeds, a key saved, the live worker's
 * question to the service), and no sync starts while it holds.
 */
const SHOP = "merchant-pause.myshopify.com";
const noAdmin = {} as AdminGraphql;

beforeAll(async () => {
  await prepareAppEnvironment();
});

beforeEach(async () => {
  await prisma.syncRun.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.shop.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.shop.create({
    data: {
      shopDomain: SHOP,
      state: "active",
      workspaceId: "merchant-pause",
      secretKeyCiphertext: "sealed",
      publishableKey: "svc_pk_test",
    },
  });
});

const shop = async () => (await findShop(SHOP))!;

describe("Pause syncing", () => {
  it("holds until the merchant resumes, whatever else lifts a pause", async () => {
    const paused = await dashboardAction(SHOP, "pause", noAdmin);
    expect(paused.tone).toBe("success");
    expect(await shop()).toMatchObject({ state: "paused", pauseCode: "MERCHANT_PAUSED" });
    const since = (await shop()).pausedAt;
    expect(since).toBeInstanceOf(Date);

    // A run that succeeds, or keys saved again, lift a pause the service made: not this one.
    await resumeShop(SHOP);
    // A refusal met meanwhile does not take its place (the live worker would then lift it).
    await pauseForStop(SHOP, stopReasonOf(new UnauthorizedError({ message: "revoked" })));
    expect(await shop()).toMatchObject({ state: "paused", pauseCode: "MERCHANT_PAUSED" });
    expect((await shop()).pausedAt).toEqual(since);
    expect((await shopsPausedByService()).map((s) => s.shopDomain)).not.toContain(SHOP);

    // No sync starts: Resync says so, and nothing else starts one.
    const resync = await dashboardAction(SHOP, "resync", noAdmin);
    expect(resync.message).toMatch(/^Syncing is paused \(you paused it\)/);
    await expect(startShopSync(SHOP, "reconcile")).rejects.toBeInstanceOf(
      SyncPausedByMerchantError,
    );
    expect(await prisma.syncRun.count({ where: { shopDomain: SHOP } })).toBe(0);

    const resumed = await dashboardAction(SHOP, "resume", noAdmin);
    expect(resumed.message).toMatch(/^Syncing resumed/);
    expect(await shop()).toMatchObject({ state: "active", pauseCode: null, pausedAt: null });
  });

  it("is not offered over a sync that is running, which would go on sending", async () => {
    await prisma.syncRun.create({
      data: {
        shopDomain: SHOP,
        activeShop: SHOP,
        workspaceId: "merchant-pause",
        trigger: "resync",
      },
    });
    const answer = await dashboardAction(SHOP, "pause", noAdmin);
    expect(answer.message).toMatch(/^A sync is in progress/);
    expect((await shop()).state).toBe("active");
  });

  it("replaces a pause the service made, and resuming lifts it for the next attempt to judge", async () => {
    await pauseForStop(SHOP, stopReasonOf(new UnauthorizedError({ message: "revoked" })));
    await dashboardAction(SHOP, "pause", noAdmin);
    expect(await shop()).toMatchObject({ state: "paused", pauseCode: "MERCHANT_PAUSED" });
    await dashboardAction(SHOP, "resume", noAdmin);
    expect((await shop()).state).toBe("active");
  });
});
