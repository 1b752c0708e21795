/**
 * `npm start`: the app's production build on its HTTP server (app/server/app-server.ts), on PORT
 * (default 3000) and every interface, or HOST when set, as `remix-serve` served it; Shopify's
 * webhook routes are answered before express and Remix. Like `npm run worker`, it runs as
 * production unless NODE_ENV says otherwise; a bad configuration stops it (exit code 2) when the
 * build loads.
 */
export {};

process.env.NODE_ENV ||= "production";
const { startAppServer } = await import("../server/app-server");
const server = await startAppServer({
  port: Number(process.env.PORT || 3000),
  host: process.env.HOST || null,
  logRequests: true,
});
console.log(`[catalog-chat] ${server.url}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
