/**
 * The live worker's check before each request to the service, tested in the statement that takes
 * the request's place in the key's rate window (`sendCondition` with `takeKeyPlace`): it must
 * hold exactly where the check read on its own (`sendCheck`) lets the request go, on the run's
 * database, dates written by Prisma's models and compared in SQL included.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import { sendCheck, sendCondition } from "../../../app/models/live-pass.server";
import { takeShopLease, type LeaseFence } from "../../../app/models/shop-leases.server";
import { takeKeyPlace } from "../../../app/models/key-rate-windows.server";
import { RATE_LIMITS } from "../../../app/index-service/tiers";

const SHOP = "send-condition.myshopify.com";
const KEY = "send-condition-key";
const MIN_REMAINING_MS = 20_000;

let fence: LeaseFence;
/** When the pass began: a run started at or after it stops the pass's requests. */
let passStartedAt: Date;

const clear = async () => {
  await prisma.syncRun.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.shopLease.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.rateWindow.deleteMany({ where: { keyId: KEY } });
  await prisma.shop.deleteMany({ where: { shopDomain: SHOP } });
};

beforeAll(async () => {
  await prepareAppEnvironment();
});

/** An active shop, its lease held by this worker, a pass begun 5 s ago. */
async function start() {
  await clear();
  await prisma.shop.create({ data: { shopDomain: SHOP, state: "active" } });
  const token = await takeShopLease(SHOP, "this-worker", 60_000);
  fence = { shopDomain: SHOP, token: token! };
  passStartedAt = new Date(Date.now() - 5_000);
  // The key's row exists (a place taken earlier), as for every request after the first.
  expect((await takeKeyPlace(KEY, RATE_LIMITS.enterprise)).waitMs).toBe(0);
}

beforeEach(start);

afterAll(clear);

/** The check as read on its own, and as tested by the statement taking the place. */
async function bothWays(): Promise<{ alone: boolean; inPlace: boolean; placeTaken: boolean }> {
  const check = await sendCheck(fence, MIN_REMAINING_MS, passStartedAt);
  const alone = check.leaseHeld && check.shopState === "active" && !check.runUnfinishedOrSince;
  const taken = await takeKeyPlace(
    KEY,
    RATE_LIMITS.enterprise,
    Date.now,
    sendCondition(fence, MIN_REMAINING_MS, passStartedAt),
  );
  return { alone, inPlace: taken.conditionHeld, placeTaken: taken.waitMs === 0 };
}

describe("the check before a request, in the statement that takes its place", () => {
  it("counts as not tested when the statement waited: the caller then checks on its own", async () => {
    // A clock that moves a second with every look: the write took longer than it may.
    let clock = Date.now();
    const slow = () => (clock += 1_000);
    const taken = await takeKeyPlace(
      KEY,
      RATE_LIMITS.enterprise,
      slow,
      sendCondition(fence, MIN_REMAINING_MS, passStartedAt),
    );
    expect(taken).toEqual({ waitMs: 0, conditionHeld: false });
  });

  it("holds for an active shop whose lease is held, with no run since the pass began", async () => {
    await prisma.syncRun.create({
      data: {
        shopDomain: SHOP,
        workspaceId: "w",
        trigger: "install",
        state: "succeeded",
        startedAt: new Date(passStartedAt.getTime() - 60_000),
      },
    });
    expect(await bothWays()).toEqual({ alone: true, inPlace: true, placeTaken: true });
  });

  it("fails, and the request's place is still taken, where the check alone fails", async () => {
    const cases: [string, () => Promise<unknown>][] = [
      [
        "the shop paused",
        () => prisma.shop.update({ where: { shopDomain: SHOP }, data: { state: "paused" } }),
      ],
      ["the shop gone", () => prisma.shop.delete({ where: { shopDomain: SHOP } })],
      [
        "the lease running out too soon",
        () =>
          prisma.shopLease.update({
            where: { shopDomain: SHOP },
            data: { expiresAt: new Date(Date.now() + MIN_REMAINING_MS / 2) },
          }),
      ],
      [
        "the lease taken by another",
        () => prisma.shopLease.update({ where: { shopDomain: SHOP }, data: { token: "another" } }),
      ],
      [
        "a run unfinished",
        () =>
          prisma.syncRun.create({
            data: {
              shopDomain: SHOP,
              activeShop: SHOP,
              workspaceId: "w",
              trigger: "resync",
              startedAt: new Date(passStartedAt.getTime() - 60_000),
            },
          }),
      ],
      [
        "a run started since the pass began, finished already",
        () =>
          prisma.syncRun.create({
            data: {
              shopDomain: SHOP,
              workspaceId: "w",
              trigger: "resync",
              state: "succeeded",
              startedAt: new Date(passStartedAt.getTime() + 1),
            },
          }),
      ],
    ];
    for (const [name, make] of cases) {
      await start();
      expect(await bothWays(), "before: " + name).toEqual({
        alone: true,
        inPlace: true,
        placeTaken: true,
      });
      await make();
      expect(await bothWays(), name).toEqual({ alone: false, inPlace: false, placeTaken: true });
    }
  });

  it("takes no place for requests going together where the check fails: none is spent for nothing", async () => {
    const limits = { perMinute: 4, perHour: 1_000 };
    const together = () =>
      takeKeyPlace(KEY, limits, Date.now, sendCondition(fence, MIN_REMAINING_MS, passStartedAt), 2);
    expect(await together()).toEqual({ waitMs: 0, conditionHeld: true });
    await prisma.shop.update({ where: { shopDomain: SHOP }, data: { state: "paused" } });
    expect(await together()).toMatchObject({ conditionHeld: false });
    expect((await together()).waitMs).toBeGreaterThan(0);
    // 1 place taken at the start and 2 together: one is left of the 4, as before the refusals.
    expect((await takeKeyPlace(KEY, limits)).waitMs).toBe(0);
    expect((await takeKeyPlace(KEY, limits)).waitMs).toBeGreaterThan(0);
  });
});
