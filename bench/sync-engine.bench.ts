/**
 * Figures for the sync engine (printed, never asserted):
 *   npx tsx bench/sync-engine.bench.ts [--products 10000] [--memory 10000,50000,100000] [--capped 64]
 *     [--heap-profile]
 *
 * 1. First sync of N products on the emulator at Enterprise limits: write requests, wall time,
 *    and the pipeline's own rate (export → map → hash → ledger compare → staged in the database,
 *    no network); against a baseline that sends one POST /products per product.
 * 2. A resync with nothing changed: write requests.
 *    Each run's write requests are told apart: content writes (bulk upserts and deletes) and the
 *    key check every run starts with (a delete of an id nothing has: it changes nothing and costs
 *    one request of the tier's rate limit, no quota).
 * 3. Peak memory (RSS) of a whole sync run for growing catalogues, each in its own process: the
 *    stock model filled from the stock export (each variant's item at two locations), then the
 *    engine, as a full sync runs them.
 *    --heap-profile: each of those runs also samples what it allocated that reached V8's old
 *    generation (died in a full collection, or alive at the end), and prints its total and where
 *    most of it was made. A diagnostic: the sampling itself costs memory, so its runs' peaks are
 *    not figures.
 */
import { execFile } from "node:child_process";
import { Session } from "node:inspector/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { describePeak, samplePeakMemory } from "./peak-memory";
import { writeStockExport } from "./stock-export-file";
import { migrateDatabase } from "../app/cli/migrate-database";
import { runFullSync } from "../app/sync/engine/sync-export.server";
import { IndexServiceClient } from "../app/index-service/client";
import { fileSource } from "../app/shopify/bulk-source";
import { RATE_LIMITS } from "../app/index-service/tiers";
import { Pacer } from "../app/sync/engine/pacer";
import { fillStockModelFromExport } from "../app/sync/full/stock-model-export.server";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    memory: { type: "string", default: "10000,50000,100000" },
    // The heap cap of the second run of each size, in MB ('' for the default heap's run only).
    capped: { type: "string", default: "64" },
    "heap-profile": { type: "boolean", default: false },
    child: { type: "string" },
    emulator: { type: "string" },
    file: { type: "string" },
    stock: { type: "string" },
  },
});
const work = mkdtempSync(join(tmpdir(), "sync-bench-"));

if (values.child) {
  await memoryChild(Number(values.child), values.emulator!, values.file!, values.stock!);
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
  // Imported here, not at the top: the memory runs' processes (memoryChild) load only the engine.
  const { startEmulator } = await import("../dev/emulator/server");
  const { writeCatalogue } = await import("../dev/sample-store/catalogue-generator");
  const { mapCatalogueItem, readBulkExport } = await import("../app/catalogue");
  const { KEY_PROBE_ID } = await import("../app/sync/engine/tier-detection");
  const n = Number(values.products);
  // The baseline's own account: one request per product would need N/300 minutes at Enterprise
  // limits, so it runs unthrottled and its time at the limit is computed.
  const emulator = await startEmulator({
    port: 0,
    accounts: [unthrottledAccount("baseline")],
    logBodies: true,
  });
  const file = join(work, `store-${n}.jsonl`);
  await writeCatalogue({ products: n, pages: 0, articles: 0, seed: 7 }, file);
  process.env.DATABASE_URL = `file:${join(work, "bench.db")}`;
  await migrateDatabase(process.env.DATABASE_URL!);

  const client = new IndexServiceClient({
    baseUrl: emulator.url,
    apiKey: "svc_sk_test_enterprise",
    workspaceId: "bench.example.com",
  });
  /** The run's write requests: the key check apart, the content writes counted by route. */
  const writes = () => {
    let keyChecks = 0;
    const content = new Map<string, number>();
    for (const request of emulator.state.requests()) {
      if (request.method === "GET" || request.path.startsWith("/__")) continue;
      const ids = (request.body as { ids?: unknown } | undefined)?.ids;
      if (Array.isArray(ids) && ids.length === 1 && ids[0] === KEY_PROBE_ID) keyChecks += 1;
      else {
        const route = `${request.method} ${request.path}`;
        content.set(route, (content.get(route) ?? 0) + 1);
      }
    }
    const total = [...content.values()].reduce((sum, count) => sum + count, 0);
    const routes = [...content].map(([route, count]) => `${count} ${route}`).join(", ");
    return { total, keyChecks, text: `${total}${routes ? ` (${routes})` : ""}` };
  };
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
    `  first sync        content writes ${firstWrites.text} (goal ceil(${indexable}/100) = ${Math.ceil(indexable / 100)}), ` +
      `key checks ${firstWrites.keyChecks}, wall ${(first.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `  pipeline          ${Math.round(n / (pipelineMs / 1000))} products/s (export, map, hash, ledger, staging; no network)`,
  );
  console.log(
    `  resync unchanged  content writes ${resyncWrites.text} (goal 0), key checks ${resyncWrites.keyChecks} ` +
      `(changes nothing, 1 request of the rate limit), wall ${(again.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `  baseline          write requests ${baselineWrites.total} (one POST /products each), wall ${(baselineMs / 1000).toFixed(2)} s unthrottled, ` +
      `${(baselineWrites.total / 300).toFixed(1)} min at 300 requests/min`,
  );

  console.log(
    `Peak memory of the sync process (the emulator runs in another), one process per size:`,
  );
  const memoryEmulator = await startEmulator({ port: 0, accounts: [unthrottledAccount("memory")] });
  // The measured processes run the engine as `npm run build` bundles the app's commands
  // (scripts/build-commands.mjs): plain node, no TypeScript loader, as the app server, the worker
  // and `npm run sync` run it. Two folders deep, as build/cli/ is.
  // Imported here: bundled into the measured process, its own "am I the script run" check
  // would see the bundle's name and build the commands.
  const { bundleForNode } = await import("../scripts/build-commands.mjs");
  const childFolder = join(import.meta.dirname, "..", "build", "bench");
  rmSync(childFolder, { recursive: true, force: true });
  await bundleForNode([import.meta.filename], childFolder);
  const childScript = join(childFolder, "sync-engine.bench.js");
  // Each size twice: with V8's default heap (it lets garbage pile up before collecting) and with
  // the heap capped at 64 MB, which shows what the run really needs.
  for (const size of values.memory!.split(",").filter(Boolean).map(Number)) {
    // Written here: generating the catalogue in the measured process left its garbage in that
    // process's resident memory before the sync began.
    const catalogue = join(work, `memory-${size}.jsonl`);
    await writeCatalogue({ products: size, pages: 0, articles: 0, seed: 8 }, catalogue);
    const stock = join(work, `memory-${size}-stock.jsonl`);
    await writeStockExport(catalogue, stock);
    for (const heapCap of [undefined, ...(values.capped ? [Number(values.capped)] : [])]) {
      const args = [...(heapCap ? [`--max-old-space-size=${heapCap}`] : []), childScript];
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [
            ...args,
            ...(values["heap-profile"] ? ["--heap-profile"] : []),
            "--child",
            String(size),
            "--emulator",
            memoryEmulator.url,
            "--file",
            catalogue,
            "--stock",
            stock,
          ],
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

/**
 * One sync of `n` products from `file` in this process, as a full sync runs it: the stock model
 * filled from its export (`stock`), then the engine; prints its peak RSS.
 */
async function memoryChild(n: number, emulatorUrl: string, file: string, stock: string) {
  process.env.DATABASE_URL = `file:${join(work, `memory-${n}.db`)}`;
  await migrateDatabase(process.env.DATABASE_URL!);
  const profiler = values["heap-profile"] ? await startOldGenerationProfile() : null;
  const memory = samplePeakMemory();
  const started = performance.now();
  // The fill's own peak apart; the whole run's peak is the larger of the two.
  const fillMemory = samplePeakMemory();
  const fill = await fillStockModelFromExport(
    `memory-${n}.example.com`,
    fileSource(stock),
    new Date(),
  );
  const fillPeak = fillMemory.stop().peakRss;
  const fillSeconds = (performance.now() - started) / 1000;
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
  const { baseRss, peakRss: peak, peakHeap, atPeak } = memory.stop();
  console.log(
    `${String(n).padStart(7)} products: peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB (${(baseRss / 1024 / 1024).toFixed(0)} MB before the sync), peak heap ${(peakHeap / 1024 / 1024).toFixed(0)} MB, ` +
      `stock model ${fill.modelled.toLocaleString("en")} items filled in ${fillSeconds.toFixed(1)} s (its peak RSS ${(fillPeak / 1024 / 1024).toFixed(0)} MB), ` +
      `${result.counts.products.sent} sent in ${((performance.now() - started) / 1000).toFixed(1)} s in all; ${describePeak(atPeak)}`,
  );
  if (profiler) console.log(await profiler.stop());
}

interface SampledNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: SampledNode[];
}

/**
 * V8's sampling heap profiler, keeping the samples of objects a full collection freed (not those
 * a young collection did): so what it counts reached the old generation. `stop()` describes it:
 * the total and the five call paths (their last three frames, caller > callee) that made most of it.
 */
async function startOldGenerationProfile(): Promise<{ stop(): Promise<string> }> {
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
  return {
    async stop() {
      const { profile } = await session.post("HeapProfiler.stopSampling");
      session.disconnect();
      const byPath = new Map<string, number>();
      const walk = (node: SampledNode, frames: string[]) => {
        const { functionName, url } = node.callFrame;
        const here = [...frames, `${functionName || "(anonymous)"} ${url.split("/").pop() ?? ""}`];
        if (node.selfSize > 0) {
          const path = here.slice(-3).join(" > ");
          byPath.set(path, (byPath.get(path) ?? 0) + node.selfSize);
        }
        for (const child of node.children) walk(child, here);
      };
      walk(profile.head as SampledNode, []);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      const total = [...byPath.values()].reduce((sum, size) => sum + size, 0);
      const top = [...byPath].sort((a, b) => b[1] - a[1]).slice(0, 5);
      return [
        `           reached the old generation (died there, or alive at the end): ${mb(total)}; most made in`,
        ...top.map(([path, size]) => `             ${mb(size).padStart(9)}  ${path}`),
      ].join("\n");
    },
  };
}
