/**
 * npx tsx bench/catalogue-pipeline.bench.ts [--products N] [--seed S] [--keep]
 *
 * Generates a catalogue of N products (default: 10,000 and then 100,000) to a temporary JSONL
 * file, then times what a full sync does with it before sending anything: scan and assembly of
 * the bulk export, mapping to the service's shapes and content hashing. Each size runs in its own
 * process so its peak memory is its own. Prints figures; asserts nothing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readBulkExport } from "../app/catalogue/bulk-jsonl";
import { fileSource } from "../app/shopify/bulk-source";
import { contentHash } from "../app/catalogue/content-hash";
import { mapCatalogueItem } from "../app/catalogue/map-item";
import { writeCatalogue } from "../dev/sample-store/catalogue-generator";
import { samplePeakMemory } from "./peak-memory";

const { values } = parseArgs({
  options: {
    products: { type: "string" },
    seed: { type: "string", default: "1" },
    run: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

interface RunResult {
  products: number;
  items: number;
  indexable: number;
  scanSeconds: number;
  totalSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  peakHeapMb: number;
  lateParents: number;
  maxHeld: number;
}

const MB = 1024 * 1024;

/** Child process: the pipeline over one file, as the sync engine would run it. */
async function run(path: string): Promise<RunResult> {
  const memory = samplePeakMemory();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const bulk = await readBulkExport(fileSource(path));
  const scanned = performance.now();
  let items = 0;
  let indexable = 0;
  for await (const item of bulk.items()) {
    const result = mapCatalogueItem(item, { primaryDomain: "sample-store.example" });
    if (result.indexable) {
      contentHash(result.item);
      indexable += 1;
    }
    items += 1;
    if (items % 2000 === 0) memory.sample();
  }
  const finished = performance.now();
  const cpuUsed = process.cpuUsage(cpu);
  const { peakHeap } = memory.stop();
  return {
    products: bulk.stats.emitted.Product,
    items,
    indexable,
    scanSeconds: (scanned - started) / 1000,
    totalSeconds: (finished - started) / 1000,
    cpuSeconds: (cpuUsed.user + cpuUsed.system) / 1e6,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    peakHeapMb: peakHeap / MB,
    lateParents: bulk.scan.lateParents.size,
    maxHeld: bulk.stats.maxHeld,
  };
}

function runInChild(path: string): Promise<RunResult> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, "--run", path], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`benchmark run exited with ${code}`));
      else resolve(JSON.parse(output.trim().split("\n").pop() ?? "{}") as RunResult);
    });
  });
}

if (values.run) {
  console.log(JSON.stringify(await run(values.run)));
} else {
  const sizes = values.products ? [Number(values.products)] : [10_000, 100_000];
  const directory = mkdtempSync(join(tmpdir(), "catalogue-bench-"));
  console.log(`node ${process.version}, seed ${values.seed}`);
  try {
    for (const products of sizes) {
      const path = join(directory, `catalogue-${products}.jsonl`);
      const generation = performance.now();
      const summary = await writeCatalogue(
        {
          products,
          pages: Math.ceil(products / 100),
          articles: Math.ceil(products / 100),
          seed: values.seed,
        },
        path,
      );
      const generated = (performance.now() - generation) / 1000;
      const size = statSync(path).size / MB;
      const result = await runInChild(path);
      const perSecond = Math.round(result.products / result.totalSeconds);
      const perCpuSecond = Math.round(result.products / result.cpuSeconds);
      console.log(
        [
          `\n${products.toLocaleString("en")} products (${summary.variants.toLocaleString("en")} variants, ` +
            `${summary.lines.toLocaleString("en")} lines, ${size.toFixed(0)} MB; generated in ${generated.toFixed(1)} s)`,
          `  scan (pass 1)              ${result.scanSeconds.toFixed(2)} s`,
          `  scan + assemble + map + hash ${result.totalSeconds.toFixed(2)} s → ${perSecond.toLocaleString("en")} products/s ` +
            `(${result.items.toLocaleString("en")} items, ${result.indexable.toLocaleString("en")} indexable)`,
          `  CPU time ${result.cpuSeconds.toFixed(2)} s → ${perCpuSecond.toLocaleString("en")} products per CPU-second`,
          `  peak RSS ${result.peakRssMb.toFixed(0)} MB, peak heap used ${result.peakHeapMb.toFixed(0)} MB ` +
            `(late parents ${result.lateParents}, at most ${result.maxHeld} held at once)`,
        ].join("\n"),
      );
    }
  } finally {
    if (values.keep) console.log(`\nfiles kept in ${directory}`);
    else rmSync(directory, { recursive: true, force: true });
  }
}
