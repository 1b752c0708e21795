import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import {
  ensureBackgroundWork,
  runningBackgroundWork,
  stopBackgroundWork,
} from "./background.server";
import { config, configOrExit } from "./config.server";
import { switchToWriteAheadLog } from "./models/write-ahead-log.server";
import { checkReadiness, type Readiness } from "./server/health.server";
import { appMetrics, scrapeMetrics } from "./server/metrics";
import type { MetricsEndpoint } from "./server/metrics-route";
import { releaseProcessLeases } from "./sync/engine/process-leases.server";
import { addDocumentResponseHeaders } from "./shopify/app.server";
import { logFor } from "./server/log";

const log = logFor("server");

export const streamTimeout = 5000;

/**
 * What the app server does when its process starts, called by whoever starts it, never by an
 * import: startAppServer (app/server/app-server.ts: `npm start`, the demo, the tests) once the
 * build is loaded, and the dev server's plugin in vite.config.ts (`npm run dev`). Called from the
 * build, it runs in the build's own copy of the app's modules, the one that answers requests.
 * A bad configuration stops the process here, with one message and exit code 2.
 */
export function startServerProcess(options: { background: boolean }): void {
  configOrExit();
  appMetrics();
  // SQLite: write-ahead logging, so that a webhook's commit costs one sync of the log.
  switchToWriteAheadLog().catch((error: unknown) =>
    log.error({ err: error }, "could not switch the SQLite database to write-ahead logging"),
  );
  // The server's background work (live worker, resumed syncs, reconciliation), once per process.
  if (options.background) ensureBackgroundWork();
}

/**
 * What the app server does when its process stops (clean shutdown, docs/operations.md): its
 * background work stops taking work and finishes the batches under way (up to `timeoutMs`), then
 * every shop lease the process holds is given back, so that another process takes the shops
 * over at once. In the build's copy of the app's modules, whose leases these are.
 */
export async function stopServerProcess(options: { timeoutMs: number }): Promise<void> {
  await stopBackgroundWork(options.timeoutMs);
  await releaseProcessLeases();
}

/** Gives back every shop lease of the process at once (a shutdown whose time ran out). */
export { releaseProcessLeases };

/**
 * The app server's /readyz (app/server/health-routes.ts), checked in the build's copy of the
 * app's modules: its database client, and the live worker its background work runs here.
 */
export function readiness(): Promise<Readiness> {
  return checkReadiness({
    liveWorker: runningBackgroundWork()?.worker,
    pollMs: config().live.pollMs,
  });
}

/**
 * The app server's /metrics (app/server/metrics-route.ts), from the build's copy of the app's
 * modules, where the counting happens.
 */
export function metricsEndpoint(): MetricsEndpoint {
  return {
    token: config().metricsToken,
    scrape: () => {
      appMetrics().watchLiveWorker(runningBackgroundWork()?.worker);
      return scrapeMetrics();
    },
  };
}

/** A Shopify webhook delivery the server answered (app/server/webhook-routes.ts), counted. */
export function observeWebhookDelivery(delivery: {
  topic: string | null;
  shop: string | null;
  status: number;
  seconds: number;
}): void {
  appMetrics().countWebhookDelivery(delivery);
}

/**
 * A loader's or action's error, logged through the app's logger (Remix would print it to the
 * console): the request's id and shop are on the line. An aborted request is nothing to report.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  log.error({ err: error, path: new URL(request.url).pathname }, "a request failed");
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const callbackName = isbot(request.headers.get("user-agent") ?? "")
    ? "onAllReady"
    : "onShellReady";

  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} />,
      {
        [callbackName]: () => {
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error) {
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          log.error({ err: error }, "a page could not be rendered");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
