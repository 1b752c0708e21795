/**
 * The app's HTTP server: the production build (`npm run build`) as `npm start` serves it
 * (app/cli/serve.ts), and as the demo, the tests and the benchmarks run it. `GET /healthz` and
 * `GET /readyz` are answered first (./health-routes.ts, docs/operations.md), then `GET /metrics`
 * (./metrics-route.ts), then Shopify's webhook
 * routes, by the server itself (./webhook-routes.ts); every other request goes
 * to express and Remix as `remix-serve` served them (compressed, static files, then Remix).
 * The app reads its configuration from process.env when the server starts: set it first.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { Readiness } from "./health.server";
import { refuseCrossSiteWrite } from "./cross-site-writes";
import { healthRoutes } from "./health-routes";
import { logFor, withLogContext } from "./log";
import { metricsRoute, type MetricsEndpoint } from "./metrics-route";
import { shopifyWebhookRoutes, type WebhookObserver } from "./webhook-routes";

const ROOT = join(import.meta.dirname, "..", "..");
const BUILD = join(ROOT, "build", "server", "index.js");
/** How long a closing server waits for the requests and batches under way. */
const DEFAULT_GRACE_MS = 5_000;

export interface RunningAppServer {
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets the requests under way finish (every webhook answered 200
   * is written by then) for up to `graceMs` (default 5 s), then closes what is left; with
   * `background`, stops the background work and gives the process's shop leases back.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /** Gives back every shop lease the process holds, at once. */
  releaseLeases(): Promise<void>;
}

export interface AppServerOptions {
  /** Default: any free port. */
  port?: number;
  /** Default: loopback only; `null`: every interface, as `remix-serve` listens. */
  host?: string | null;
  /** One log line per request answered by express and Remix (method, path, status, time). */
  logRequests?: boolean;
  /**
   * Starts the server's background work in this process (app/background.server.ts: the live
   * worker, resumed syncs, reconciliation, ...) unless BACKGROUND_WORK=off, as `npm start` does.
   * Default: none, for servers started inside a test or a benchmark.
   */
  background?: boolean;
}

/** The build's server entry (app/entry.server.tsx) with what the server calls when it starts. */
type EntryModule = ServerBuild["entry"]["module"] & {
  startServerProcess(options: { background: boolean }): void;
  stopServerProcess(options: { timeoutMs: number }): Promise<void>;
  releaseProcessLeases(): Promise<void>;
  readiness(): Promise<Readiness>;
  metricsEndpoint(): MetricsEndpoint;
  observeWebhookDelivery: WebhookObserver;
};

const requestLog = logFor("http");

/** The caller's X-Request-Id when it is a plain token (a proxy's), else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  const value = Array.isArray(given) ? given[0] : given;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

/**
 * One line once the request is answered. The path only: a query can carry the admin's session
 * token (`id_token`) and Shopify's `hmac`.
 */
function logWhenAnswered(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const started = process.hrtime.bigint();
  res.once("finish", () => {
    const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
    const path = (req.url ?? "").split("?")[0];
    requestLog.info(
      { requestId, method: req.method, path, status: res.statusCode, ms },
      `${req.method} ${path} ${res.statusCode} ${ms} ms`,
    );
  });
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
  const entry = build.entry.module as EntryModule;
  entry.startServerProcess({ background: !!options.background });
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(
    "/assets",
    express.static(join(ROOT, "build", "client", "assets"), { immutable: true, maxAge: "1y" }),
  );
  app.use(express.static(join(ROOT, "build", "client"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build, mode: "production" }));
  const health = healthRoutes(() => entry.readiness());
  const metrics = metricsRoute(() => entry.metricsEndpoint());
  const webhooks = shopifyWebhookRoutes(build, entry.observeWebhookDelivery);
  let closing = false;
  const server = createServer((req, res) => {
    if (closing) {
      // A request that came on a kept-alive connection while closing: its connection goes after it.
      res.shouldKeepAlive = false;
      res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    }
    // Every line logged while the request is answered carries its id (and its shop, once known).
    const requestId = requestIdOf(req);
    res.setHeader("X-Request-Id", requestId);
    withLogContext({ requestId }, () => {
      if (health(req, res) || metrics(req, res) || webhooks(req, res)) return;
      if (refuseCrossSiteWrite(req, res)) return;
      if (options.logRequests) logWhenAnswered(req, res, requestId);
      app(req, res);
    });
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
    close: async ({ graceMs = DEFAULT_GRACE_MS } = {}) => {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const late = setTimeout(() => server.closeAllConnections(), graceMs);
      // The background work finishes its batches while the last requests are answered.
      await Promise.all([
        closed.finally(() => clearTimeout(late)),
        options.background ? entry.stopServerProcess({ timeoutMs: graceMs }) : undefined,
      ]);
    },
    releaseLeases: () => entry.releaseProcessLeases(),
  };
}
