/**
 * Figures for live updates (printed, never asserted):
 *   npm run build && npx tsx bench/live-updates.bench.ts [--products 1000] [--deliveries 5000] [--concurrency 20]
 *     [--database-url postgresql://…/an_empty_database]   (default: a new SQLite file)
 *
 * A burst of products/update deliveries, each after a real change of its product in the fake
 * Shopify store and signed as Shopify signs them, against Personal-tier limits (100 requests per
 * minute, 1,000 per hour) on the service emulator. The app runs in its own process as in
 * production: its production build behind a real HTTP server, with the live worker inside it on
 * its default settings (3 s coalescing window, batches of 100), on a SQLite file. This process
 * plays Shopify (the fake Admin API: GraphQL cost throttling at 2,000 points, 100 per second;
 * webhooks) and the service (the emulator). The account's product quota is raised: Personal's
 * 200 a month could not hold the 1,000-product catalogue; the rate limits are Personal's.
 *
 * Printed: webhook answer latency p50/p99 (Shopify's side: request sent to answer read), write
 * requests to the service, time from the first delivery until the index equals the store,
 * changes lost (products whose indexed content differs from the store in the end), and the
 * Admin API work it took. The baseline, also in its own process, answers each webhook after
 * sending the product from its payload with one POST /products; it runs on an unthrottled account
 * for its latency and request count, and its time at Personal limits is computed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRoleProcess, stopRoleProcess } from "../testkit/role-process";
import { requireAppBuild } from "../app/server/app-server";
import { startLiveWorker } from "../app/sync/live/worker.server";
import { catalogueEntry } from "../app/sync/engine/catalogue-entry";
import { contentHash } from "../app/catalogue";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000" },
    deliveries: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "20" },
    role: { type: "string", default: "driver" },
    "database-url": { type: "string" },
  },
});
const PRODUCTS = Number(values.products);
const DELIVERIES = Number(values.deliveries);
const CONCURRENCY = Number(values.concurrency);
const SHOP = "bench-store.myshopify.com";
const DOMAIN = "bench-store.example.com";
const WORKSPACE = "bench-store-example-com";
const API_SECRET = "bench-app-secret";
const LIVE_KEY = "svc_sk_bench_live";
const BASELINE_KEY = "svc_sk_bench_baseline";
const PERSONAL = { perMinute: 100, perHour: 1_000 };

if (values.role === "app") await runApp();
else if (values.role === "baseline") await runBaseline();
else await drive();

/** Announces the child's URL to the driver. */
function ready(url: string) {
  process.stdout.write(`ready ${url}\n`);
}

function stopOnSignal(stop: () => Promise<void>) {
  process.once("SIGTERM", () => void stop().then(() => process.exit(0)));
}

// ── The app, in its own process ───────────────────────────────────────────────────────────────
async function runApp() {
  const { connectShop, raiseProductQuota, serveAppRole } = await import("../testkit/app-role");
  await serveAppRole({
    prepare: () => raiseProductQuota(SHOP),
    started: async () => {
      await connectShop(SHOP, "read_products,read_online_store_pages", {
        secretKey: LIVE_KEY,
        publishableKey: "svc_pk_bench_live",
        workspaceOverride: "",
        syncProducts: true,
        syncPages: true,
        syncArticles: true,
      });
      const worker = startLiveWorker({ log: () => undefined });
      return () => worker.stop();
    },
  });
}

// ── The baseline, in its own process: one request per webhook, before answering ─────────────
async function runBaseline() {
  const { startNaiveWebhookApp } = await import("./baseline/naive-webhook-app");
  const app = await startNaiveWebhookApp({
    apiSecret: API_SECRET,
    emulatorUrl: process.env.INDEX_API_URL ?? "",
    secretKey: BASELINE_KEY,
    workspace: "baseline-example-com",
  });
  stopOnSignal(() => app.close());
  ready(app.url);
}

// ── The driver: Shopify, the service, the burst, the figures ───────────────────────────────────
async function drive() {
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify } = await import("../dev/fake-shopify/server");
  requireAppBuild();
  type ShopifyProduct = import("../app/catalogue").ShopifyProduct;
  type WebhookDelivery = import("../dev/fake-shopify/server").WebhookDelivery;

  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    accounts: [
      {
        name: "live",
        tier: "personal",
        secretKeys: [LIVE_KEY],
        publishableKeys: ["svc_pk_bench_live"],
        quotas: { products: 1e6, posts: 1e6 },
      },
      {
        name: "baseline",
        tier: "enterprise",
        secretKeys: [BASELINE_KEY],
        rateLimits: { perMinute: 1e9, perHour: 1e9 },
        quotas: { products: 1e9 },
      },
    ],
  });
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: DOMAIN,
    apiSecret: API_SECRET,
    store: { generated: { products: PRODUCTS, pages: 2, articles: 2, seed: 2026 } },
  });
  const work = mkdtempSync(join(tmpdir(), "live-bench-"));
  const childEnv = {
    NODE_ENV: "development",
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_APP_URL: "https://catalog-chat.bench",
    DATABASE_URL: values["database-url"] ?? `file:${join(work, "bench.db")}`,
    INDEX_API_URL: emulator.url,
    DEMO_SHOP: SHOP,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
    BACKGROUND_WORK: "off",
  };

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  const latencies = (deliveries: WebhookDelivery[]) => {
    const sorted = deliveries.map((d) => d.durationMs).sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const productIds = shopify.state.products().map((p) => p.id);

  /** Products whose indexed content differs from what the store says the index should hold. */
  const mismatches = (): number => {
    const stored = new Map(
      (emulator.state.workspace("live", WORKSPACE)?.products ?? []).map((item) => [
        String(item.id),
        contentHash(item),
      ]),
    );
    let wrong = 0;
    const expected = new Set<string>();
    for (const snapshot of shopify.state.products()) {
      const entry = catalogueEntry(
        { type: "Product", value: snapshot as unknown as ShopifyProduct },
        { primaryDomain: DOMAIN },
      );
      if (!entry.indexable) continue;
      expected.add(entry.id);
      if (stored.get(entry.id) !== entry.hash) wrong += 1;
    }
    for (const id of stored.keys()) if (!expected.has(id)) wrong += 1;
    return wrong;
  };

  /** The burst: each delivery follows a real change of its product (its first variant's price). */
  const burst = async (round: number): Promise<WebhookDelivery[]> => {
    const deliveries: WebhookDelivery[] = [];
    let next = 0;
    const lane = async () => {
      for (let k = next++; k < DELIVERIES; k = next++) {
        const id = productIds[k % productIds.length]!;
        const step = Math.floor(k / productIds.length);
        const price = (10 + round * 7 + step + (k % 97) / 100).toFixed(2);
        shopify.state.updateProduct(id, { variants: [{ index: 0, price }] });
        deliveries.push(await shopify.state.sendWebhook("products/update", id));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return deliveries;
  };

  // The app: installed (first full sync) in its own process, then the burst.
  const app = await startRoleProcess(import.meta.filename, "app", childEnv);
  if (mismatches() !== 0) throw new Error("the first sync did not index the store");
  shopify.state.setApp({ appUrl: app.url });
  emulator.state.clearRequests();
  shopify.state.clearRequests();
  const started = performance.now();
  const appDeliveries = await burst(1);
  const burstMs = performance.now() - started;
  let convergedMs = NaN;
  while (performance.now() < started + 15 * 60_000) {
    if (mismatches() === 0) {
      convergedMs = performance.now() - started;
      break;
    }
    await sleep(250);
  }
  const lost = mismatches();
  const appWrites = emulator.state
    .requests()
    .filter(
      (r) => r.account === "live" && r.method !== "GET" && /^\/(products|posts)/.test(r.path),
    );
  const rateLimited = appWrites.filter((r) => r.status === 429).length;
  const adminRequests = shopify.state.requests();
  const rereads = adminRequests.filter((r) => r.operationName === "ProductsByIds" && !r.throttled);
  const throttled = adminRequests.filter((r) => r.throttled).length;
  const exports = adminRequests.filter((r) => r.operationName === "BulkOperationRunQuery").length;
  await stopRoleProcess(app.child);
  const appLatency = latencies(appDeliveries);
  const appRefused = appDeliveries.filter((d) => d.status !== 200).length;

  // The baseline, in its own process.
  const baseline = await startRoleProcess(import.meta.filename, "baseline", childEnv);
  shopify.state.setApp({ appUrl: baseline.url });
  emulator.state.clearRequests();
  const baselineStarted = performance.now();
  const baselineDeliveries = await burst(2);
  const baselineMs = performance.now() - baselineStarted;
  const baselineWrites = emulator.state.requests().filter((r) => r.account === "baseline").length;
  await stopRoleProcess(baseline.child);
  const baseLatency = latencies(baselineDeliveries);
  // At Personal limits: 1,000 requests an hour, each hour's share at 100 a minute.
  const fullHours = Math.floor((baselineWrites - 1) / PERSONAL.perHour);
  const lastHour = baselineWrites - fullHours * PERSONAL.perHour;
  const baselineAtLimitsMin = fullHours * 60 + lastHour / PERSONAL.perMinute;
  const refusedInFirstHour = Math.max(0, baselineWrites - PERSONAL.perHour);

  await shopify.close();
  await emulator.close();

  const s = (ms: number) =>
    Number.isNaN(ms) ? "not within 15 min" : `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `Live updates: ${DELIVERIES} products/update deliveries over ${productIds.length} products, ` +
      `${CONCURRENCY} in flight, Personal limits (100/min, 1,000/h)`,
  );
  console.log(
    `  app       webhook answer p50 ${appLatency.p50} ms, p99 ${appLatency.p99} ms (goal p99 < 50 ms); non-200 answers ${appRefused}`,
  );
  console.log(
    `            write requests ${appWrites.length} (goal <= 60; 429s among them ${rateLimited})`,
  );
  console.log(
    `            index equals the store ${s(convergedMs)} after the first delivery (goal < 2 min); the burst lasted ${s(burstMs)}`,
  );
  console.log(`            changes lost ${lost} (must be 0)`);
  console.log(
    `            Admin API: ${rereads.length} nodes(ids:) reads, ${throttled} THROTTLED answers, ${exports} bulk queries`,
  );
  console.log(
    `  baseline  webhook answer p50 ${baseLatency.p50} ms, p99 ${baseLatency.p99} ms (one POST /products inside each request, unthrottled)`,
  );
  console.log(
    `            write requests ${baselineWrites} (the burst lasted ${s(baselineMs)} unthrottled); at Personal limits they take ${Math.floor(baselineAtLimitsMin / 60)} h ` +
      `${Math.round(baselineAtLimitsMin % 60)} min, ${refusedInFirstHour} of them refused (429) within the burst's hour`,
  );
}
