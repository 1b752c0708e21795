/**
 * npm run demo — the whole app offline, on loopback: prints the admin, emulator and storefront
 * URLs, runs the first full sync, and keeps serving until Ctrl-C (`--exit` stops after the sync).
 */
import { isPostgresUrl } from "../../app/database-url";
import { startDemo } from "./admin-demo";

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

function postgresServer(url: string | undefined): string | undefined {
  return url && isPostgresUrl(url.trim()) ? url.trim() : undefined;
}

// Stopping removes the demo's temporary folder and its database. A stop before the demo is up
// (or during its first sync) stops it too: the folder goes with the process either way.
let stopping: Promise<void> | undefined;
const started: { demo?: Awaited<ReturnType<typeof startDemo>> } = {};
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    stopping ??= (started.demo?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  });

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
  postgresUrl: postgresServer(process.env.DATABASE_URL),
  log: (line) => console.log(line),
});
started.demo = demo;
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
if (stopping) await stopping;
const prisma = (await import("../../app/db.server")).default;
const { runCounts } = await import("../../app/models/sync-runs.server");
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
