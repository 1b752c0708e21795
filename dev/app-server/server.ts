/**
 * The Remix app on a real HTTP server, for the demo and for tests that exercise the app's routes
 * over HTTP: the production build (`npm run build`) behind express, as `remix-serve` runs it.
 * The app reads its configuration from process.env when the build is loaded: set it first.
 */
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";

const ROOT = join(import.meta.dirname, "..", "..");
const BUILD = join(ROOT, "build", "server", "index.js");

export interface RunningAppServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export class AppNotBuiltError extends Error {
  constructor() {
    super("The app is not built: run `npm run build` first (npm test and npm run demo do).");
    this.name = "AppNotBuiltError";
  }
}

export async function startAppServer(
  options: { port?: number; host?: string } = {},
): Promise<RunningAppServer> {
  if (!existsSync(BUILD)) throw new AppNotBuiltError();
  const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild;
  const app = express();
  app.disable("x-powered-by");
  app.use(
    "/assets",
    express.static(join(ROOT, "build", "client", "assets"), { immutable: true, maxAge: "1y" }),
  );
  app.use(express.static(join(ROOT, "build", "client"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build, mode: "production" }));
  const host = options.host ?? "127.0.0.1";
  const server = app.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
