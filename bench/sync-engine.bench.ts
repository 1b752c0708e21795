/**
 * Figures for the sync engine (printed, never asserted):
 *   npx tsx bench/sync-engine.bench.ts [--products 10000] [--memory 10000,50000,100000]
 *
 * 1. First sync of N products on the emulator at Enterprise limits: write requests, wall time,
 *    and the pipeline's own rate (export → map → hash → ledger compare → staged in the database,
 *    no network); against a baseline that sends one POST /products per product.
 * 2. A resync with nothing changed: write requests.
 * 3. Peak memory (RSS) of a whole sync run for growing catalogues, each in its own process.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../dev/emulator/server";
import { writeCatalogue } from "../dev/sample-store/catalogue-generator";
import { samplePeakMemory } from "./peak-memory";
import { migrateDatabase } from "../app/cli/migrate-database";
import { runFullSync } from "../app/sync/engine/sync-export.server";
import { IndexServiceClient } from "../app/index-service/client";
import { fileSource } from "../app/shopify/bulk-source";
import { mapCatalogueItem, readBulkExport } from "../app/catalogue";
import { RATE_LIMITS } from "../app/index-service/tiers";
import { Pacer } from "../app/sync/engine/pacer";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    memory: { type: "string", default: "10000,50000,100000" },
    child: { type: "string" },
    emulator: { type: "string" },
  },
});
const work = mkdtempSync(join(tmpdir(), "sync-bench-"));

if (values.child) {
  await memoryChild(Number(values.child), values.emulator!);
} else {
  await main();
}

/** An emulator account with no practical rate limit or quota, key `svc_sk_bench_<name>`. */
function unthrottledAccount(name: string) {
  return {
    name,
    tier: "enterprise" as const,
    secretKeys: [`svc_sk_bench_${name}`],
    rateLimits: { perMinute: 1e9, perHour: 1e9 },
    quotas: { products: 1e9 },
  };
}

async function main() {
  const n = Number(values.products);
  // The baseline's own account: one request per product would need N/300 minutes at Enterprise
  // limits, so it runs unthrottled and its time at the limit is computed.
  const emulator = await startEmulator({ port: 0, accounts: [unthrottledAccount("baseline")] });
  const file = join(work, `store-${n}.jsonl`);
  await writeCatalogue({ products: n, pages: 0, articles: 0, seed: 7 }, file);
  process.env.DATABASE_URL = `file:${join(work, "bench.db")}`;
  await migrateDatabase(process.env.DATABASE_URL!);

  const client = new IndexServiceClient({
    baseUrl: emulator.url,
    apiKey: "svc_sk_test_enterprise",
    workspaceId: "bench.example.com",
  });
  const writes = () =>
    emulator.state.requests().filter((r) => r.method !== "GET" && !r.path.startsWith("/__")).length;
  const phaseTimes = new Map<string, number>();
  const sync = async () => {
    const started = performance.now();
    const result = await runFullSync({
      shopDomain: "bench.example.com",
      workspaceId: "bench-example-com",
      primaryDomain: "bench.example.com",
      client,
      sources: [{ label: file, open: fileSource(file) }],
      types: ["product", "page", "article"],
      trigger: "cli",
      tier: "enterprise",
      onProgress: ({ phase }) => {
        if (!phaseTimes.has(phase)) phaseTimes.set(phase, performance.now());
      },
    });
    return { result, ms: performance.now() - started };
  };

  emulator.state.clearRequests();
  phaseTimes.clear();
  const first = await sync();
  const firstWrites = writes();
  const pipelineMs =
    (phaseTimes.get("send") ?? performance.now()) - (phaseTimes.get("export") ?? 0);
  const indexable = first.result.counts.products.sent + first.result.counts.products.overQuota;

  emulator.state.clearRequests();
  const again = await sync();
  const resyncWrites = writes();

  // Baseline: one POST /products per product, the same items.
  const baseline = new IndexServiceClient({
    baseUrl: emulator.url,
    apiKey: "svc_sk_bench_baseline",
    workspaceId: "baseline.example.com",
  });
  const bulk = await readBulkExport(fileSource(file));
  emulator.state.clearRequests();
  const baselineStarted = performance.now();
  for await (const object of bulk.items()) {
    const mapped = mapCatalogueItem(object, { primaryDomain: "baseline.example.com" });
    if (mapped.indexable && mapped.kind === "product") await baseline.upsertProduct(mapped.item);
  }
  const baselineMs = performance.now() - baselineStarted;
  const baselineWrites = writes();
  await emulator.close();

  console.log(
    `Sync engine, ${n} products (${indexable} indexable), emulator at Enterprise limits (300/min, 5,000/h)`,
  );
  console.log(
    `  first sync        write requests ${firstWrites} (goal ceil(${indexable}/100) = ${Math.ceil(indexable / 100)}), wall ${(first.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `  pipeline          ${Math.round(n / (pipelineMs / 1000))} products/s (export, map, hash, ledger, staging; no network)`,
  );
  console.log(
    `  resync unchanged  write requests ${resyncWrites} (goal 0), wall ${(again.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `  baseline          write requests ${baselineWrites} (one POST /products each), wall ${(baselineMs / 1000).toFixed(2)} s unthrottled, ` +
      `${(baselineWrites / 300).toFixed(1)} min at 300 requests/min`,
  );

  console.log(
    `Peak memory of the sync process (the emulator runs in another), one process per size:`,
  );
  const memoryEmulator = await startEmulator({ port: 0, accounts: [unthrottledAccount("memory")] });
  // Each size twice: with V8's default heap (it lets garbage pile up before collecting) and with
  // the heap capped at 64 MB, which shows what the run really needs.
  for (const size of values.memory!.split(",").map(Number)) {
    for (const heapCap of [undefined, 64]) {
      const args = [
        ...(heapCap ? [`--max-old-space-size=${heapCap}`] : []),
        "--import",
        "tsx",
        import.meta.filename,
      ];
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [...args, "--child", String(size), "--emulator", memoryEmulator.url],
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      console.log(
        `  ${heapCap ? `heap capped at ${heapCap} MB` : "default heap       "}  ${out.trim()}`,
      );
    }
  }
  await memoryEmulator.close();
}

/** One sync of `n` products in this process; prints its peak RSS. */
async function memoryChild(n: number, emulatorUrl: string) {
  const file = join(work, `memory-${n}.jsonl`);
  await writeCatalogue({ products: n, pages: 0, articles: 0, seed: 8 }, file);
  process.env.DATABASE_URL = `file:${join(work, `memory-${n}.db`)}`;
  await migrateDatabase(process.env.DATABASE_URL!);
  const memory = samplePeakMemory();
  const started = performance.now();
  const result = await runFullSync({
    shopDomain: `memory-${n}.example.com`,
    workspaceId: `memory-${n}-example-com`,
    primaryDomain: `memory-${n}.example.com`,
    client: new IndexServiceClient({
      baseUrl: emulatorUrl,
      apiKey: "svc_sk_bench_memory",
      workspaceId: `memory-${n}.example.com`,
    }),
    sources: [{ label: file, open: fileSource(file) }],
    types: ["product"],
    trigger: "cli",
    tier: "enterprise",
    pacer: new Pacer({ limits: { ...RATE_LIMITS.enterprise, perMinute: 1e9, perHour: 1e9 } }),
  });
  const { peakRss: peak, peakHeap } = memory.stop();
  console.log(
    `${String(n).padStart(7)} products: peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB, peak heap ${(peakHeap / 1024 / 1024).toFixed(0)} MB, ` +
      `${result.counts.products.sent} sent in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
