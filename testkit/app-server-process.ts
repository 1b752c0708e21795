/**
 * The app's production build on its own HTTP server, as a separate process (for tests that watch
 * the server's memory or kill it). Configuration comes from the environment; PORT, as for
 * remix-serve, fixes the port (default: any free one). Its background work starts as `npm start`
 * starts it (unless BACKGROUND_WORK=off). Prints `listening <url>` once it accepts requests.
 */
import { startAppServer } from "../app/server/app-server";

const server = await startAppServer({ port: Number(process.env.PORT ?? 0), background: true });
process.stdout.write(`listening ${server.url}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
