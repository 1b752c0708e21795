/**
 * The app in a process of its own, as a benchmark runs it (`--role app`, started from the driver
 * by `startRoleProcess`, ./role-process.ts): the production build behind a real HTTP server, as
 * `npm start` serves it, configured by the environment the driver gave the process.
 *
 * Call it once that environment is set and, where shop hosts are routed (./shop-hosts.ts), after
 * routing them: the app reads its configuration, and Shopify's library the fetch it uses, when
 * they are loaded.
 */
import { migrateDatabase } from "../app/cli/migrate-database";
import prisma from "../app/models/db.server";
import { startAppServer, type RunningAppServer } from "../app/server/app-server";
import { saveSettings, type SettingsForm } from "../app/shop/save-settings.server";
import { adminFor } from "../app/shopify/admin-auth.server";
import { recordShopAfterAuth } from "../app/shopify/app.server";

export interface AppRoleOptions {
  /** Migrate the database DATABASE_URL names first (default); `false` when the driver did. */
  migrate?: boolean;
  /** Rows the run starts from, written before the server starts. */
  prepare?: () => Promise<void>;
  /** The server's background work on, as `npm start` runs it (default off: the run starts what it needs). */
  background?: boolean;
  /** Work the run wants beside the server (the live worker, checks); returns how to stop it. */
  started?: (app: RunningAppServer) => Promise<(() => Promise<void>) | void>;
}

/**
 * Starts the app and prints `ready <url>` for the driver; on SIGTERM stops what `started`
 * returned, closes the server and exits.
 */
export async function serveAppRole(options: AppRoleOptions = {}): Promise<RunningAppServer> {
  if (options.migrate !== false) await migrateDatabase(process.env.DATABASE_URL!);
  await options.prepare?.();
  const server = await startAppServer({ background: options.background });
  const stop = await options.started?.(server);
  process.once("SIGTERM", () => {
    void (stop ?? (() => Promise.resolve()))()
      .then(() => server.close())
      .then(() => process.exit(0));
  });
  process.stdout.write(`ready ${server.url}\n`);
  return server;
}

/**
 * Raises the shop's product quota for this month as the app would learn it from the service
 * (benchmarks whose catalogue is larger than the tier's month allows).
 */
export async function raiseProductQuota(shop: string): Promise<void> {
  await prisma.quotaUsage.create({
    data: {
      shopDomain: shop,
      month: new Date().toISOString().slice(0, 7),
      kind: "product",
      used: 0,
      limit: 1e6,
    },
  });
}

/**
 * The shop installed and its service keys saved as a merchant does (authentication, then
 * Settings), then waits until the full sync that starts has finished.
 */
export async function connectShop(
  shop: string,
  scopes: string,
  settings: SettingsForm,
): Promise<void> {
  const admin = await adminFor(shop);
  await recordShopAfterAuth(shop, scopes, admin);
  const saved = await saveSettings(shop, admin, settings);
  if (!saved.ok) throw new Error(`keys refused: ${JSON.stringify(saved.problems)}`);
  while ((await prisma.syncRun.count({ where: { activeShop: { not: null } } })) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
