/**
 * A fake Shopify Admin API: a real HTTP server that answers the Admin GraphQL API (2026-10) as
 * Shopify does for what the app uses — validation against the real schema, cost throttling, bulk
 * query operations with downloadable JSONL and the finish webhook, `nodes(ids:)`, metafields —
 * over an in-memory store loaded from bulk JSONL or the sample-store generator. Independent of
 * app/: it stands for Shopify.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { CONTROL_PREFIX, handleControl } from "./control-routes";
import { FakeShopifyControl } from "./control";
import { FakeShopifyCore, type FakeShopifyOptions } from "./core";
import { GRAPHQL_PATH, handleGraphql } from "./graphql-endpoint";
import { THEME_FILES_PREFIX } from "./themes";
import { closeServer, httpUrl, listen, sendJson } from "../http";

export type { FakeShopifyOptions, RequestLogEntry } from "./core";
export { DEFAULT_ACCESS_TOKEN, DEFAULT_MERCHANT_ACCESS_TOKEN } from "./core";
export type { FakeShopifyControl } from "./control";
export type { BulkOperationRecord } from "./bulk-operations";
export type { WebhookDelivery } from "./webhooks";
export type { ProductChanges, NewProduct, ProductSnapshot } from "./store";

export interface RunningFakeShopify {
  /** http://host:port */
  url: string;
  /** `${url}/admin/api/2026-10/graphql.json` */
  graphqlUrl: string;
  port: number;
  close(): Promise<void>;
  /** Inspection and control (the same as the /__fake/ routes). */
  state: FakeShopifyControl;
}

const RESULTS_PREFIX = "/bulk-results/";

async function serveResult(core: FakeShopifyCore, res: ServerResponse, url: URL): Promise<void> {
  const found = core.bulk.file(
    url.pathname.slice(RESULTS_PREFIX.length),
    url.searchParams.get("X-Goog-Signature"),
  );
  if ("status" in found) {
    // What Google Cloud Storage answers for a bad or expired signed URL, or a missing object.
    const code = found.status === 403 ? "AccessDenied" : "NoSuchKey";
    const text = `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code></Error>`;
    res.writeHead(found.status, { "Content-Type": "application/xml; charset=UTF-8" });
    res.end(text);
    return;
  }
  const { size } = await stat(found.path);
  res.writeHead(200, { "Content-Type": "application/jsonl", "Content-Length": String(size) });
  // The file can go between stat and open when the fake closes mid-download: the download fails,
  // as a cut connection would, and the process goes on.
  await pipeline(createReadStream(found.path), res).catch(() => res.destroy());
}

async function handle(
  core: FakeShopifyCore,
  control: FakeShopifyControl,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://fake-shopify.invalid");
  const method = req.method ?? "GET";
  try {
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      return await handleControl(control, req, res, url);
    }
    if (method === "GET" && url.pathname.startsWith(RESULTS_PREFIX)) {
      return await serveResult(core, res, url);
    }
    if (method === "GET" && url.pathname.startsWith(THEME_FILES_PREFIX)) {
      const content = core.themes.fileAtUrl(url.pathname.slice(THEME_FILES_PREFIX.length));
      if (content === undefined) return sendJson(res, 404, { errors: "Not Found" });
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      res.end(content);
      return;
    }
    if (method === "POST" && url.pathname === GRAPHQL_PATH) {
      return await handleGraphql(core, req, res);
    }
    req.resume();
    sendJson(res, 404, { errors: "Not Found" });
  } catch (error) {
    console.error("[fake-shopify]", error);
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { errors: "Internal Server Error" });
  }
}

export async function startFakeShopify(
  options: FakeShopifyOptions = {},
): Promise<RunningFakeShopify> {
  const core = new FakeShopifyCore(options);
  await core.load();
  const control = new FakeShopifyControl(core);
  const server = createServer((req, res) => void handle(core, control, req, res));
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 0, host);
  const url = httpUrl(host, port);
  core.baseUrl = url;
  return {
    url,
    graphqlUrl: `${url}${GRAPHQL_PATH}`,
    port,
    state: control,
    close: async () => {
      const closed = closeServer(server);
      await core.close();
      await closed;
    },
  };
}
