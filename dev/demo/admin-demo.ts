/**
 * The offline demo of the whole app, on loopback only: the service emulator, a fake Shopify Admin
 * API backed by the sample store, the real app (its production build) in demo mode with one demo
 * shop, and a storefront preview with the chat widget. The demo shop's keys are saved through
 * the app's own Settings code, which starts the first full sync.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAppServer, type RunningAppServer } from "../../app/server/app-server";
import { startEmulator, type EmulatorAccountConfig } from "../emulator/server";
import { freePort } from "../http";
import { createPostgresDatabase } from "../postgres-database";
import { startFakeShopify } from "../fake-shopify/server";
import { startMailSink } from "../mail-sink/server";
import type { CartCatalogue } from "../storefront/fake-cart";
import { startStorefrontPreview, type StorefrontAt } from "../storefront/server";
import { escapeHtml } from "../storefront/page";
import { writeDemoStore } from "./demo-store";
import { migrateDatabase } from "../../app/cli/migrate-database";
import { stopBackgroundWork } from "../../app/background.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { recordShopAfterAuth } from "../../app/shopify/app.server";
import { saveSettings } from "../../app/shop/save-settings.server";
import { findShop, workspaceOf } from "../../app/models/shops.server";
import prisma from "../../app/models/db.server";
import { storefrontPresencesOf } from "../../app/models/storefront-presences.server";
import { presenceWorkspacesOf } from "../../app/sync/full/presence-workspaces.server";
import { newestChangeUnder } from "../newest-change";

const ROOT = join(import.meta.dirname, "..", "..");

export const DEMO_SHOP = "demo-store.myshopify.com";
export const DEMO_DOMAIN = "demo-store.example.com";
export const DEMO_SECRET_KEY = "svc_sk_test_professional";
export const DEMO_PUBLISHABLE_KEY = "svc_pk_test_professional";
export const DEMO_API_SECRET = "demo-app-secret";

/** The preview's starter prompts: things the demo store sells (a test asks each one). */
export const DEMO_PROMPTS = [
  "Do you have a waterproof backpack?",
  "Which snowboards do you sell?",
  "I need a warm scarf",
];

const DEMO_PAGES = {
  "/": {
    title: "Home",
    body: "<p>Welcome to Demo Store: bags and rain jackets for the outdoors, snowboards, scarves and hoodies, and teapots, candles and blankets for home. Ask the chat what you are looking for.</p>",
  },
  "/pages/shipping": {
    title: "Shipping",
    body: "<p>We ship within 2 working days.</p>",
  },
};

export interface DemoOptions {
  host?: string;
  appPort?: number;
  emulatorPort?: number;
  shopifyPort?: number;
  storefrontPort?: number;
  mailPort?: number;
  smtpPort?: number;
  products?: number;
  /**
   * A PostgreSQL server (`postgresql://…`): the demo creates a new database there and drops it
   * when it stops. Without one, a SQLite file in the demo's temporary folder.
   */
  postgresUrl?: string;
  /**
   * A database already made and migrated by the caller (a test run's copy of its template): the
   * demo neither migrates nor drops it. Takes the place of `postgresUrl`.
   */
  migratedDatabaseUrl?: string;
  /**
   * Saves the demo keys through the app's Settings code (what `npm run demo` does). Browser tests
   * pass false and type the keys into the Settings form, as a merchant does.
   */
  saveKeys?: boolean;
  /**
   * Where the sample store sells (default "sample": the primary domain, the French market on
   * demo-store.fr, whose own workspace every full sync fills, and the /de subfolder;
   * "primary-only": one storefront).
   */
  presences?: "sample" | "primary-only";
  /**
   * The service account the demo's keys belong to (default: the emulator's built-in Professional
   * test account). A bench gives one with raised quotas, so that a large catalogue fits.
   */
  serviceAccount?: Omit<EmulatorAccountConfig, "secretKeys" | "publishableKeys">;
  /** Keep every generated product, even of a title already kept (a bench's large store). */
  keepRepeatedTitles?: boolean;
  log?: (line: string) => void;
}

export interface RunningDemo {
  adminUrl: string;
  emulatorUrl: string;
  storefrontUrl: string;
  shopifyUrl: string;
  /** The fake Shopify Admin GraphQL endpoint the app talks to. */
  shopifyGraphqlUrl: string;
  /** The temporary folder of the demo's store and SQLite database (removed by close()). */
  workDir: string;
  /** The demo's own database (a file in workDir, or a PostgreSQL database dropped by close()). */
  databaseUrl: string;
  /** The page showing the mail the app sent (caught locally, never relayed). */
  mailUrl: string;
  mail: Awaited<ReturnType<typeof startMailSink>>;
  workspaceId: string;
  /** The keys Settings takes for the demo's service account. */
  serviceKeys: { secretKey: string; publishableKey: string };
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  shopify: Awaited<ReturnType<typeof startFakeShopify>>;
  /** Resolves when the first full sync has finished, with its state. */
  firstSync: Promise<{ state: string; errorMessage: string | null }>;
  close(): Promise<void>;
}

export class DemoRefusedError extends Error {}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? "127.0.0.1";
  if (process.env.NODE_ENV === "production")
    throw new DemoRefusedError("The demo never runs with NODE_ENV=production.");
  if (!LOOPBACK.test(host))
    throw new DemoRefusedError(`The demo binds to loopback only, not ${host}.`);
  const log = options.log ?? (() => undefined);

  ensureBuilt(log);
  const account = options.serviceAccount;
  const keys = account
    ? { secretKey: `svc_sk_demo_${account.name}`, publishableKey: `svc_pk_demo_${account.name}` }
    : { secretKey: DEMO_SECRET_KEY, publishableKey: DEMO_PUBLISHABLE_KEY };
  const emulator = await startEmulator({
    host,
    port: options.emulatorPort ?? 0,
    accounts: account
      ? [{ ...account, secretKeys: [keys.secretKey], publishableKeys: [keys.publishableKey] }]
      : [],
  });
  const mail = await startMailSink({
    host,
    httpPort: options.mailPort ?? 0,
    smtpPort: options.smtpPort ?? 0,
    log,
  });
  const work = mkdtempSync(join(tmpdir(), "catalog-chat-demo-"));
  // However the process ends (a crash, Ctrl-C during start-up, a PostgreSQL server that does not
  // answer), the folder with the demo shoppers' data goes with it; close() removes it earlier and
  // drops a PostgreSQL database too.
  const removeFolder = () => rmSync(work, { recursive: true, force: true });
  process.once("exit", removeFolder);
  // The demo's database and store live here (or its database in PostgreSQL); they go when the
  // demo stops (close, or a failed start).
  const database = options.migratedDatabaseUrl
    ? { url: options.migratedDatabaseUrl, drop: async () => undefined }
    : options.postgresUrl
      ? await createPostgresDatabase(options.postgresUrl, "catalog_chat_demo")
      : { url: `file:${join(work, "demo.db")}`, drop: async () => undefined };
  const removeWork = async () => {
    process.off("exit", removeFolder);
    removeFolder();
    await database.drop();
  };
  // The storefront preview serves the store's pictures, so its port is known before the store.
  const storefrontPort = options.storefrontPort || (await freePort(host));
  const storeFile = join(work, "demo-store.jsonl");
  await writeDemoStore({
    docsShopFile: join(ROOT, "dev", "sample-store", "shopify-docs-shop.jsonl"),
    generated: {
      products: options.products ?? 600,
      pages: 12,
      articles: 24,
      seed: 2026,
      domain: DEMO_DOMAIN,
    },
    imagesBase: `http://${host}:${storefrontPort}/images`,
    keepRepeatedTitles: options.keepRepeatedTitles,
    out: storeFile,
  });
  const shopify = await startFakeShopify({
    host,
    port: options.shopifyPort ?? 0,
    shopDomain: DEMO_SHOP,
    primaryDomain: DEMO_DOMAIN,
    apiSecret: DEMO_API_SECRET,
    store: {
      files: [storeFile],
      productSpecs: true,
      metaobjects: true,
      presences: options.presences ?? "sample",
    },
  });
  const appPort = options.appPort || (await freePort(host));
  Object.assign(process.env, {
    NODE_ENV: "development",
    SHOPIFY_API_KEY: "demo-api-key",
    SHOPIFY_API_SECRET: DEMO_API_SECRET,
    SHOPIFY_APP_URL: `http://${host}:${appPort}`,
    DATABASE_URL: database.url,
    INDEX_API_URL: emulator.url,
    DEMO_SHOP,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
    DEMO_ADMIN_TOKEN: "shpat_fake_token",
    DEMO_STOREFRONT_URL: `http://${host}:${storefrontPort}/`,
    // Inbox notifications go to the local mail sink.
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat demo <inbox@demo-store.example.com>",
  });

  let app: RunningAppServer | undefined;
  try {
    if (!options.migratedDatabaseUrl) await migrateDatabase(database.url);
    app = await startAppServer({ host, port: appPort, background: true });
    shopify.state.setApp({ appUrl: app.url });
    const workspaceId = await installDemoShop(options.saveKeys ?? true, keys);
    /** A product's title as its storefront in `locale` shows it: its translation, if any. */
    const titleIn = (id: string, locale: string | undefined) =>
      locale
        ? shopify.state.translations(id, locale).find((t) => t.key === "title")?.value
        : undefined;
    const storefront = await startStorefrontPreview({
      host,
      port: storefrontPort,
      emulatorUrl: emulator.url,
      publishableKey: keys.publishableKey,
      workspaceId,
      savedConfig: () => savedStorefrontConfig(shopify.state.metafields()),
      pages: DEMO_PAGES,
      settings: { prompts: DEMO_PROMPTS.join("\n") },
      cart: () => cartCatalogue(shopify.state.products()),
      storePage: (pathname, locale) =>
        productPage(shopify.state.products(), pathname, (id) => titleIn(id, locale)),
      storefrontAt: (host, pathname) =>
        storefrontAt(shopify.state.presences().webPresences, {
          // The preview on loopback stands for the store's primary domain.
          host: LOOPBACK.test(host) ? shopify.state.shop().primaryDomain : host,
          pathname,
        }),
      productTitle: (handle, locale) => {
        const product = shopify.state.products().find((p) => p.handle === handle);
        return product && titleIn(String(product.id), locale);
      },
      shopDomains: () => {
        const shop = shopify.state.shop();
        return [...new Set([shop.primaryDomain, shop.myshopifyDomain, DEMO_DOMAIN])];
      },
    });
    const running = app;
    let closed = false;
    const firstSync = waitForFirstSync(() => closed);
    return {
      adminUrl: `${app.url}/app`,
      emulatorUrl: emulator.url,
      storefrontUrl: storefront.url,
      shopifyUrl: shopify.url,
      shopifyGraphqlUrl: shopify.graphqlUrl,
      workDir: work,
      databaseUrl: database.url,
      mailUrl: mail.url,
      mail,
      workspaceId,
      serviceKeys: keys,
      emulator,
      shopify,
      firstSync,
      close: async () => {
        closed = true;
        await storefront.close();
        await running.close();
        // The app's live worker and checks stop before their database goes.
        await stopBackgroundWork();
        await shopify.close();
        await emulator.close();
        await mail.close();
        await firstSync;
        await removeWork();
      },
    };
  } catch (error) {
    await app?.close();
    await stopBackgroundWork();
    await shopify.close();
    await emulator.close();
    await mail.close();
    await removeWork();
    throw error;
  }
}

/** What installing from the app listing does, then what a merchant does in Settings. */
async function installDemoShop(
  saveKeys: boolean,
  keys: { secretKey: string; publishableKey: string },
): Promise<string> {
  const admin = await adminFor(DEMO_SHOP);
  await recordShopAfterAuth(
    DEMO_SHOP,
    "read_products,read_online_store_pages,read_themes,read_inventory,read_markets,read_locales,read_metaobject_definitions,read_metaobjects",
    admin,
  );
  const installed = await findShop(DEMO_SHOP);
  if (!saveKeys) return (installed && workspaceOf(installed)) ?? "";
  const result = await saveSettings(DEMO_SHOP, admin, {
    ...keys,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
  });
  if (!result.ok)
    throw new Error(
      `The demo's keys were refused: ${result.problems.map((p) => p.message).join("; ")}`,
    );
  const shop = await findShop(DEMO_SHOP);
  return (shop && workspaceOf(shop)) ?? "";
}

async function waitForFirstSync(
  stopped: () => boolean,
): Promise<{ state: string; errorMessage: string | null }> {
  // Without keys there is no first sync: the wait ends with the demo (before its database goes).
  while (!stopped()) {
    const run = await prisma.syncRun.findFirst({
      where: { shopDomain: DEMO_SHOP },
      orderBy: { startedAt: "asc" },
    });
    if (run && run.state !== "running") {
      await domainWorkspacesFilled(run.startedAt, stopped);
      return { state: run.state, errorMessage: run.errorMessage };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { state: "not run", errorMessage: "The demo stopped before its first sync finished." };
}

/**
 * The storefront domains' own workspaces (the French one) are filled right after the shop's
 * run: the first sync is over once each has a finished run (at most two minutes more).
 */
async function domainWorkspacesFilled(since: Date, stopped: () => boolean): Promise<void> {
  const shop = await findShop(DEMO_SHOP);
  if (!shop) return;
  const { presences } = await storefrontPresencesOf(DEMO_SHOP);
  const keys = presenceWorkspacesOf(shop, presences).workspaces.map((w) => w.ledgerKey);
  for (let waited = 0; waited < 120_000 && !stopped(); waited += 250) {
    const finished = await prisma.syncRun.count({
      where: { shopDomain: { in: keys }, startedAt: { gte: since }, state: { not: "running" } },
    });
    if (finished >= keys.length) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Builds the app when there is no build, or when a source file is newer than it. */
function ensureBuilt(log: (line: string) => void): void {
  const built = join(ROOT, "build", "server", "index.js");
  if (existsSync(built) && newestChangeUnder(join(ROOT, "app")) <= statSync(built).mtimeMs) return;
  log("Building the app (npm run build)…");
  execFileSync(join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  // Its second half, as `npm run build` does: the demo does not run the bundled commands, but
  // `npm start` after it would (docs/decisions/0058-commands-run-bundled.md).
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-commands.mjs")], {
    cwd: ROOT,
    stdio: "ignore",
  });
}

/** The chat configuration the app saved in the store (its app-data metafield), if any. */
function savedStorefrontConfig(
  metafields: { key: string; value: string }[],
):
  { publishableKey: string; workspaceId: string; workspaces?: Record<string, string> } | undefined {
  const saved = metafields.find((m) => m.key === "config");
  if (!saved) return undefined;
  try {
    const { publishableKey, workspaceId, workspaces } = JSON.parse(saved.value) as Record<
      string,
      unknown
    >;
    if (typeof publishableKey !== "string" || typeof workspaceId !== "string") return undefined;
    return typeof workspaces === "object" && workspaces !== null
      ? { publishableKey, workspaceId, workspaces: workspaces as Record<string, string> }
      : { publishableKey, workspaceId };
  } catch {
    return undefined;
  }
}

/**
 * The store's variants as its cart sees them, read live: a tracked variant that may not be sold
 * beyond its stock holds that many (0 is sold out); any other is unlimited.
 */
/** A product's page in the storefront preview (/products/<handle>), where the chat's links lead. */
function productPage(
  products: {
    id?: unknown;
    handle?: unknown;
    title?: unknown;
    descriptionHtml?: unknown;
    variants: unknown[];
  }[],
  pathname: string,
  titleHere: (id: string) => string | undefined,
): { title: string; body: string } | undefined {
  const handle = /^\/products\/([^/]+)$/.exec(pathname)?.[1];
  const product = handle && products.find((p) => p.handle === decodeURIComponent(handle));
  if (!product) return undefined;
  const price = (product.variants[0] as { price?: string } | undefined)?.price;
  return {
    title: titleHere(String(product.id)) ?? String(product.title ?? ""),
    // The store's own description (the fake store's sample HTML), as a theme shows it.
    body: `${String(product.descriptionHtml ?? "")}${price ? `<p class="price">${escapeHtml(price)}</p>` : ""}`,
  };
}

function cartCatalogue(
  products: { handle?: unknown; title?: unknown; variants: unknown[] }[],
): CartCatalogue {
  const catalogue: CartCatalogue = {};
  for (const product of products) {
    for (const raw of product.variants) {
      const variant = raw as {
        id?: string;
        selectedOptions?: { value: string }[];
        price?: string;
        inventoryQuantity?: number;
        inventoryPolicy?: string;
        inventoryItem?: { tracked?: boolean } | null;
      };
      const id = /(\d+)$/.exec(variant.id ?? "")?.[1];
      if (!id) continue;
      const limited =
        variant.inventoryItem?.tracked === true && variant.inventoryPolicy !== "CONTINUE";
      catalogue[id] = {
        product: String(product.title ?? ""),
        title: (variant.selectedOptions ?? [])
          .map((option) => option.value)
          .filter((value) => value !== "Default Title")
          .join(" / "),
        price: Number(variant.price ?? 0),
        // So that the preview answers /products/<handle>.js as the store does.
        ...(typeof product.handle === "string" ? { handle: product.handle } : {}),
        ...(limited ? { inventory: Math.max(0, variant.inventoryQuantity ?? 0) } : {}),
      };
    }
  }
  return catalogue;
}

/**
 * Which storefront a request is on, as Shopify picks it: the web presence root URL on the request's
 * host whose path is the longest prefix of the request's ("/de/" before "/"), with that presence's
 * first market's currency.
 */
export function storefrontAt(
  presences: {
    rootUrls: { locale: string; url: string }[];
    markets: { currencyCode: string }[];
  }[],
  request: { host: string; pathname: string },
): StorefrontAt | undefined {
  let best: StorefrontAt | undefined;
  for (const presence of presences) {
    for (const { locale, url } of presence.rootUrls) {
      const root = new URL(url);
      const inside =
        request.pathname.startsWith(root.pathname) || `${request.pathname}/` === root.pathname;
      if (root.hostname !== request.host || !inside) continue;
      if (best && best.root.length >= root.pathname.length) continue;
      const currency = presence.markets[0]?.currencyCode;
      if (currency) best = { root: root.pathname, locale, currency };
    }
  }
  return best;
}
