/**
 * A flash sale (issue 28, item 3), printed beside its goals, never asserted:
 *   npm run build && npx tsx bench/flash-sale.bench.ts [--purchases 20000] [--minutes 10]
 *     [--products 1000] [--edits-per-minute 4] [--resync-at 0.3] [--check-minutes 60]
 *     [--backlog-resync-at N] (the live worker's threshold for a full export; default its own)
 *   bench/before-after.sh <baseline checkout> -- bench/flash-sale.bench.ts [ARGS]
 *
 * N purchases of one unit, spread at random over M minutes, across the tracked variants of a
 * generated store of P products, while a full sync runs (the Dashboard's Resync, pressed at
 * `--resync-at` of the sale) and a few ordinary edits a minute (a rename or a price change, each
 * with its products/update). Some products sell out (their stock is a few units), a third of those
 * are restocked once and sell out again; the rest have stock to spare. Each purchase sends what
 * Shopify sends for an order: inventory_levels/update and products/update. A restock is an
 * inventory adjustment, sent as the fake's purchase of minus k units (the same two webhooks).
 *
 * The app runs in its own process (its production build behind a real HTTP server, the live worker
 * inside on its defaults, the check of changed products on `--check-minutes`, a SQLite file); this
 * process plays Shopify (the fake Admin API with its default cost bucket, 2,000 points restored at
 * 100 a second) and the service (the emulator, Personal limits: 100 requests a minute, 1,000 an
 * hour). A delivery the app does not answer 2xx is sent again a second later, as Shopify retries.
 *
 * Printed: Admin API points per purchase and by operation, THROTTLED answers, the delay from a
 * purchase to its stock in the index (the emulator's index polled every 0.5 s for each product's
 * stock_quantity), the service's write requests against the tier's limits and per flush, and
 * whether the index equals the store at the end (exit 1 when it does not).
 *
 * The same file runs in a checkout of `a214422` (before issue 28) through bench/before-after.sh:
 * the app's modules that moved since are imported from where that build has them.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { requireAppBuild } from "../app/server/app-server";
import { catalogueEntry } from "../app/sync/engine/catalogue-entry";

const { values } = parseArgs({
  options: {
    purchases: { type: "string", default: "20000" },
    minutes: { type: "string", default: "10" },
    products: { type: "string", default: "1000" },
    "edits-per-minute": { type: "string", default: "4" },
    "resync-at": { type: "string", default: "0.3" },
    "check-minutes": { type: "string", default: "60" },
    seed: { type: "string", default: "28" },
    /** The live worker's backlog full sync threshold; absent: the worker's default (250). */
    "backlog-resync-at": { type: "string" },
    role: { type: "string", default: "driver" },
  },
});
const PURCHASES = Number(values.purchases);
const SALE_MS = Number(values.minutes) * 60_000;
const PRODUCTS = Number(values.products);
const EDITS_PER_MINUTE = Number(values["edits-per-minute"]);
const RESYNC_AT = Number(values["resync-at"]);
const CHECK_MINUTES = Number(values["check-minutes"]);
const SHOP = "flash-store.myshopify.com";
const DOMAIN = "flash-store.example.com";
const WORKSPACE = "flash-store-example-com";
const API_SECRET = "bench-app-secret";
const KEY = "svc_sk_bench_flash";
const PUBLISHABLE = "svc_pk_bench_flash";
const TIER = { name: "personal", perMinute: 100, perHour: 1_000 } as const;
/** After the last purchase: how long the index may take to show every purchase and equal the store. */
const SETTLE_LIMIT_MS = 5 * 60_000;
/** Operations of a full sync (export, its polling, the shop's own reads), not of live updates. */
const FULL_SYNC_OPERATIONS = new Set([
  "BulkOperationRunQuery",
  "BulkOperationStatus",
  "ShopPolicies",
  "ShopDomains",
  "ProductMetafieldDefinitions",
  "AppInstallation",
  "MainThemeSettings",
  "SetStorefrontConfig",
]);

/** Today's layout, or the one of `a214422` (before issue #22's moves); decided by what exists. */
const TODAY = existsSync(new URL("../testkit/app-role.ts", import.meta.url));
/** A module by a path this checkout may not have (the baseline's layout); typed as today's. */
const importAt = <T>(path: string): Promise<T> => import(path) as Promise<T>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (values.role === "app") await runApp();
else await drive();

// ── The app, in its own process ───────────────────────────────────────────────────────────────
async function runApp() {
  const settings = {
    secretKey: KEY,
    publishableKey: PUBLISHABLE,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: false,
    syncArticles: false,
  };
  const scopes = "read_products,read_online_store_pages,read_inventory";
  const { startLiveWorker } = await import("../app/sync/live/worker.server");
  const { dashboardAction } = await import("../app/admin/dashboard-actions.server");
  const { unfinishedRun, recentRuns } = await import("../app/models/sync-runs.server");
  type AdminAuth = typeof import("../app/shopify/admin-auth.server");
  type Checks = typeof import("../app/sync/live/changed-products-check.server");
  const { adminFor } = await importAt<AdminAuth>(
    TODAY ? "../app/shopify/admin-auth.server" : "../app/shopify-admin.server",
  );
  const scheduleChecks = TODAY
    ? (await importAt<Checks>("../app/sync/live/changed-products-check.server"))
        .scheduleChangedProductsChecks
    : (
        await importAt<{ scheduleChecks: Checks["scheduleChangedProductsChecks"] }>(
          "../app/sync/shop/reconcile-check.server",
        )
      ).scheduleChecks;

  // The Dashboard's Resync, when the driver says so (SIGUSR2); its start and end go to a file.
  const resync = async () => {
    const startedAt = Date.now();
    const message = await dashboardAction(SHOP, "resync", await adminFor(SHOP));
    while (await unfinishedRun(SHOP)) await sleep(250);
    const [run] = await recentRuns(SHOP, 1);
    writeFileSync(
      process.env.FLASH_STATUS_FILE!,
      JSON.stringify({
        startedAt,
        endedAt: Date.now(),
        message: message.message,
        state: run?.state,
        trigger: run?.trigger,
        unchanged: run?.productsUnchanged,
        total: run?.productsTotal,
      }),
    );
  };
  const background = async () => {
    // From the driver's arguments: this process is started with `--role app` alone.
    const backlog = process.env.FLASH_BACKLOG_RESYNC_AT;
    const worker = startLiveWorker({
      log: () => undefined,
      ...(backlog === undefined ? {} : { backlogResyncAt: Number(backlog) }),
    });
    const stopChecks = scheduleChecks(Number(process.env.FLASH_CHECK_MINUTES), adminFor);
    process.on("SIGUSR2", () => void resync().catch((error: unknown) => console.error(error)));
    return () => {
      stopChecks();
      return worker.stop();
    };
  };

  if (TODAY) {
    const { connectShop, raiseProductQuota, serveAppRole } = await import("../testkit/app-role");
    await serveAppRole({
      prepare: () => raiseProductQuota(SHOP),
      started: async () => {
        await connectShop(SHOP, scopes, settings);
        return background();
      },
    });
    return;
  }
  // a214422: as its bench/stock-follow.bench.ts starts the app.
  type Prisma = typeof import("../app/models/db.server");
  type Migrate = typeof import("../app/cli/migrate-database");
  type AppServer = typeof import("../app/server/app-server");
  type Auth = typeof import("../app/shopify/app.server");
  type Settings = typeof import("../app/shop/save-settings.server");
  await (
    await importAt<Migrate>("../app/cli/migrate-database")
  ).migrateDatabase(process.env.DATABASE_URL!);
  const prisma = (await importAt<Prisma>("../app/db.server")).default;
  await prisma.quotaUsage.create({
    data: {
      shopDomain: SHOP,
      month: new Date().toISOString().slice(0, 7),
      kind: "product",
      used: 0,
      limit: 1e6,
    },
  });
  const app = await (await importAt<AppServer>("../app/server/app-server")).startAppServer();
  const { recordShopAfterAuth } = await importAt<Auth>("../app/shopify.server");
  const { saveSettings } = await importAt<Settings>("../app/sync/shop/settings.server");
  const admin = await adminFor(SHOP);
  await recordShopAfterAuth(SHOP, scopes, admin);
  const saved = await saveSettings(SHOP, admin, settings);
  if (!saved.ok) throw new Error(`keys refused: ${JSON.stringify(saved.problems)}`);
  while (await unfinishedRun(SHOP)) await sleep(200);
  const stop = await background();
  process.once("SIGTERM", () => {
    void stop()
      .then(() => app.close())
      .then(() => process.exit(0));
  });
  process.stdout.write(`ready ${app.url}\n`);
}

// ── The driver: Shopify, the service, the sale, the figures ────────────────────────────────────
type RoleProcess = typeof import("../testkit/role-process");
type Catalogue = typeof import("../app/catalogue");
type ShopifyProduct = import("../app/catalogue").ShopifyProduct;
type Variant = {
  id: string;
  inventoryPolicy: string;
  inventoryQuantity: number;
  price: string;
  inventoryItem: { tracked: boolean };
};
type SaleEvent = { at: number; product: number; units: number };

/** A seeded random number generator (mulberry32): the same sale for the same seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function drive() {
  requireAppBuild();
  const { startRoleProcess, stopRoleProcess } = await importAt<RoleProcess>(
    TODAY ? "../testkit/role-process" : "./role-process",
  );
  const catalogue = await importAt<Catalogue>(TODAY ? "../app/catalogue" : "../app/catalog");
  const { contentHash } = catalogue;
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify } = await import("../dev/fake-shopify/server");
  const rand = random(Number(values.seed));

  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    logBodies: true,
    accounts: [
      {
        name: "live",
        tier: TIER.name,
        secretKeys: [KEY],
        publishableKeys: [PUBLISHABLE],
        quotas: { products: 1e6, posts: 1e6 },
      },
    ],
  });
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: DOMAIN,
    apiSecret: API_SECRET,
    store: { generated: { products: PRODUCTS, pages: 0, articles: 0, seed: 2028 } },
  });

  // The products on sale: indexable, with a tracked variant that denies overselling (the one bought).
  const onSale = shopify.state
    .products()
    .filter((p) => p.status === "ACTIVE" && typeof p.onlineStoreUrl === "string")
    .flatMap((p) => {
      const variants = p.variants as unknown as Variant[];
      const index = variants.findIndex(
        (v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY",
      );
      return index < 0
        ? []
        : [
            {
              id: p.id,
              numericId: p.id.slice(p.id.lastIndexOf("/") + 1),
              variant: variants[index]!.id,
              index,
            },
          ];
    });
  if (onSale.length < 10) throw new Error(`only ${onSale.length} products can be bought`);

  // Who sells out (a tenth, a few units each), who is restocked (a third of those), the rest.
  const sellOut = Math.max(1, Math.floor(onSale.length / 10));
  const events: SaleEvent[] = [];
  const planned = onSale.map(() => 0);
  const stock = onSale.map(() => 0);
  let sellOutPurchases = 0;
  for (let i = 0; i < sellOut; i++) {
    const units = 5 + Math.floor(rand() * 16);
    stock[i] = units;
    planned[i] = units;
    sellOutPurchases += units;
    if (i % 3 === 0) {
      const again = 5 + Math.floor(rand() * 6);
      planned[i] = units + again;
      sellOutPurchases += again;
    }
  }
  if (sellOutPurchases > PURCHASES / 2)
    throw new Error("too few purchases for the products that sell out");
  for (let k = sellOutPurchases; k < PURCHASES; k++) {
    // Skewed towards the first products after those that sell out: a sale has its favourites.
    const i = sellOut + Math.floor((onSale.length - sellOut) * rand() ** 2);
    planned[i] = planned[i]! + 1;
  }
  for (let i = sellOut; i < onSale.length; i++) stock[i] = planned[i]! + 50;
  onSale.forEach((product, i) => {
    const times = Array.from({ length: planned[i]! + (i < sellOut && i % 3 === 0 ? 1 : 0) }, () =>
      Math.floor(rand() * SALE_MS),
    ).sort((a, b) => a - b);
    const firstUnits = stock[i]!;
    times.forEach((at, n) => {
      const restock = i < sellOut && i % 3 === 0 && n === firstUnits;
      events.push({ at, product: i, units: restock ? -(planned[i]! - firstUnits) : 1 });
    });
    shopify.state.updateProduct(product.id, {
      variants: [{ index: product.index, inventoryQuantity: stock[i]! }],
    });
  });
  events.sort((a, b) => a.at - b.at);
  const restocked = Math.ceil(sellOut / 3);

  const work = mkdtempSync(join(tmpdir(), "flash-sale-"));
  const statusFile = join(work, "resync.json");
  const installStarted = performance.now();
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
    FLASH_STATUS_FILE: statusFile,
    FLASH_CHECK_MINUTES: String(CHECK_MINUTES),
    ...(values["backlog-resync-at"] === undefined
      ? {}
      : { FLASH_BACKLOG_RESYNC_AT: values["backlog-resync-at"] }),
  });
  const installMs = performance.now() - installStarted;
  shopify.state.setApp({ appUrl: app.url });

  const indexed = () =>
    new Map(
      (emulator.state.workspace("live", WORKSPACE)?.products ?? []).map((item) => [
        String(item.id),
        item as { stock_quantity?: number; name?: string; price?: number },
      ]),
    );
  // As the app maps them: the shop's workspace carries the shop's currency (decision 0036; a
  // build before it has no such mapping).
  const mapping = {
    primaryDomain: DOMAIN,
    ...("documentCurrencyOf" in catalogue
      ? catalogue.documentCurrencyOf(shopify.state.shop())
      : {}),
  };
  /** Of the products unlike the store, the first few: id, and the fields that differ. */
  const unlike: string[] = [];
  const differences = () => {
    const items = indexed();
    let wrong = 0;
    unlike.length = 0;
    for (const snapshot of shopify.state.products()) {
      const entry = catalogueEntry(
        { type: "Product", value: snapshot as unknown as ShopifyProduct },
        mapping,
      );
      const item = items.get(entry.id);
      if (entry.indexable ? !item || contentHash(item) !== entry.hash : item) {
        wrong += 1;
        if (unlike.length < 3) unlike.push(`${entry.id}: ${differingFields(entry, item)}`);
      }
    }
    return wrong;
  };
  if (differences() !== 0) throw new Error("the first sync did not index the store");

  // Webhooks: each answered 2xx, or sent again a second later (as Shopify retries).
  let deliveries = 0;
  let unanswered = 0;
  const inFlight = new Set<Promise<unknown>>();
  const follow = (
    delivery: Promise<{
      status: number;
      topic: string;
      body: string;
      webhookId: string;
      triggeredAt: string;
    } | null>,
    tries = 0,
  ): void => {
    const promise = delivery.then(async (d) => {
      if (!d) return;
      if (tries === 0) deliveries += 1;
      if (d.status >= 200 && d.status < 300) return;
      unanswered += 1;
      await sleep(1_000);
      follow(
        shopify.state.sendWebhook(d.topic, JSON.parse(d.body), {
          webhookId: d.webhookId,
          triggeredAt: d.triggeredAt,
        }),
        tries + 1,
      );
    });
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  // What Shopify sends for an order, both deliveries followed: inventory_levels/update and
  // products/update (before issue 28 the fake sent the first alone, so the bench sends both itself).
  const order = (product: (typeof onSale)[number], units: number) => {
    const change = shopify.state.purchase(product.variant, units, { webhook: false });
    const triggeredAt = new Date().toISOString();
    follow(shopify.state.sendWebhook("inventory_levels/update", change.payload, { triggeredAt }));
    follow(shopify.state.sendWebhook("products/update", product.id, { triggeredAt }));
  };

  // An ordinary edit: a rename or a price change, with its products/update.
  let edits = 0;
  const edit = (wait: boolean) => {
    const product = shopify.state.products()[Math.floor(rand() * PRODUCTS)]!;
    const variants = product.variants as unknown as Variant[];
    const changes =
      edits % 2 === 0
        ? { title: `${String(product.title).replace(/ \(edit \d+\)$/, "")} (edit ${edits})` }
        : { variants: [{ index: 0, price: (Number(variants[0]!.price) + 1).toFixed(2) }] };
    edits += 1;
    shopify.state.updateProduct(product.id, changes);
    const delivery = shopify.state.sendWebhook("products/update", product.id);
    if (!wait) follow(delivery);
    return delivery;
  };
  // What an edit costs alone (its re-read), measured before the sale: 3 edits, one at a time.
  shopify.state.clearRequests();
  for (let k = 0; k < 3; k++) {
    await edit(true);
    const until = performance.now() + 60_000;
    while (differences() !== 0 && performance.now() < until) await sleep(250);
  }
  const editCost =
    shopify.state.requests().reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0) / 3;
  edits = 0;

  // ── The sale ──
  emulator.state.clearRequests();
  shopify.state.clearRequests();
  shopify.state.clearWebhookDeliveries();
  const bulkBefore = shopify.state.bulkOperations().length;
  const writes: {
    at: number;
    items: number;
    status: number;
    path: string;
    workspace: string;
  }[] = [];
  const collectWrites = () => {
    for (const r of emulator.state.requests()) {
      if (r.account !== "live" || r.method === "GET" || !/^\/(products|posts)/.test(r.path))
        continue;
      if (r.path.endsWith("/search")) continue;
      const body = r.body as Record<string, unknown> | undefined;
      const list = body && Object.values(body).find((value) => Array.isArray(value));
      writes.push({
        at: Date.parse(r.at),
        items: Array.isArray(list) ? list.length : 1,
        status: r.status,
        path: `${r.method} ${r.path}`,
        workspace: r.workspaceId ?? "",
      });
    }
    emulator.state.clearRequests();
  };
  // Each product's purchases and restocks not yet seen in the index: when, and its stock after.
  const expected = onSale.map(() => [] as { at: number; quantity: number }[]);
  const items0 = indexed();
  const quantity = onSale.map((p) => items0.get(p.numericId)?.stock_quantity ?? 0);
  const seen = onSale.map((_, i) => quantity[i]!);
  const delays: number[] = [];
  let wentBack = 0;
  const wentBackSeen: string[] = [];
  const poll = () => {
    const items = indexed();
    const now = performance.now();
    onSale.forEach((product, i) => {
      const pending = expected[i]!;
      const q = items.get(product.numericId)?.stock_quantity;
      if (q === undefined) return;
      // The index shows stock older than what it showed before (only a product never restocked can tell).
      if (i >= sellOut || i % 3 !== 0) {
        if (q > seen[i]!) {
          wentBack += 1;
          if (wentBackSeen.length < 5) {
            wentBackSeen.push(
              `${product.numericId} ${seen[i]}→${q} at ${((performance.now() - started) / 1000).toFixed(1)} s`,
            );
          }
        }
      }
      seen[i] = q;
      let last = -1;
      pending.forEach((e, n) => {
        if (e.quantity === q) last = n;
      });
      for (const e of pending.splice(0, last + 1)) delays.push(now - e.at);
    });
  };

  const started = performance.now();
  const startedEpoch = Date.now();
  const resyncAtMs = RESYNC_AT * SALE_MS;
  const editEveryMs = EDITS_PER_MINUTE > 0 ? 60_000 / EDITS_PER_MINUTE : Infinity;
  let nextEdit = editEveryMs / 2;
  let resyncSent = false;
  let next = 0;
  let lastPoll = 0;
  let purchases = 0;
  let secondHalf = 0;
  let lateMax = 0;
  while (next < events.length) {
    const elapsed = performance.now() - started;
    while (next < events.length && events[next]!.at <= elapsed) {
      const event = events[next++]!;
      lateMax = Math.max(lateMax, elapsed - event.at);
      order(onSale[event.product]!, event.units);
      quantity[event.product] = quantity[event.product]! - event.units;
      expected[event.product]!.push({ at: performance.now(), quantity: quantity[event.product]! });
      if (event.units > 0) purchases += 1;
      if (event.units > 0 && event.at >= SALE_MS / 2) secondHalf += 1;
    }
    if (elapsed >= nextEdit) {
      edit(false);
      nextEdit += editEveryMs;
    }
    if (!resyncSent && elapsed >= resyncAtMs) {
      resyncSent = true;
      (app.child as ChildProcess).kill("SIGUSR2");
    }
    if (elapsed - lastPoll >= 500) {
      lastPoll = elapsed;
      poll();
      collectWrites();
      shopify.state.clearWebhookDeliveries();
    }
    await sleep(20);
  }
  const saleMs = performance.now() - started;
  if (!resyncSent) (app.child as ChildProcess).kill("SIGUSR2");

  // ── After the sale: every purchase in the index, the resync over, the index equal to the store ──
  const until = performance.now() + SETTLE_LIMIT_MS;
  let resync: Record<string, unknown> | null = null;
  let wrong = -1;
  let equalMs = NaN;
  while (performance.now() < until) {
    poll();
    collectWrites();
    resync ??= existsSync(statusFile)
      ? (JSON.parse(readFileSync(statusFile, "utf8")) as Record<string, unknown>)
      : null;
    if (resync && inFlight.size === 0 && expected.every((pending) => pending.length === 0)) {
      wrong = differences();
      if (wrong === 0) {
        equalMs = performance.now() - started - saleMs;
        break;
      }
    }
    await sleep(500);
  }
  await sleep(4_000); // the last flush
  collectWrites();
  if (wrong !== 0) wrong = differences();
  const notSeen = expected.reduce((sum, pending) => sum + pending.length, 0);
  const requests = shopify.state.requests();
  const bulkDuring = shopify.state.bulkOperations().slice(bulkBefore);
  const bulkStarted = bulkDuring.length;
  // Which export each was, and when: the full sync's (all products), the check's (changed since, shapes).
  const bulkKinds = bulkDuring
    .map((operation) => {
      const query = operation.query.replace(/\s+/g, " ");
      const kind = /updated_at/.test(query)
        ? "changed-since"
        : /onlineStoreUrl collections/.test(query) && !/variants/.test(query)
          ? "shapes"
          : /products/.test(query)
            ? "products"
            : query.slice(0, 40);
      return `${((Date.parse(operation.createdAt) - startedEpoch) / 1000).toFixed(0)} s ${kind}`;
    })
    .join(", ");
  await stopRoleProcess(app.child);
  await shopify.close();
  await emulator.close();

  // ── Figures ──
  const points = (list: typeof requests) =>
    list.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0);
  const operations = (list: typeof requests) => {
    const byOperation = new Map<string, { requests: number; cost: number; throttled: number }>();
    for (const r of list) {
      const entry = byOperation.get(r.operationName ?? "(unnamed)") ?? {
        requests: 0,
        cost: 0,
        throttled: 0,
      };
      entry.requests += 1;
      if (r.throttled) entry.throttled += 1;
      entry.cost += r.actualQueryCost ?? 0;
      byOperation.set(r.operationName ?? "(unnamed)", entry);
    }
    return [...byOperation]
      .sort((a, b) => b[1].cost - a[1].cost)
      .map(
        ([name, o]) =>
          `${name} ${o.requests} (${o.cost.toLocaleString("en")} points, ${o.throttled} THROTTLED)`,
      )
      .join(", ");
  };
  const total = points(requests);
  const fullSync = points(requests.filter((r) => FULL_SYNC_OPERATIONS.has(r.operationName ?? "")));
  const live = total - fullSync;
  const forPurchases = Math.max(0, live - edits * editCost);
  const throttled = requests.filter((r) => r.throttled).length;
  // The second half of the sale: each product's first read (after the install) mostly behind.
  const halfway = startedEpoch + SALE_MS / 2;
  const saleEnd = startedEpoch + saleMs;
  const late = requests.filter(
    (r) =>
      !FULL_SYNC_OPERATIONS.has(r.operationName ?? "") &&
      Date.parse(r.at) >= halfway &&
      Date.parse(r.at) <= saleEnd,
  );
  const lateLive = points(late);
  const lateEdits = Math.floor(edits / 2);
  delays.sort((a, b) => a - b);
  const s = (ms: number) => (Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(1)} s`);
  const p95 = percentile(delays, 95);
  const max = delays.at(-1) ?? NaN;

  writes.sort((a, b) => a.at - b.at);
  let perMinuteMax = 0;
  for (let a = 0, b = 0; b < writes.length; b++) {
    while (writes[b]!.at - writes[a]!.at >= 60_000) a++;
    perMinuteMax = Math.max(perMinuteMax, b - a + 1);
  }
  // The Resync's writes: those while its run was unfinished (live changes wait for a full sync).
  const resyncFrom = resync ? Number(resync.startedAt) : NaN;
  const resyncTo = resync ? Number(resync.endedAt) : NaN;
  const inResync = (w: (typeof writes)[number]) => w.at >= resyncFrom && w.at <= resyncTo;
  const resyncWrites = writes.filter(inResync);
  const resyncItems = resyncWrites.reduce((sum, w) => sum + w.items, 0);
  const liveWrites = writes.filter((w) => !inResync(w));
  /**
   * The fewest requests that carry these writes' products: 100 a request, each workspace apart
   * (a storefront domain's is another index), upserts apart from deletes.
   */
  const fewest = (list: typeof writes) => {
    const byPath = new Map<string, number>();
    for (const w of list) {
      const key = `${w.workspace} ${w.path}`;
      byPath.set(key, (byPath.get(key) ?? 0) + w.items);
    }
    return [...byPath.values()].reduce((sum, n) => sum + Math.ceil(n / 100), 0);
  };
  // A flush of the live worker, seen from the service: write requests to one workspace less
  // than a second apart (two passes that close together count as one flush).
  const flushes: (typeof writes)[] = [];
  const lastFlush = new Map<string, typeof writes>();
  for (const w of liveWrites) {
    const flush = lastFlush.get(w.workspace);
    if (flush && w.at - flush.at(-1)!.at <= 1_000) flush.push(w);
    else {
      flushes.push([w]);
      lastFlush.set(w.workspace, flushes.at(-1)!);
    }
  }
  const overGoal = flushes.filter((f) => f.length > fewest(f));
  const sizes = [
    ["1", 1, 1],
    ["2–9", 2, 9],
    ["10–99", 10, 99],
    ["100", 100, 100],
  ] as const;
  const histogram = sizes
    .map(
      ([label, low, high]) =>
        `${label}: ${liveWrites.filter((w) => w.items >= low && w.items <= high).length}`,
    )
    .join(", ");
  const items = writes.reduce((sum, w) => sum + w.items, 0);
  const rateLimited = writes.filter((w) => w.status === 429).length;
  const goal = (met: boolean) => (met ? "met" : "**not met**");

  console.log(
    `Flash sale: ${purchases.toLocaleString("en")} purchases over ${(saleMs / 60_000).toFixed(1)} min ` +
      `across ${onSale.length} of ${PRODUCTS} products (${sellOut} sell out, ${restocked} of them restocked once and sell out again; ` +
      `one location: the fake has no other); ${edits} edits; Resync pressed at ${s(resyncAtMs)}; ` +
      `Personal limits; fake Admin API bucket 2,000 points, 100/s; backlog full sync at ${values["backlog-resync-at"] ?? "the default"}; build ${TODAY ? "today's layout" : "a214422 layout"}`,
  );
  console.log(
    `  install (first sync of ${PRODUCTS}) ${s(installMs)}; the sale ran late by at most ${s(lateMax)}; ` +
      `webhooks ${deliveries.toLocaleString("en")} delivered, ${unanswered} answered non-2xx and sent again`,
  );
  console.log(
    `  Admin API points per purchase ${(forPurchases / Math.max(1, purchases)).toFixed(3)} (goal ≤ 0.05: ${goal(forPurchases / Math.max(1, purchases) <= 0.05)}) ` +
      `= (all ${total.toLocaleString("en")} − full sync ${fullSync.toLocaleString("en")} − ${edits} edits × ${editCost.toFixed(0)} measured alone) / ${purchases}; ` +
      `${requests.length} requests; in the sale's second half ${(Math.max(0, lateLive - lateEdits * editCost) / Math.max(1, secondHalf)).toFixed(3)} ` +
      `(${lateLive.toLocaleString("en")} points, about ${lateEdits} edits, ${secondHalf} purchases)`,
  );
  console.log(`  by operation: ${operations(requests)}`);
  console.log(`  by operation in the second half: ${operations(late)}`);
  console.log(
    `  THROTTLED Admin answers ${throttled} (goal 0: ${goal(throttled === 0)}); bulk operations started during the sale ${bulkStarted}${bulkKinds ? ` (${bulkKinds})` : ""}`,
  );
  console.log(
    `  purchase → its stock in the index: p50 ${s(percentile(delays, 50))}, p95 ${s(p95)} (goal < 30 s: ${goal(p95 < 30_000)}), ` +
      `max ${s(max)} (goal < 60 s: ${goal(max < 60_000)}); ${delays.length} purchases and restocks seen, ${notSeen} never seen within ${s(SETTLE_LIMIT_MS)}; ` +
      `the index went back to older stock ${wentBack} times (polls)${wentBackSeen.length ? `: ${wentBackSeen.join(", ")}` : ""}`,
  );
  console.log(
    `  service writes ${writes.length} (${items.toLocaleString("en")} products; ${rateLimited} answered 429), at most ${perMinuteMax} in a minute ` +
      `(limit ${TIER.perMinute}: ${goal(perMinuteMax <= TIER.perMinute && rateLimited === 0)}), ${writes.length} in the run (limit ${TIER.perHour} an hour: ${goal(writes.length <= TIER.perHour)})`,
  );
  console.log(
    `    live: ${liveWrites.length} writes for ${(items - resyncItems).toLocaleString("en")} products in ${flushes.length} flushes (writes to one workspace less than 1 s apart); ` +
      `${overGoal.length} flushes with more writes than one per 100 products (goal 0: ${goal(overGoal.length === 0)}; e.g. writes/products ${
        overGoal
          .slice(0, 6)
          .map((f) => `${f.length}/${f.reduce((sum, w) => sum + w.items, 0)}`)
          .join(", ") || "none"
      }); products per write ${histogram}`,
  );
  console.log(
    `    the Resync's: ${resyncWrites.length} writes for ${resyncItems.toLocaleString("en")} products (goal ${fewest(resyncWrites)}, upserts and deletes apart: ${goal(resyncWrites.length <= fewest(resyncWrites))}): ${resyncWrites
      .map((w) => `${w.path} ${w.items} to ${w.workspace} at ${s(w.at - startedEpoch)}`)
      .join("; ")}`,
  );
  console.log(
    `  full sync (Resync): ${
      resync
        ? `${String(resync.state)}, ${s(resyncFrom - startedEpoch)} into the sale, took ${s(Number(resync.endedAt) - resyncFrom)}, ` +
          `${String(resync.unchanged)} of ${String(resync.total)} products unchanged`
        : "did not finish"
    }`,
  );
  console.log(
    `  index equals the store at the end: ${wrong === 0 ? `yes, ${s(equalMs)} after the last purchase` : `**no**, ${wrong} products differ (${unlike.join("; ")})`}`,
  );
  process.exit(wrong === 0 ? 0 : 1);
}

/** What an index item shows unlike the store's product mapped whole: the fields, index → store. */
function differingFields(
  entry: { indexable: boolean; item?: unknown },
  item: Record<string, unknown> | undefined,
): string {
  if (!item) return "not in the index";
  if (!entry.indexable) return "in the index, not indexable in the store";
  const store = entry.item as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(store), ...Object.keys(item)])];
  return keys
    .filter((key) => JSON.stringify(store[key]) !== JSON.stringify(item[key]))
    .map(
      (key) =>
        `${key} ${JSON.stringify(item[key])?.slice(0, 80)} → ${JSON.stringify(store[key])?.slice(0, 80)}`,
    )
    .join(", ");
}
