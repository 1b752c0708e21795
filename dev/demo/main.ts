/**
 * npm run demo — the whole app offline, on loopback: prints the admin, emulator and storefront
 * URLs, runs the first full sync, and keeps serving until Ctrl-C (`--exit` stops after the sync).
 */
// First: Ctrl-C and SIGTERM stop the demo cleanly from the moment the process starts.
import { stop } from "./stop-on-signals";
import { isPostgresUrl } from "../../app/database-url";
import { DemoRefusedError, startDemo } from "./admin-demo";
import { redactUrl } from "../../app/config.server";
import { exitWithStartUpFailure } from "../../app/cli/start-up-checks";
import prisma from "../../app/models/db.server";
import { runCounts } from "../../app/models/sync-runs.server";
import { configureLogging } from "../../app/server/log";

// The app's log lines between the demo's own, readable (LOG_FORMAT=json for JSON).
configureLogging({ format: "pretty" });

/** A port from the environment, or the demo's default (each different, so none collide). */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(
      `${name} must be a port number from 0 to 65535 (0 picks a free one), not "${raw}".`,
    );
    process.exit(2);
  }
  return port;
}

function countFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > 100_000) {
    console.error(`${name} must be a whole number from 0 to 100000, not "${raw}".`);
    process.exit(2);
  }
  return count;
}

/** A PostgreSQL server that cannot be reached or refuses the login (node-postgres' errors). */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    (/^E(CONNREFUSED|NOTFOUND|HOSTUNREACH|TIMEDOUT|AI_AGAIN)$/.test(code) || /^(28|3D)/.test(code))
  );
}

function postgresServer(url: string | undefined): string | undefined {
  return url && isPostgresUrl(url.trim()) ? url.trim() : undefined;
}

const postgresUrl = postgresServer(process.env.DATABASE_URL);
const demo = await startDemo({
  appPort: portFromEnv("PORT", 3000),
  emulatorPort: portFromEnv("EMULATOR_PORT", 4010),
  shopifyPort: portFromEnv("FAKE_SHOPIFY_PORT", 4020),
  smtpPort: portFromEnv("SMTP_PORT", 4025),
  storefrontPort: portFromEnv("STOREFRONT_PORT", 4030),
  mailPort: portFromEnv("MAIL_PORT", 4040),
  // A smaller generated catalogue starts faster (tests); the default shows a store of some size.
  products: countFromEnv("DEMO_PRODUCTS", 600),
  // A PostgreSQL DATABASE_URL names the server the demo makes its own fresh database in; any
  // other (a `file:` URL) is not used: the demo's SQLite file is new in its temporary folder.
  postgresUrl,
  log: (line) => console.log(line),
}).catch((error: unknown) => {
  // What stops the demo before it starts: one line, exit code 2 (docs/operations.md).
  if (error instanceof DemoRefusedError) exitWithStartUpFailure(error.message);
  if (postgresUrl && isConnectionError(error)) {
    exitWithStartUpFailure(
      `The PostgreSQL server at ${redactUrl(postgresUrl)} does not answer or refused the demo (${(error as Error).message}): start it, or unset DATABASE_URL to run the demo on SQLite.`,
    );
  }
  throw error;
});
stop.demo = demo;
console.log(`Admin: ${demo.adminUrl}`);
console.log(
  `Service emulator: ${demo.emulatorUrl} (inspection: ${demo.emulatorUrl}/__emulator/state)`,
);
console.log(`Fake Shopify Admin API: ${demo.shopifyGraphqlUrl}`);
console.log(`Storefront preview: ${demo.storefrontUrl}`);
console.log(`Mail the app sent (caught locally): ${demo.mailUrl}`);
console.log(
  `Database: ${demo.databaseUrl.replace(/\/\/[^@]*@/, "//***@")} (removed when the demo stops)`,
);
const result = await demo.firstSync;
// Stopped during the first sync: the stop ends the process once the demo is closed.
if (stop.stopping) await stop.stopping;
const run = await prisma.syncRun.findFirstOrThrow({ orderBy: { startedAt: "asc" } });
const counts = await runCounts(run);
console.log(
  result.state === "succeeded"
    ? `First full sync finished: ${counts.products.sent} products and ${counts.posts.sent} pages and articles indexed in workspace ${demo.workspaceId}.`
    : `First full sync stopped: ${result.errorMessage}`,
);
if (process.argv.includes("--exit")) {
  await demo.close();
  process.exit(result.state === "succeeded" ? 0 : 1);
}
console.log("Press Ctrl-C to stop.");
