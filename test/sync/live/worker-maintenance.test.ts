import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import * as maintenance from "../../../app/sync/live/maintenance.server";
import * as context from "../../../app/sync/live/worker-context";
import * as pacers from "../../../app/sync/engine/pacer-registry.server";
import * as leases from "../../../app/sync/engine/process-leases.server";
import { KeptLeases } from "../../../app/sync/live/kept-leases";

const KEPT = "kept.myshopify.com";
const UNINSTALLED = "left.myshopify.com";
const ERASED = "erased.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment();
  for (const [shopDomain, state] of [
    [KEPT, "active"],
    [UNINSTALLED, "uninstalled"],
  ] as const) {
    await prisma.shop.upsert({
      where: { shopDomain },
      create: { shopDomain, state },
      update: { state },
    });
  }
  await prisma.shop.deleteMany({ where: { shopDomain: ERASED } });
});

/** A worker's shared state on a clock the test moves, with no jitter. */
function workerOn(clock: { at: Date }) {
  const now = () => clock.at;
  const memory = new context.ShopMemory({ baseMs: 1_000, maxMs: 60_000 }, now, () => 0);
  const registry = new pacers.PacerRegistry();
  const launched: string[] = [];
  const shopLeases = new leases.ShopLeases("maintenance-test");
  const worker = {
    coalesceMs: 0,
    batchSize: 100,
    quotaProbeEveryMs: 3_600_000,
    backlogResyncAt: 0,
    registry,
    leases: shopLeases,
    keptLeases: new KeptLeases(shopLeases, 0),
    admin: () => Promise.reject(new Error("no Admin API in this test")),
    serviceClient: () => {
      throw new Error("no service in this test");
    },
    now,
    log: () => undefined,
    memory,
    stopped: () => false,
    launch: (shopDomain: string) => void launched.push(shopDomain),
  };
  return { worker, memory, registry };
}

describe("the live worker's memory of each shop", () => {
  it("runs on the worker's clock: a failed shop waits out its backoff, then is served again", () => {
    const clock = { at: new Date("2026-05-01T12:00:00.000Z") };
    const { memory } = workerOn(clock);
    memory.failed(KEPT);
    expect(memory.coolingDown(KEPT)).toBe(true);
    clock.at = new Date(clock.at.getTime() + 499);
    expect(memory.coolingDown(KEPT)).toBe(true);
    clock.at = new Date(clock.at.getTime() + 1);
    expect(memory.coolingDown(KEPT)).toBe(false);
  });

  it("is forgotten by the maintenance for shops that are uninstalled or gone, kept for the others", async () => {
    const clock = { at: new Date("2026-05-01T12:00:00.000Z") };
    const { worker, memory, registry } = workerOn(clock);
    memory.failed(KEPT);
    memory.failed(UNINSTALLED);
    memory.noteQuotaProbe(UNINSTALLED, clock.at);
    memory.noteRefused(ERASED, [{ productId: "632910392", attempts: 1 }]);
    registry.pacerFor(KEPT, "personal");
    registry.pacerFor(UNINSTALLED, "personal");
    registry.pacerFor(ERASED, "personal");
    expect(memory.shops().sort()).toEqual([ERASED, KEPT, UNINSTALLED].sort());

    await maintenance.maintain(worker);

    expect(memory.shops()).toEqual([KEPT]);
    expect(registry.existingPacer(KEPT)).toBeDefined();
    expect(registry.existingPacer(UNINSTALLED)).toBeUndefined();
    expect(registry.existingPacer(ERASED)).toBeUndefined();
  });
});
