/**
 * Run history retention (docs/sync.md, Retention): a catalogue over its monthly quota synced again
 * and again, through Shopify's bulk exports as Resync does, leaves bounded tables: the newest
 * SYNC_RUNS_KEPT finished runs with their counts, their exports' records, and only the items the
 * newest complete run could not deliver. The ledger, what the index holds, is untouched.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  installShop,
  SHOP,
  startLiveEnvironment,
  waitFor,
  waitForRunsToFinish,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { startShopSync } from "../../../app/sync/full/run-full-sync.server";
import { recentRuns, runCounts } from "../../../app/models/sync-runs.server";

const RUNS_KEPT = 3;
const PERSONAL_PRODUCT_QUOTA = 200;
let env: LiveEnvironment;

beforeAll(async () => {
  // Personal tier, the service's own quota of 200 products a month; the store has more.
  env = await startLiveEnvironment({
    products: 300,
    account: { tier: "personal", quotas: undefined },
    appEnvironment: { SYNC_RUNS_KEPT: String(RUNS_KEPT) },
  });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

it("ten syncs of a catalogue over quota leave the run history bounded and its counts intact", async () => {
  const first = await recentRuns(SHOP, 1);
  const overQuota = (await runCounts(first[0]!)).products.overQuota;
  expect(overQuota).toBeGreaterThan(0);

  for (let run = 0; run < 9; run++) {
    await startShopSync(SHOP, "resync");
    await waitForRunsToFinish(env, 60_000);
  }

  // Ten runs in all; the newest three stay, each still saying what it did. A run is pruned
  // just after the run that ends it is marked finished, so the last prune may still be under way.
  await waitFor("the run history pruned", async () => {
    const runsLeft = await env.prisma.syncRun.count({ where: { shopDomain: SHOP } });
    return runsLeft <= RUNS_KEPT && (await env.prisma.syncItem.count()) <= overQuota;
  });
  const runs = await env.prisma.syncRun.findMany({ where: { shopDomain: SHOP } });
  expect(runs).toHaveLength(RUNS_KEPT);
  for (const run of await recentRuns(SHOP, 6)) {
    expect((await runCounts(run)).products).toMatchObject({ sent: 0, overQuota, failed: 0 });
  }
  // Staging: only the newest run's undelivered items, once, not once per run.
  expect(await env.prisma.syncItem.count()).toBe(overQuota);
  const kept = new Set(runs.map((run) => run.id));
  const exports = await env.prisma.bulkExport.findMany({ where: { shopDomain: SHOP } });
  // Four exports a run: products, pages, articles and the stock model's.
  expect(exports.length).toBeLessThanOrEqual(RUNS_KEPT * 4);
  expect(exports.every((bulkExport) => kept.has(bulkExport.runId))).toBe(true);
  // The ledger still says what the index holds: the quota's worth of products.
  expect(await env.prisma.indexedItem.count({ where: { shopDomain: SHOP, kind: "product" } })).toBe(
    PERSONAL_PRODUCT_QUOTA,
  );
}, 240_000);
