/**
 * The app's HTTP server: the production build (`npm run build`) as `npm start` serves it
 * (app/cli/serve.ts), and as the demo, the tests and the benchmarks run it. Shopify's webhook
 * routes are answered first, by the server itself (./webhook-routes.ts); every other request goes
 * to express and Remix as `remix-serve` served them (compressed, static files, then Remix).
 * The app reads its configuration from process.env when the build is loaded: set it first.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import { shopifyWebhookRoutes } from "./webhook-routes";

const ROOT = join(import.meta.dirname, "..", "..");
const BUILD = join(ROOT, "build", "server", "index.js");

export interface RunningAppServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface AppServerOptions {
  /** Default: any free port. */
  port?: number;
  /** Default: loopback only; `null`: every interface, as `remix-serve` listens. */
  host?: string | null;
  /** One line per request answered by express and Remix, as `remix-serve` logs (morgan "tiny"). */
  logRequests?: boolean;
}

class AppNotBuiltError extends Error {
  constructor() {
    super("The app is not built: run `npm run build` first (npm test and npm run demo do).");
    this.name = "AppNotBuiltError";
  }
}

/** Fails with what to do when the production build the server runs is missing. */
export function requireAppBuild(): void {
  if (!existsSync(BUILD)) throw new AppNotBuiltError();
}

export async function startAppServer(options: AppServerOptions = {}): Promise<RunningAppServer> {
  requireAppBuild();
  const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild;
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(
    "/assets",
    express.static(join(ROOT, "build", "client", "assets"), { immutable: true, maxAge: "1y" }),
  );
  app.use(express.static(join(ROOT, "build", "client"), { maxAge: "1h" }));
  if (options.logRequests) app.use(morgan("tiny"));
  app.all("*", createRequestHandler({ build, mode: "production" }));
  const webhooks = shopifyWebhookRoutes(build);
  const server = createServer((req, res) => {
    if (!webhooks(req, res)) app(req, res);
  });
  const host = options.host === undefined ? "127.0.0.1" : options.host;
  if (host === null) server.listen(options.port ?? 0);
  else server.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host ?? "localhost"}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
