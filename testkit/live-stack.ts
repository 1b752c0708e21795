/**
 * Live updates over real HTTP: the app's production build on a real server (its webhook routes),
 * the fake Shopify Admin API (store, nodes(ids:), bulk exports, signed webhooks), the service
 * emulator and a real database. The live worker runs in the test process (or as `npm run worker`
 * in a child process) with small windows so that tests wait on conditions, never on clocks.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { startAppServer, type RunningAppServer } from "../app/server/app-server";
import type { EmulatorAccountConfig } from "../dev/emulator/server";
import { startFakeShopify, type ProductSnapshot } from "../dev/fake-shopify/server";
import { prepareAppEnvironment, TEST_API_SECRET } from "./app-environment";
import { startTestEmulator, type RunningEmulator } from "./emulator";
import prisma from "../app/models/db.server";
import * as catalogue from "../app/catalogue";
import { adminFor } from "../app/shopify/admin-auth.server";
import { recordShopAfterAuth } from "../app/shopify/app.server";
import { saveSettings } from "../app/shop/save-settings.server";
import { PacerRegistry } from "../app/sync/engine/pacer-registry.server";
import { catalogueEntry } from "../app/sync/engine/catalogue-entry";
import { startLiveWorker } from "../app/sync/live/worker.server";

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;
type Catalogue = typeof import("../app/catalogue");
type WorkerModule = typeof import("../app/sync/live/worker.server");

const ROOT = join(import.meta.dirname, "..");
const BUILT_SERVER = join(ROOT, "build", "server", "index.js");
/** Route files the build must contain (newer than the build means it is stale). */
const LIVE_ROUTES = [
  "app/routes/webhooks.products.tsx",
  "app/routes/webhooks.shop.update.tsx",
  "app/routes/webhooks.inventory_levels.update.tsx",
  "app/routes/webhooks.collections.tsx",
];

export const SHOP = "live-store.myshopify.com";
export const PRIMARY_DOMAIN = "live-store.example.com";
export const WORKSPACE = "live-store-example-com";
/** The test account: Personal rate limits, enough product quota for a store and its changes. */
export const ACCOUNT = "live";
export const SECRET_KEYS = ["svc_sk_live_key_one", "svc_sk_live_key_two"] as const;
export const PUBLISHABLE_KEY = "svc_pk_live_key";

export const LIVE_ACCOUNT: EmulatorAccountConfig = {
  name: ACCOUNT,
  tier: "personal",
  secretKeys: [...SECRET_KEYS],
  publishableKeys: [PUBLISHABLE_KEY],
  quotas: { products: 100_000, posts: 100_000 },
};

/** Fails with what to do when the production build is missing or older than the live routes. */
export function requireCurrentBuild(): void {
  if (!existsSync(BUILT_SERVER)) {
    throw new Error("build/ is missing: run `npm run build` before these tests (npm test does).");
  }
  const built = statSync(BUILT_SERVER).mtimeMs;
  const source = readFileSync(BUILT_SERVER, "utf8");
  for (const route of LIVE_ROUTES) {
    const id = route.replace(/^app\//, "").replace(/\.tsx$/, "");
    if (!source.includes(id) || statSync(join(ROOT, route)).mtimeMs > built) {
      throw new Error(`build/ predates ${route}: run \`npm run build\` before these tests.`);
    }
  }
}

/** Shopify, the service and the app's database, without an app server (the caller runs one). */
export interface LiveServices {
  emulator: RunningEmulator;
  shopify: FakeShopify;
  prisma: PrismaClient;
  catalogue: Catalogue;
  close(): Promise<void>;
}

export interface LiveEnvironment extends LiveServices {
  app: RunningAppServer;
}

export interface LiveEnvironmentOptions {
  products?: number;
  pages?: number;
  articles?: number;
  seed?: number;
  /** The test account's tier and quotas (default: Personal limits, a large quota). */
  account?: Partial<Pick<EmulatorAccountConfig, "tier" | "quotas">>;
  /** The emulator keeps each request's body in its log. */
  logBodies?: boolean;
  /**
   * Where the fake shop sells (default "primary-only": one storefront, so a live test's quota
   * and request counts are the primary workspace's alone; "sample": also the French domain,
   * whose own workspace every full sync fills, and the /de subfolder).
   */
  presences?: "sample" | "primary-only";
  /** More of the app's configuration (e.g. SHOPIFY_APP_URL for an app server in a child process). */
  appEnvironment?: Record<string, string>;
}

export async function startLiveEnvironment(
  options: LiveEnvironmentOptions = {},
): Promise<LiveEnvironment> {
  const services = await startLiveServices(options);
  const app = await startAppServer();
  services.shopify.state.setApp({ appUrl: app.url });
  return {
    ...services,
    app,
    async close() {
      await services.shopify.state.settled();
      await app.close();
      await services.close();
    },
  };
}

/** The fake Shopify store, the service emulator and a migrated database, the app configured. */
export async function startLiveServices(
  options: LiveEnvironmentOptions = {},
): Promise<LiveServices> {
  requireCurrentBuild();
  const emulator = await startTestEmulator({
    accounts: [{ ...LIVE_ACCOUNT, ...options.account }],
    logBodies: options.logBodies ?? false,
  });
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: PRIMARY_DOMAIN,
    apiSecret: TEST_API_SECRET,
    bulkDelayMs: 100,
    store: {
      generated: {
        products: options.products ?? 30,
        pages: options.pages ?? 2,
        articles: options.articles ?? 2,
        seed: options.seed ?? 7,
      },
      presences: options.presences ?? "primary-only",
    },
  });
  await prepareAppEnvironment({
    INDEX_API_URL: emulator.url,
    DEMO_SHOP: SHOP,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
    BACKGROUND_WORK: "off",
    ...options.appEnvironment,
  });
  return {
    emulator,
    shopify,
    prisma,
    catalogue,
    async close() {
      await shopify.state.settled();
      await shopify.close();
      await emulator.close();
    },
  };
}

/** Installs the shop and saves its keys through the app's own code; waits for the first sync. */
export async function installShop(env: LiveServices, secretKey: string = SECRET_KEYS[0]) {
  const admin = await adminFor(SHOP);
  await recordShopAfterAuth(SHOP, "read_products,read_online_store_pages,read_inventory", admin);
  const saved = await saveSettings(SHOP, admin, {
    secretKey,
    publishableKey: PUBLISHABLE_KEY,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
  });
  if (!saved.ok) throw new Error(`keys refused: ${JSON.stringify(saved.problems)}`);
  await waitForRunsToFinish(env);
}

export async function waitForRunsToFinish(env: LiveServices, timeoutMs = 30_000) {
  await waitFor(
    "every full sync to finish",
    async () => (await env.prisma.syncRun.count({ where: { activeShop: { not: null } } })) === 0,
    timeoutMs,
  );
  const failed = await env.prisma.syncRun.findFirst({ where: { state: "failed" } });
  if (failed) throw new Error(`a full sync failed: ${failed.errorMessage}`);
}

/**
 * The stock model as if no full sync had filled it (decision 0060) for these products: their
 * inventory items unknown, as a new item's are, so their next stock change reads Shopify.
 */
export async function forgetStockModelOf(
  env: LiveServices,
  products: readonly { id: string }[],
): Promise<void> {
  const productIds = products.map((product) => numericId(product.id));
  const items = await env.prisma.inventoryItemProduct.findMany({
    where: { shopDomain: SHOP, productId: { in: productIds } },
    select: { inventoryItemId: true },
  });
  const itemIds = items.map((item) => item.inventoryItemId);
  await env.prisma.stockLevel.deleteMany({
    where: { shopDomain: SHOP, inventoryItemId: { in: itemIds } },
  });
  await env.prisma.stockItem.deleteMany({
    where: { shopDomain: SHOP, productId: { in: productIds } },
  });
  await env.prisma.inventoryItemProduct.deleteMany({
    where: { shopDomain: SHOP, productId: { in: productIds } },
  });
}

/** Polls a condition until it holds; fails naming what was awaited. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      // SQLite refuses a read for a moment while another process (a worker) commits.
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the live worker in this process, with small windows and fast backoffs. */
export async function startTestWorker(
  overrides: Partial<Parameters<WorkerModule["startLiveWorker"]>[0]> = {},
) {
  return startLiveWorker({
    pollMs: 40,
    coalesceMs: 150,
    maintenanceEveryMs: 150,
    leaseMs: 3_000,
    failureBackoff: { baseMs: 20, maxMs: 200 },
    pacers: new PacerRegistry({ baseBackoffMs: 5, maxBackoffMs: 40 }),
    log: () => undefined,
    ...overrides,
  });
}

/** What the index should hold for the store now: every indexable product, mapped and hashed. */
export async function expectedProducts(env: LiveServices, primaryDomain = PRIMARY_DOMAIN) {
  const expected = new Map<string, string>();
  for (const snapshot of env.shopify.state.products()) {
    const entry = catalogueEntry(
      { type: "Product", value: snapshot as unknown as import("../app/catalogue").ShopifyProduct },
      // The app labels the primary workspace's products with the shop's currency (decision 0036).
      { primaryDomain, ...catalogue.documentCurrencyOf(env.shopify.state.shop()) },
    );
    if (entry.indexable) expected.set(entry.id, entry.hash);
  }
  return expected;
}

/** What the emulator's workspace holds: product id → content hash. */
export function indexedProducts(env: LiveServices, workspaceId = WORKSPACE, account = ACCOUNT) {
  const workspace = env.emulator.state.workspace(account, workspaceId);
  return new Map(
    (workspace?.products ?? []).map((item) => [String(item.id), env.catalogue.contentHash(item)]),
  );
}

function sameIndex(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, hash] of a) if (b.get(id) !== hash) return false;
  return true;
}

export async function indexEqualsStore(env: LiveServices, workspaceId = WORKSPACE) {
  const domain =
    workspaceId === WORKSPACE ? PRIMARY_DOMAIN : env.shopify.state.shop().primaryDomain;
  return sameIndex(await expectedProducts(env, domain), indexedProducts(env, workspaceId));
}

export async function waitForIndexToEqualStore(
  env: LiveServices,
  timeoutMs = 30_000,
  workspaceId = WORKSPACE,
) {
  await waitFor(
    "the index to equal the store",
    () => indexEqualsStore(env, workspaceId),
    timeoutMs,
  );
}

export async function waitForEmptyOutbox(env: LiveServices, timeoutMs = 30_000) {
  await waitFor(
    "the outbox to empty",
    async () => (await env.prisma.pendingChange.count()) === 0,
    timeoutMs,
  );
}

/** Every webhook the fake Shopify sent answered, then every inventory item lookup resolved. */
export async function waitForResolvedLookups(env: LiveEnvironment) {
  await env.shopify.state.settled();
  await waitFor(
    "the lookups to be resolved",
    async () => (await env.prisma.pendingLookup.count()) === 0,
  );
}

/** Every delivery answered, every lookup resolved, every change sent, the index equal to the store. */
export async function waitForLiveUpdatesSettled(env: LiveEnvironment) {
  await waitForResolvedLookups(env);
  await waitForEmptyOutbox(env);
  await waitForIndexToEqualStore(env);
}

/**
 * The emulator's accepted product writes into one workspace since `since` (an index in its log)
 * that carry the product's id.
 */
export function productWritesSince(
  env: LiveEnvironment,
  workspaceId: string,
  productGid: string,
  since: number,
) {
  return env.emulator.state
    .requests()
    .slice(since)
    .filter(
      (r) =>
        r.workspaceId === workspaceId &&
        r.method !== "GET" &&
        r.status < 300 &&
        r.path.startsWith("/products") &&
        JSON.stringify(r.body ?? "").includes(numericId(productGid)),
    );
}

/** The emulator's content writes on the test account since `since` (an index in its log). */
export function writesSince(env: LiveEnvironment, since = 0) {
  return env.emulator.state
    .requests()
    .slice(since)
    .filter(
      (r) =>
        r.account === ACCOUNT &&
        r.method !== "GET" &&
        /^\/(products|posts)(\/|$)/.test(r.path) &&
        !r.path.endsWith("/search"),
    );
}

/** An indexable product of the store (active, published), by position among them. */
export function indexableProduct(env: Pick<LiveServices, "shopify">, index = 0): ProductSnapshot {
  const found = env.shopify.state
    .products()
    .filter((p) => p.status === "ACTIVE" && typeof p.onlineStoreUrl === "string")[index];
  if (!found) throw new Error(`no indexable product #${index}`);
  return found;
}

export const numericId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

/** A variant's stock fields as the fake store keeps them. */
export interface StockedVariant {
  id: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  inventoryItem: { tracked: boolean };
}

export const variantsOf = (product: ProductSnapshot) =>
  product.variants as unknown as StockedVariant[];

/** Indexable products whose every variant is tracked and denies overselling, with stock left. */
export function sellableProducts(env: Pick<LiveServices, "shopify">): ProductSnapshot[] {
  return env.shopify.state.products().filter((product) => {
    const variants = variantsOf(product);
    return (
      product.status === "ACTIVE" &&
      typeof product.onlineStoreUrl === "string" &&
      variants.every((v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY") &&
      variants.some((v) => v.inventoryQuantity > 0)
    );
  });
}

/** The index's entry for a product of the store, if any. */
export function indexedItem(
  env: Pick<LiveServices, "emulator">,
  productGid: string,
  workspaceId = WORKSPACE,
) {
  return env.emulator.state
    .workspace(ACCOUNT, workspaceId)
    ?.products.find((item) => String(item.id) === numericId(productGid));
}
