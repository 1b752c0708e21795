/**
 * npm run demo — the whole app offline, on loopback: prints the admin, emulator and storefront
 * URLs, runs the first full sync, and keeps serving until Ctrl-C (`--exit` stops after the sync).
 */
import { startDemo } from "./admin-demo";

const demo = await startDemo({
  appPort: Number(process.env.PORT ?? 3000),
  emulatorPort: Number(process.env.EMULATOR_PORT ?? 4010),
  log: (line) => console.log(line),
});
console.log(`Admin: ${demo.adminUrl}`);
console.log(`Service emulator: ${demo.emulatorUrl}`);
console.log(`Storefront preview: ${demo.storefrontUrl}`);
console.log(`Mail the app sent (caught locally): ${demo.mailUrl}`);
const result = await demo.firstSync;
const prisma = (await import("../../app/db.server")).default;
const { runCounts } = await import("../../app/sync/sync-runs.server");
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
process.on("SIGINT", () => void demo.close().then(() => process.exit(0)));
