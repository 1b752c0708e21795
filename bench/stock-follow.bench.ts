/**
 * Figures for stock that follows purchases (printed, never asserted):
 *   npm run build && npx tsx bench/stock-follow.bench.ts [--products 400] [--sold-out 200]
 *     [--purchases 500] [--check-minutes 1]
 *
 * 500 purchases that sell out 200 products, with only the webhooks Shopify sends for purchases
 * (inventory_levels/update, one per purchase; no products/update), at Personal limits (100
 * requests a minute, 1,000 an hour) on the service emulator. The app runs in its own process: its
 * production build behind a real HTTP server, the live worker inside on its default settings
 * (3 s coalescing window, batches of 100), a SQLite file. This process plays Shopify (the fake
 * Admin API, cost bucket 2,000 points refilled at 100 a second) and the service.
 *
 * Run twice: with the webhooks delivered, and with every inventory webhook lost; then only the
 * check of changed products (RECONCILE_CHECK_EVERY_MINUTES, here `--check-minutes`, default 1
 * instead of 60) repairs the index. Printed for each: time from the first purchase until the
 * index says outofstock for all sold-out products, write requests to the service, Admin API
 * requests and cost points used, products the index still has wrong at the end.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRoleProcess, stopRoleProcess } from "../testkit/role-process";
import { requireAppBuild } from "../app/server/app-server";
import { adminFor } from "../app/shopify/admin-auth.server";
import { startLiveWorker } from "../app/sync/live/worker.server";
import { scheduleChangedProductsChecks } from "../app/sync/live/changed-products-check.server";
import { catalogueEntry } from "../app/sync/engine/catalogue-entry";
import { contentHash } from "../app/catalogue";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "400" },
    "sold-out": { type: "string", default: "200" },
    purchases: { type: "string", default: "500" },
    "check-minutes": { type: "string", default: "1" },
    role: { type: "string", default: "driver" },
  },
});
const PRODUCTS = Number(values.products);
const SOLD_OUT = Number(values["sold-out"]);
const PURCHASES = Number(values.purchases);
const CHECK_MINUTES = Number(values["check-minutes"]);
const SHOP = "stock-store.myshopify.com";
const DOMAIN = "stock-store.example.com";
const WORKSPACE = "stock-store-example-com";
const API_SECRET = "bench-app-secret";
const KEY = "svc_sk_bench_stock";
const LIMIT_MS = 15 * 60_000;

if (values.role === "app") await runApp();
else await drive();

// ── The app, in its own process ───────────────────────────────────────────────────────────────
async function runApp() {
  const { connectShop, raiseProductQuota, serveAppRole } = await import("../testkit/app-role");
  await serveAppRole({
    // The emulator's account quota is raised (Personal's 200 products a month could not hold the
    // catalogue); the app learns it as it would from the service.
    prepare: () => raiseProductQuota(SHOP),
    started: async () => {
      await connectShop(SHOP, "read_products,read_online_store_pages,read_inventory", {
        secretKey: KEY,
        publishableKey: "svc_pk_bench_stock",
        workspaceOverride: "",
        syncProducts: true,
        syncPages: false,
        syncArticles: false,
      });
      const worker = startLiveWorker({ log: () => undefined });
      // As ensureBackgroundWork schedules it, with the interval the driver asks for.
      const stopChecks = scheduleChangedProductsChecks(CHECK_MINUTES, adminFor);
      return () => {
        stopChecks();
        return worker.stop();
      };
    },
  });
}

interface Figures {
  outOfStockMs: number;
  purchasesMs: number;
  writes: number;
  rateLimited: number;
  adminRequests: number;
  adminCost: number;
  throttled: number;
  bulkQueries: number;
  wrongAtEnd: number;
  deliveries: number;
  /** Admin API requests and cost points by operation. */
  byOperation: Map<string, { requests: number; cost: number }>;
  /** Variants of the products sold out: fewest, median, most. */
  variants: [number, number, number];
}

// ── The driver: Shopify, the service, the purchases, the figures ───────────────────────────────
async function drive() {
  requireAppBuild();
  const delivered = await scenario(false);
  const lost = await scenario(true);
  const s = (ms: number) =>
    Number.isNaN(ms) ? "not within 15 min" : `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `Stock follows purchases: ${PURCHASES} purchases sell out ${SOLD_OUT} of ${PRODUCTS} products, ` +
      `Personal limits (100/min, 1,000/h); the check of changed products every ${CHECK_MINUTES} min`,
  );
  for (const [name, f] of [
    ["webhooks delivered", delivered],
    ["webhooks lost", lost],
  ] as const) {
    console.log(
      `  ${name.padEnd(18)} all ${SOLD_OUT} outofstock in the index ${s(f.outOfStockMs)} after the first purchase, ` +
        `${s(f.outOfStockMs - f.purchasesMs)} after the last (the purchases took ${s(f.purchasesMs)}; goal < 2 min when delivered); ` +
        `${f.deliveries} inventory_levels/update delivered`,
    );
    console.log(
      `  ${"".padEnd(18)} write requests ${f.writes} (429s ${f.rateLimited}); Admin API ${f.adminRequests} requests, ` +
        `${f.adminCost} cost points, ${f.throttled} THROTTLED, ${f.bulkQueries} bulk queries; products wrong at the end ${f.wrongAtEnd}`,
    );
    const operations = [...f.byOperation]
      .sort((a, b) => b[1].cost - a[1].cost)
      .map(([name, o]) => `${name} ${o.requests} (${o.cost} points)`)
      .join(", ");
    console.log(`  ${"".padEnd(18)} by operation: ${operations}`);
  }
  const [fewest, median, most] = delivered.variants;
  console.log(
    `  the products sold out have ${fewest} to ${most} variants (median ${median}); a stock read covers up to 50`,
  );
  console.log(
    `  baseline (before this work): no inventory webhook and a daily full sync, so a product sold out ` +
      `by purchases stayed instock in the index for up to 24 h`,
  );
}

async function scenario(dropWebhooks: boolean): Promise<Figures> {
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify } = await import("../dev/fake-shopify/server");
  type ShopifyProduct = import("../app/catalogue").ShopifyProduct;

  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    accounts: [
      {
        name: "live",
        tier: "personal",
        secretKeys: [KEY],
        publishableKeys: ["svc_pk_bench_stock"],
        quotas: { products: 1e6, posts: 1e6 },
      },
    ],
  });
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: DOMAIN,
    apiSecret: API_SECRET,
    store: { generated: { products: PRODUCTS, pages: 0, articles: 0, seed: 2027 } },
  });

  // The products to sell out: indexable, every variant tracked and denying overselling; before
  // the install, each gets 2 or 3 units on its first variant (the others none): 500 units in all.
  type Variant = { id: string; inventoryPolicy: string; inventoryItem: { tracked: boolean } };
  const targets = shopify.state
    .products()
    .filter(
      (p) =>
        p.status === "ACTIVE" &&
        typeof p.onlineStoreUrl === "string" &&
        (p.variants as unknown as Variant[]).every(
          (v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY",
        ),
    )
    .slice(0, SOLD_OUT);
  if (targets.length < SOLD_OUT) throw new Error(`only ${targets.length} products can sell out`);
  const units = targets.map(
    (_, i) => Math.floor(PURCHASES / SOLD_OUT) + (i < PURCHASES % SOLD_OUT ? 1 : 0),
  );
  targets.forEach((product, i) => {
    shopify.state.updateProduct(product.id, {
      variants: (product.variants as unknown as Variant[]).map((_, index) => ({
        index,
        inventoryQuantity: index === 0 ? units[i]! : 0,
      })),
    });
  });

  const work = mkdtempSync(join(tmpdir(), "stock-bench-"));
  const app = await startRoleProcess(import.meta.filename, "app", {
    NODE_ENV: "development",
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_APP_URL: "https://catalog-chat.bench",
    DATABASE_URL: `file:${join(work, "bench.db")}`,
    INDEX_API_URL: emulator.url,
    DEMO_SHOP: SHOP,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
    BACKGROUND_WORK: "off",
  });
  shopify.state.setApp({ appUrl: app.url });

  const indexed = () =>
    new Map(
      (emulator.state.workspace("live", WORKSPACE)?.products ?? []).map((item) => [
        String(item.id),
        item,
      ]),
    );
  const targetIds = targets.map((p) => p.id.slice(p.id.lastIndexOf("/") + 1));
  const allOutOfStock = () => {
    const items = indexed();
    return targetIds.every((id) => items.get(id)?.stock_status === "outofstock");
  };
  const wrongProducts = () => {
    const items = indexed();
    let wrong = 0;
    for (const snapshot of shopify.state.products()) {
      const entry = catalogueEntry(
        { type: "Product", value: snapshot as unknown as ShopifyProduct },
        { primaryDomain: DOMAIN },
      );
      const item = items.get(entry.id);
      if (entry.indexable ? !item || contentHash(item) !== entry.hash : item) wrong += 1;
    }
    return wrong;
  };
  if (wrongProducts() !== 0) throw new Error("the first sync did not index the store");

  emulator.state.clearRequests();
  shopify.state.clearRequests();
  shopify.state.clearWebhookDeliveries();
  // 500 purchases of one unit, round-robin over the products, 10 shoppers at a time.
  const order: string[] = [];
  for (let round = 0; order.length < PURCHASES; round++) {
    targets.forEach((product, i) => {
      if (units[i]! > round) order.push(product.id);
    });
  }
  const started = performance.now();
  let next = 0;
  const shopper = async () => {
    for (let k = next++; k < order.length; k = next++) {
      const change = shopify.state.purchase(order[k]!, 1, { webhook: !dropWebhooks });
      await change.delivery;
    }
  };
  await Promise.all(Array.from({ length: 10 }, shopper));
  const purchasesMs = performance.now() - started;
  let outOfStockMs = NaN;
  while (performance.now() < started + LIMIT_MS) {
    if (allOutOfStock()) {
      outOfStockMs = performance.now() - started;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Let the last batch settle before counting.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const writes = emulator.state
    .requests()
    .filter(
      (r) => r.account === "live" && r.method !== "GET" && /^\/(products|posts)/.test(r.path),
    );
  const requests = shopify.state.requests();
  const figures: Figures = {
    outOfStockMs,
    purchasesMs,
    writes: writes.length,
    rateLimited: writes.filter((r) => r.status === 429).length,
    adminRequests: requests.length,
    adminCost: requests.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0),
    throttled: requests.filter((r) => r.throttled).length,
    bulkQueries: requests.filter((r) => r.operationName === "BulkOperationRunQuery").length,
    wrongAtEnd: wrongProducts(),
    deliveries: shopify.state.webhookDeliveries("inventory_levels/update").length,
    byOperation: new Map(),
    variants: [0, 0, 0],
  };
  for (const request of requests) {
    const name = request.operationName ?? "(unnamed)";
    const entry = figures.byOperation.get(name) ?? { requests: 0, cost: 0 };
    entry.requests += 1;
    entry.cost += request.actualQueryCost ?? 0;
    figures.byOperation.set(name, entry);
  }
  const counts = targets.map((product) => product.variants.length).sort((a, b) => a - b);
  figures.variants = [counts[0]!, counts[Math.floor(counts.length / 2)]!, counts.at(-1)!];
  await stopRoleProcess(app.child);
  await shopify.close();
  await emulator.close();
  return figures;
}
