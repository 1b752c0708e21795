/**
 * What chosen metafields add to a full sync (issue 25, item 8), printed, never asserted:
 *   npx tsx bench/metafields-export.bench.ts [--products 10000] [--rounds 2] [--seed 25]
 *
 * One fake Shopify store of N generated products, with metafields of six definitions on a share
 * of them (five chosen, four of products and one of variants; one not: the store holds more than
 * the merchant picks), two chosen metaobject definitions (an FAQ and size charts) with their
 * entries, and the service emulator, all in this process. Each run is a child process doing what a
 * full sync does: the products' bulk export (started, polled, downloaded), the chosen definitions'
 * entries (paged queries, decision 0030), the mapping of the JSONL to documents, and the sending
 * to the emulator into a fresh workspace with a fresh database. Runs without the chosen fields and
 * with them take turns (the order flips each round), so drift on a shared machine falls on both.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startEmulator } from "../dev/emulator/server";
import { startFakeShopify } from "../dev/fake-shopify/server";
import { Prng } from "../dev/sample-store/prng";
import { shopifyAdminClient } from "../testkit/shopify-admin-client";
import { migrateDatabase } from "../app/cli/migrate-database";
import { readMetaobjectEntries } from "../app/sync/full/metaobject-entries.server";
import {
  contentHash,
  mapCatalogueItem,
  productsBulkQuery,
  productsByIdsRead,
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  readBulkExport,
  type ChosenMetafield,
} from "../app/catalogue";
import { queryAdmin } from "../app/shopify/admin-graphql";
import { readBulkOperation, startBulkQuery } from "../app/shopify/bulk-operation";
import { downloadBulkExport, fileSource } from "../app/shopify/bulk-source";
import { IndexServiceClient } from "../app/index-service/client";
import { RATE_LIMITS } from "../app/index-service/tiers";
import { Pacer } from "../app/sync/engine/pacer";
import { runFullSync } from "../app/sync/engine/sync-export.server";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    rounds: { type: "string", default: "2" },
    seed: { type: "string", default: "25" },
    child: { type: "string" },
    shopify: { type: "string" },
    emulator: { type: "string" },
    workspace: { type: "string" },
  },
});

const MB = 1024 * 1024;
const ACCOUNT = "metafields";
const SECRET_KEY = `svc_sk_bench_${ACCOUNT}`;

/**
 * The five the merchant chose, in Settings' order, each with the share of products (of variants,
 * for a variant's) that has it.
 */
const CHOSEN: readonly (ChosenMetafield & { share: number })[] = [
  {
    name: "Material",
    namespace: "specs",
    key: "material",
    type: "single_line_text_field",
    share: 0.85,
  },
  {
    name: "Care instructions",
    namespace: "specs",
    key: "care",
    type: "multi_line_text_field",
    share: 0.6,
  },
  { name: "Weight", namespace: "specs", key: "weight", type: "weight", share: 0.7 },
  { name: "Rating", namespace: "reviews", key: "rating", type: "rating", share: 0.45 },
  {
    name: "Chest width",
    namespace: "specs",
    key: "chest_width",
    type: "dimension",
    owner: "PRODUCTVARIANT",
    share: 0.6,
  },
];
/** The two metaobject definitions chosen (the fake's sample ones), and how many entries each has. */
const CHOSEN_METAOBJECTS = [
  { type: "faq", entries: 40 },
  { type: "size_chart", entries: 200 },
] as const;
/** On products too, not chosen: never asked for. */
const NOT_CHOSEN = { namespace: "specs", key: "waterproof", type: "boolean", share: 0.4 };

const MATERIALS = [
  "Organic cotton",
  "Merino wool, 18.5 micron",
  "Recycled polyester and elastane",
  "Linen, stonewashed",
  "Full-grain leather, vegetable tanned",
  "Ceramic stoneware with a food-safe glaze",
  "Oak veneer on birch plywood",
];
const CARE_LINES = [
  "Machine wash at 30 °C with similar colours.",
  "Do not tumble dry; dry flat in the shade.",
  "Iron on a low setting, inside out.",
  "Wipe clean with a damp cloth.",
  "Condition the leather twice a year.",
  "Dishwasher safe; not for the microwave.",
  "Store folded, away from direct sunlight.",
];
const FEATURES = [
  "Water-repellent finish",
  "Two side pockets",
  "Reinforced seams",
  "Adjustable strap",
  "Handmade in Portugal",
  "Plastic-free packaging",
  "Lifetime repair service",
  "Fits a 15-inch laptop",
];

/** A stored value (Shopify's `value` string) of each type, deterministic. */
function valueOf(type: string, prng: Prng): string {
  switch (type) {
    case "single_line_text_field":
      return prng.pick(MATERIALS);
    case "multi_line_text_field":
      return prng.sample(CARE_LINES, prng.int(2, 4)).join("\n");
    case "weight":
      return prng.chance(0.7)
        ? JSON.stringify({ value: prng.int(40, 950), unit: "g" })
        : JSON.stringify({ value: prng.int(11, 60) / 10, unit: "kg" });
    case "rating":
      return JSON.stringify({
        value: (prng.int(30, 50) / 10).toFixed(1),
        scale_min: "1.0",
        scale_max: "5.0",
      });
    case "list.single_line_text_field":
      return JSON.stringify(prng.sample(FEATURES, prng.int(2, 5)));
    case "dimension":
      return JSON.stringify({ value: prng.int(44, 64), unit: "cm" });
    case "boolean":
      return String(prng.chance(0.5));
    default:
      throw new Error(`no sample value for ${type}`);
  }
}

const METAFIELDS_SET = `mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { id }
    userErrors { field message code }
  }
}`;

interface MetafieldsSetData {
  metafieldsSet: { userErrors: { message: string }[] };
}

/** One run's figures, as the child measured them. */
interface ChildResult {
  exportMs: number;
  /** Reading the chosen metaobject definitions' entries (none without them). */
  metaobjectsMs: number;
  entries: number;
  objectCount: number;
  jsonlBytes: number;
  mapMs: number;
  documents: number;
  documentBytes: number;
  withMetafieldAttributes: number;
  syncMs: number;
  sent: number;
  peakRssMb: number;
  cpuSeconds: number;
}

interface RunFigures extends ChildResult {
  exportCpuMs: number;
  adminRequests: number;
  adminPoints: number;
  writeRequests: number;
  writeBytes: number;
}

if (values.child) {
  console.log(JSON.stringify(await child(values.child === "five")));
} else {
  await main();
}

/** A run in this process: export, map, send; everything measured here is the app's side. */
async function child(withMetafields: boolean): Promise<ChildResult> {
  const cpu = process.cpuUsage();
  const work = mkdtempSync(join(tmpdir(), "metafields-bench-"));
  try {
    const chosen: ChosenMetafield[] = withMetafields
      ? CHOSEN.map(({ share: _share, ...choice }) => choice)
      : [];
    const admin = await shopifyAdminClient(values.shopify!);

    // 1. The export, as the full sync asks for it, downloaded to a file.
    const exportStarted = performance.now();
    const id = await startBulkQuery(admin, productsBulkQuery(chosen));
    let state = await readBulkOperation(admin, id);
    while (state.status === "CREATED" || state.status === "RUNNING") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await readBulkOperation(admin, id);
    }
    if (state.status !== "COMPLETED" || !state.url) throw new Error(`export ${state.status}`);
    const file = join(work, "products.jsonl");
    await downloadBulkExport(state.url, file);
    const jsonlBytes = statSync(file).size;
    const exportMs = performance.now() - exportStarted;
    // The parent reads its own CPU now: until here it was the fake Shopify's export.
    console.log("exported");

    // 1b. The chosen metaobject definitions' entries, as the run's "metaobject-entries" source.
    const metaobjectsStarted = performance.now();
    const entries = withMetafields
      ? await readMetaobjectEntries(
          admin,
          CHOSEN_METAOBJECTS.map((definition) => definition.type),
        )
      : [];
    const entriesFile = join(work, "metaobjects.jsonl");
    writeFileSync(entriesFile, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
    const metaobjectsMs = performance.now() - metaobjectsStarted;

    // 2. Mapping: assembly of the JSONL, documents, content hashes (the engine's work, timed alone).
    const mapStarted = performance.now();
    const bulk = await readBulkExport(fileSource(file));
    let documents = 0;
    let documentBytes = 0;
    let withMetafieldAttributes = 0;
    const names = chosen.map((choice) => choice.name);
    for await (const item of bulk.items()) {
      const mapped = mapCatalogueItem(item, {
        primaryDomain: "bench.example.com",
        metafields: chosen,
      });
      if (!mapped.indexable || mapped.kind !== "product") continue;
      contentHash(mapped.item);
      documents += 1;
      documentBytes += Buffer.byteLength(JSON.stringify(mapped.item));
      if (names.some((name) => name in mapped.item.attributes)) withMetafieldAttributes += 1;
    }
    const mapMs = performance.now() - mapStarted;

    // 3. The full sync from that file into a fresh workspace (the ledger starts empty).
    process.env.DATABASE_URL = `file:${join(work, "bench.db")}`;
    await migrateDatabase(process.env.DATABASE_URL);
    const syncStarted = performance.now();
    const result = await runFullSync({
      shopDomain: `${values.workspace}.myshopify.com`,
      workspaceId: values.workspace!,
      primaryDomain: "bench.example.com",
      metafields: chosen,
      client: new IndexServiceClient({
        baseUrl: values.emulator!,
        apiKey: SECRET_KEY,
        workspaceId: values.workspace!,
      }),
      sources: [
        { label: file, open: fileSource(file) },
        ...(withMetafields ? [{ label: entriesFile, open: fileSource(entriesFile) }] : []),
      ],
      types: withMetafields ? ["product", "metaobject"] : ["product"],
      trigger: "cli",
      tier: "enterprise",
      pacer: new Pacer({ limits: { ...RATE_LIMITS.enterprise, perMinute: 1e9, perHour: 1e9 } }),
    });
    const syncMs = performance.now() - syncStarted;
    const used = process.cpuUsage(cpu);
    return {
      exportMs,
      metaobjectsMs,
      entries: entries.length,
      objectCount: state.objectCount,
      jsonlBytes,
      mapMs,
      documents,
      documentBytes,
      withMetafieldAttributes,
      syncMs,
      sent: result.counts.products.sent + result.counts.posts.sent,
      peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
      cpuSeconds: (used.user + used.system) / 1e6,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs a child; `exportCpuMs` is this process's CPU (the fake Shopify) until the export was read. */
function runChild(args: string[]): Promise<ChildResult & { exportCpuMs: number }> {
  const script = fileURLToPath(import.meta.url);
  const cpu = process.cpuUsage();
  let exportCpuMs = 0;
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [...process.execArgv, script, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    process_.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (exportCpuMs === 0 && output.includes("exported\n")) {
        const used = process.cpuUsage(cpu);
        exportCpuMs = (used.user + used.system) / 1000;
      }
    });
    process_.on("error", reject);
    process_.on("close", (code) => {
      if (code !== 0) reject(new Error(`benchmark run exited with ${code}`));
      else {
        const result = JSON.parse(output.trim().split("\n").pop() ?? "{}") as ChildResult;
        resolve({ ...result, exportCpuMs });
      }
    });
  });
}

async function main() {
  const n = Number(values.products);
  const rounds = Number(values.rounds);
  const setupStarted = performance.now();
  const shopify = await startFakeShopify({
    store: {
      generated: { products: n, pages: 0, articles: 0, seed: Number(values.seed) },
      metaobjects: true,
    },
    // Room for the set-up's writes; the export's own requests are few and cheap.
    bucket: { maximumAvailable: 1e9, restoreRate: 1e9 },
  });
  const emulator = await startEmulator({
    port: 0,
    logBodies: true,
    accounts: [
      {
        name: ACCOUNT,
        tier: "enterprise",
        secretKeys: [SECRET_KEY],
        rateLimits: { perMinute: 1e9, perHour: 1e9 },
        quotas: { products: 1e9 },
      },
    ],
  });

  // The store's metafields, written as a merchant's tools would (metafieldsSet, 25 at a time).
  const admin = await shopifyAdminClient(shopify.graphqlUrl);
  const prng = new Prng(Number(values.seed));
  const products = shopify.state.products();
  const perDefinition = new Map<string, number>();
  let batch: Record<string, string>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const data = await queryAdmin<MetafieldsSetData>(admin, METAFIELDS_SET, { metafields: batch });
    if (data.metafieldsSet.userErrors.length > 0)
      throw new Error(JSON.stringify(data.metafieldsSet.userErrors));
    batch = [];
  };
  for (const product of products) {
    for (const definition of [...CHOSEN, NOT_CHOSEN]) {
      const owners =
        "owner" in definition
          ? (product.variants as { id: string }[]).map((variant) => variant.id)
          : [String(product.id)];
      for (const ownerId of owners) {
        if (!prng.chance(definition.share)) continue;
        const { namespace, key, type } = definition;
        batch.push({ ownerId, namespace, key, type, value: valueOf(type, prng) });
        const full = `${namespace}.${key}`;
        perDefinition.set(full, (perDefinition.get(full) ?? 0) + 1);
        if (batch.length === 25) await flush();
      }
    }
  }
  await flush();
  // The chosen definitions' entries: the sample's few, and more of the same shape.
  for (const { type, entries } of CHOSEN_METAOBJECTS) {
    for (let i = shopify.state.metaobjects(type).length; i < entries; i++) {
      shopify.state.createMetaobject({
        type,
        handle: `${type}-bench-${i}`,
        fields:
          type === "faq"
            ? {
                question: `Question ${i}: ${prng.pick(FEATURES)}?`,
                answer: prng.sample(CARE_LINES, prng.int(2, 4)).join("\n"),
              }
            : {
                title: `Size chart ${i}`,
                board_length: JSON.stringify({ value: prng.int(140, 165), unit: "cm" }),
                rider_weight: `${prng.int(40, 60)}–${prng.int(70, 95)} kg`,
                notes: prng.sample(CARE_LINES, 2).join("\n"),
              },
      });
    }
  }
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  // What the same fields cost outside a bulk operation: the live re-read of products by id, as
  // many a query as it asks (5 without variant metafields, 3 with).
  const rereadCost = async (chosen: readonly ChosenMetafield[]) => {
    const read = productsByIdsRead(chosen);
    const ids = read.idsPerQuery ?? 5;
    shopify.state.clearRequests();
    await queryAdmin(admin, read.query, {
      ids: products.slice(0, ids).map((product) => String(product.id)),
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
      ...read.variables,
    });
    const [entry] = shopify.state.requests();
    return {
      ids,
      requested: entry?.requestedQueryCost ?? 0,
      actual: entry?.actualQueryCost ?? 0,
    };
  };
  const rereadPlain = await rereadCost([]);
  const rereadFive = await rereadCost(CHOSEN);

  const runs: { without: RunFigures[]; five: RunFigures[] } = { without: [], five: [] };
  for (let round = 1; round <= rounds; round++) {
    const order: ("without" | "five")[] =
      round % 2 === 1 ? ["without", "five"] : ["five", "without"];
    for (const variant of order) {
      const workspace = `bench-${variant}-${round}`;
      shopify.state.clearRequests();
      emulator.state.clearRequests();
      const result = await runChild([
        "--child",
        variant,
        "--shopify",
        shopify.graphqlUrl,
        "--emulator",
        emulator.url,
        "--workspace",
        workspace,
      ]);
      const adminLog = shopify.state.requests();
      const writes = emulator.state
        .requests()
        .filter((r) => r.method !== "GET" && /^\/(products|posts)(\/|$)/.test(r.path));
      runs[variant].push({
        ...result,
        adminRequests: adminLog.length,
        adminPoints: adminLog.reduce((sum, entry) => sum + (entry.actualQueryCost ?? 0), 0),
        writeRequests: writes.length,
        writeBytes: writes.reduce(
          (sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry.body ?? null)),
          0,
        ),
      });
      emulator.state.clearRequests();
      console.error(`round ${round}: ${variant} done`);
    }
  }
  await emulator.close();
  await shopify.close();

  const valueCount = [...perDefinition.values()].reduce((a, b) => a + b, 0);
  console.log(
    `Chosen metafields in the product export: ${n.toLocaleString("en")} products (fake Shopify, seed ${values.seed}), ` +
      `${rounds} rounds taking turns, node ${process.version}; set-up ${setupSeconds.toFixed(1)} s`,
  );
  console.log(
    `  metafield values in the store: ${valueCount.toLocaleString("en")} (` +
      [...perDefinition].map(([key, count]) => `${key} ${count}`).join(", ") +
      `; the last is not chosen)`,
  );
  console.log(
    `  chosen: ${CHOSEN.map((c) => `${c.namespace}.${c.key} (${c.type}${"owner" in c ? ", variants'" : ""})`).join(", ")}; ` +
      `metaobject definitions ${CHOSEN_METAOBJECTS.map((d) => `${d.type} (${d.entries} entries)`).join(", ")}`,
  );
  const each = (
    figures: RunFigures[],
    pick: (f: RunFigures) => number,
    format: (v: number) => string,
  ) => figures.map((f) => format(pick(f))).join(", ");
  const mean = (figures: RunFigures[], pick: (f: RunFigures) => number) =>
    figures.reduce((sum, f) => sum + pick(f), 0) / figures.length;
  const row = (
    label: string,
    pick: (f: RunFigures) => number,
    format: (v: number) => string,
    unit = "",
  ) => {
    const without = mean(runs.without, pick);
    const five = mean(runs.five, pick);
    const change =
      without === 0
        ? ""
        : ` (${five >= without ? "+" : ""}${(((five - without) / without) * 100).toFixed(0)}%)`;
    console.log(
      `  ${label.padEnd(36)} ${each(runs.without, pick, format).padEnd(24)} ${each(runs.five, pick, format).padEnd(24)} ` +
        `${five - without >= 0 ? "+" : ""}${format(five - without)}${unit}${change}`,
    );
  };
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const count = (value: number) => Math.round(value).toLocaleString("en");
  console.log(
    `  ${"".padEnd(36)} ${"without (each run)".padEnd(24)} ${"5 + 2 chosen (each run)".padEnd(24)} added (means)`,
  );
  row("Admin API requests (export+entries)", (f) => f.adminRequests, count);
  row("Admin API points (export+entries)", (f) => f.adminPoints, count);
  row("export time (start→download)", (f) => f.exportMs, seconds);
  row("metaobject entries read", (f) => f.entries, count);
  row("reading them (paged queries)", (f) => f.metaobjectsMs, seconds);
  row("fake Shopify's CPU for it", (f) => f.exportCpuMs, seconds);
  row("JSONL lines", (f) => f.objectCount, count);
  row("JSONL bytes", (f) => f.jsonlBytes, megabytes);
  row("mapping time (assemble+map+hash)", (f) => f.mapMs, seconds);
  row("product documents", (f) => f.documents, count);
  row("items sent (products and entries)", (f) => f.sent, count);
  row("documents with a chosen field", (f) => f.withMetafieldAttributes, count);
  row("documents' size (JSON)", (f) => f.documentBytes, megabytes);
  row("full sync (read, map, stage, send)", (f) => f.syncMs, seconds);
  row("write requests to the service", (f) => f.writeRequests, count);
  row("write request bodies", (f) => f.writeBytes, megabytes);
  row(
    "peak RSS of the run",
    (f) => f.peakRssMb,
    (v) => `${v.toFixed(0)} MB`,
  );
  row("CPU time of the run", (f) => f.cpuSeconds * 1000, seconds);
  console.log(
    "  Admin API points: bulkOperationRunQuery 10, each status read (every 100 ms) 1; the bulk query's own " +
      "reading of the products is not charged to the bucket (by Shopify, nor by the fake).",
  );
  console.log(
    `  outside a bulk operation (the live re-read by id): ${rereadPlain.ids} products a query, requested ` +
      `${rereadPlain.requested} points, actual ${rereadPlain.actual}; with the five, ${rereadFive.ids} a query, ` +
      `requested ${rereadFive.requested}, actual ${rereadFive.actual}`,
  );
}
