/**
 * The live worker's CPU per change (`catalog_chat_live_worker_cpu_seconds_total`, decision 0061)
 * leaves out what the process did while a pass waited out Shopify's cost bucket: here a pass's
 * Admin API request is THROTTLED (the fake's bucket emptied), and while it waits the process
 * burns 1.5 s of CPU on other work. The burn starts in the step after queryAdmin counted the
 * THROTTLED answer and began its wait (about 2 s), and is synchronous: it lies wholly inside the
 * wait whatever the machine's speed, since no timer can end the wait before the burn is over.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import {
  indexableProduct,
  indexedItem,
  installShop,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { appMetrics } from "../../../app/server/metrics";
import { burnCpu } from "../../../testkit/burn-cpu";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 10, seed: 61 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const counted = async (metric: { get(): Promise<{ values: { value: number }[] }> }) =>
  (await metric.get()).values.reduce((sum, entry) => sum + entry.value, 0);

it("a pass that waits out Shopify's bucket is not charged the process's other work meanwhile", async () => {
  const metrics = appMetrics();
  const product = indexableProduct(env);
  env.shopify.state.updateProduct(
    product.id,
    { title: "Renamed during a throttled pass" },
    { webhook: true },
  );
  await env.shopify.state.settled();
  const cpuBefore = await counted(metrics.liveWorkerCpuSeconds);
  const throttled = metrics.adminApiThrottled;
  const countThrottled = throttled.inc.bind(throttled);
  let burned = false;
  // queryAdmin counts the THROTTLED answer, then begins its wait in the same step.
  vi.spyOn(throttled, "inc").mockImplementation(() => {
    countThrottled();
    if (burned) return;
    burned = true;
    setImmediate(() => burnCpu(1_500_000));
  });
  // The pass's re-read costs more than the bucket holds: it is THROTTLED and waits.
  env.shopify.state.setAvailablePoints(0);

  const worker = await startTestWorker();
  try {
    await waitForEmptyOutbox(env);
    await waitFor(
      "the change in the index",
      async () => indexedItem(env, product.id)?.name === "Renamed during a throttled pass",
    );
  } finally {
    await worker.stop();
    vi.restoreAllMocks();
  }
  expect(burned).toBe(true);

  const served = (await counted(metrics.liveWorkerCpuSeconds)) - cpuBefore;
  expect(await counted(metrics.liveWorkerChanges)).toBeGreaterThan(0);
  // The pass's own work is about 0.1 s here; the 1.5 s burned meanwhile is not its.
  expect(served).toBeGreaterThan(0);
  expect(served).toBeLessThan(0.75);
});
