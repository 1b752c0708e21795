/**
 * Figures for many shops syncing at once in one process (printed, never asserted):
 *   npx tsx bench/concurrent-syncs.bench.ts [--products 10000] [--shops 1,5,10] [--database-url postgresql://…]
 *
 * For each count K, a fresh process runs K first syncs of K different shops (N products each) at
 * the same time, each as a full sync runs it (its stock model filled from the stock export, each
 * variant's item at two locations, then the engine), against the emulator in another process with
 * no practical rate limit, on V8's default heap: peak RSS, RSS before syncing, the peak's growth per shop, and wall time. The goal
 * (issue 13): each concurrent sync adds at most 50 MB, ten 10,000-product syncs under 1 GB.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../dev/emulator/server";
import { writeCatalogue } from "../dev/sample-store/catalogue-generator";
import { samplePeakMemory } from "./peak-memory";
import { writeStockExport } from "./stock-export-file";
import { migrateDatabase } from "../app/cli/migrate-database";
import { runFullSync } from "../app/sync/engine/sync-export.server";
import { IndexServiceClient } from "../app/index-service/client";
import { fileSource } from "../app/shopify/bulk-source";
import { RATE_LIMITS } from "../app/index-service/tiers";
import { Pacer } from "../app/sync/engine/pacer";
import { fillStockModelFromExport } from "../app/sync/full/stock-model-export.server";
import prisma from "../app/models/db.server";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    shops: { type: "string", default: "1,5,10" },
    "database-url": { type: "string" },
    child: { type: "string" },
    emulator: { type: "string" },
    file: { type: "string" },
    stock: { type: "string" },
  },
});
const work = mkdtempSync(join(tmpdir(), "concurrent-sync-bench-"));

if (values.child) await child(Number(values.child), values.emulator!, values.file!, values.stock!);
else await main();

async function main() {
  const n = Number(values.products);
  const file = join(work, `store-${n}.jsonl`);
  await writeCatalogue({ products: n, pages: 0, articles: 0, seed: 11 }, file);
  const stock = join(work, `store-${n}-stock.jsonl`);
  await writeStockExport(file, stock);
  const emulator = await startEmulator({
    port: 0,
    accounts: [
      {
        name: "concurrent",
        tier: "enterprise",
        secretKeys: ["svc_sk_bench_concurrent"],
        rateLimits: { perMinute: 1e9, perHour: 1e9 },
        quotas: { products: 1e9 },
      },
    ],
  });
  console.log(
    `Concurrent first syncs in one process, ${n} products each, V8's default heap, ${values["database-url"] ? "PostgreSQL" : "SQLite"}:`,
  );
  let single: number | undefined;
  for (const k of values.shops!.split(",").map(Number)) {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [
          "--import",
          "tsx",
          import.meta.filename,
          "--child",
          String(k),
          "--emulator",
          emulator.url,
          "--file",
          file,
          "--stock",
          stock,
        ],
        { env: process.env, maxBuffer: 1 << 20 },
        (error, stdout, stderr) =>
          error ? reject(new Error(stderr || String(error))) : resolve(stdout),
      ),
    );
    const figures = JSON.parse(out.trim().split("\n").pop()!) as {
      baseMb: number;
      peakMb: number;
      wallS: number;
      products: number;
      modelled: number;
    };
    single ??= figures.peakMb;
    const added =
      k > 1
        ? ` (+${((figures.peakMb - single) / (k - 1)).toFixed(0)} MB per shop beyond the first, goal ≤ 50)`
        : "";
    console.log(
      `  ${String(k).padStart(2)} at once: peak RSS ${figures.peakMb} MB${added}, before syncing ${figures.baseMb} MB, ` +
        `wall ${figures.wallS.toFixed(1)} s, ${figures.products} products indexed, ` +
        `${figures.modelled} inventory items modelled`,
    );
  }
  console.log("  goal: ten 10,000-product syncs at once under 1,024 MB peak RSS");
  await emulator.close();
}

async function child(k: number, emulatorUrl: string, file: string, stock: string) {
  process.env.DATABASE_URL = values["database-url"] ?? `file:${join(work, `concurrent-${k}.db`)}`;
  await migrateDatabase(process.env.DATABASE_URL);
  await prisma.$queryRawUnsafe('SELECT 1 FROM "Shop" LIMIT 1');
  const memory = samplePeakMemory();
  const started = performance.now();
  const run = Date.now().toString(36);
  let modelled = 0;
  const results = await Promise.all(
    Array.from({ length: k }, async (_, i) => {
      const domain = `shop-${i}-${run}.example.com`;
      const fill = await fillStockModelFromExport(domain, fileSource(stock), new Date());
      modelled += fill.modelled;
      return runFullSync({
        shopDomain: domain,
        workspaceId: domain.replaceAll(".", "-"),
        primaryDomain: domain,
        client: new IndexServiceClient({
          baseUrl: emulatorUrl,
          apiKey: "svc_sk_bench_concurrent",
          workspaceId: domain,
        }),
        sources: [{ label: file, open: fileSource(file) }],
        types: ["product"],
        trigger: "cli",
        tier: "enterprise",
        pacer: new Pacer({ limits: { ...RATE_LIMITS.enterprise, perMinute: 1e9, perHour: 1e9 } }),
      });
    }),
  );
  const { baseRss: base, peakRss: peak } = memory.stop();
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  console.log(
    JSON.stringify({
      baseMb: mb(base),
      peakMb: mb(peak),
      wallS: (performance.now() - started) / 1000,
      products: results.reduce((sum, r) => sum + r.counts.products.sent, 0),
      modelled,
    }),
  );
  await prisma.$disconnect();
}
