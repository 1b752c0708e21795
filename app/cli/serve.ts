/**
 * `npm start`: the app's production build on its HTTP server (app/server/app-server.ts), on PORT
 * (default 3000) and every interface, or HOST when set, as `remix-serve` served it; Shopify's
 * webhook routes are answered before express and Remix. Like `npm run worker`, it runs as
 * production unless NODE_ENV says otherwise; a bad configuration, or a port in use
 * (./port-in-use.ts), stops it with one message and exit code 2 when the server starts. The
 * server's background work starts here (background: true), unless BACKGROUND_WORK=off. SIGTERM or
 * SIGINT stops it cleanly (./stop-on-signals.ts, docs/operations.md). The import
 * is dynamic so that NODE_ENV is set before express, React and Remix read it when they load.
 */
export {};

process.env.NODE_ENV ||= "production";
const { configOrExit } = await import("../config.server");
const { exitWithStartUpFailure, migrateOrExplain } = await import("./start-up-checks");
const { requireAppBuild, startAppServer } = await import("../server/app-server");
// What would stop it, each in one line with exit code 2, before anything else is printed: the
// configuration, the build, the database (migrated here, quietly: Prisma's output only as the
// reason of a failure).
configOrExit();
const port = Number(process.env.PORT?.trim() || 3000);
// 0: any free port (the tests use it).
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  exitWithStartUpFailure(
    `PORT must be a port number from 0 to 65535, got "${process.env.PORT}": set PORT to the port the app listens on.`,
  );
}
try {
  requireAppBuild();
} catch (error) {
  exitWithStartUpFailure((error as Error).message);
}
const problem = await migrateOrExplain();
if (problem) exitWithStartUpFailure(problem);
const { exitIfPortInUse } = await import("./port-in-use");
const { stopOnSignals } = await import("./stop-on-signals");
const { logFor } = await import("../server/log");
const server = await startAppServer({
  port,
  host: process.env.HOST || null,
  logRequests: true,
  background: true,
}).catch((error: unknown) => {
  exitIfPortInUse(error, port, "PORT");
  throw error;
});
logFor("catalog-chat").info({ url: server.url }, `listening on ${server.url}`);
stopOnSignals({
  name: "catalog-chat",
  stop: () => server.close({ graceMs: 5_000 }),
  lastly: () => server.releaseLeases(),
});
