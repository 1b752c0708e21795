/**
 * Bulk upsert throughput against the emulator over real HTTP (loopback), Enterprise key,
 * batches of 100 products, one request in flight and four.
 *   npx tsx bench/emulator-bulk.bench.ts
 * Prints figures; asserts nothing. Stays within Enterprise's 300 requests a minute and its
 * 10,000 new products a month: 5,000 products are created, then re-sent as updates.
 */
import { IndexServiceClient } from "../app/index-service/client";
import type { IndexProduct } from "../app/index-service/types";
import { startEmulator } from "../dev/emulator/server";

const BATCH = 100;
const DISTINCT_BATCHES = 50;
const REQUESTS = 250;

function batchOf(index: number): IndexProduct[] {
  const start = (index % DISTINCT_BATCHES) * BATCH;
  return Array.from({ length: BATCH }, (_, offset) => {
    const n = start + offset;
    return {
      id: `gid://shopify/Product/${n}`,
      name: `Product ${n} — café edition`,
      price: 10 + (n % 90),
      categories: ["Kitchen", "Mugs"],
      tags: ["ceramic", `tag${n % 13}`],
      content: `A sturdy stoneware mug number ${n}. Dishwasher safe, holds 350 ml.`,
      url: `https://shop.example.com/products/product-${n}`,
      image: `https://cdn.example.com/p/${n}.jpg`,
      stock_status: "instock",
      source: "shopify",
    };
  });
}

const emulator = await startEmulator();
const client = new IndexServiceClient({
  baseUrl: emulator.url,
  apiKey: "svc_sk_test_enterprise",
  workspaceId: "bench.example.com",
});

async function run(concurrency: number): Promise<void> {
  emulator.state.reset();
  const latencies: number[] = [];
  let next = 0;
  let items = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < REQUESTS) {
        const batch = batchOf(next++);
        const sent = performance.now();
        const { data } = await client.bulkUpsertProducts(batch);
        latencies.push(performance.now() - sent);
        items += data.successfulIds.length;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => (latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(1);
  console.log(
    `  concurrency ${concurrency}: ${Math.round(items / seconds).toLocaleString("en")} items/s ` +
      `(${Math.round(REQUESTS / seconds)} requests/s; latency p50 ${p(0.5)} ms, p95 ${p(0.95)} ms)`,
  );
}

console.log(
  `Emulator bulk upsert: ${REQUESTS} requests × ${BATCH} products over HTTP at ${emulator.url}`,
);
await run(1); // warm-up
await run(1);
await run(4);
await emulator.close();
