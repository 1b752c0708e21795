import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { logFor } from "./log";

const log = logFor("metrics");

/** What `GET /metrics` serves in one process (app/entry.server.tsx, app/cli/worker-process.ts). */
export interface MetricsEndpoint {
  /** METRICS_TOKEN; undefined: /metrics is off and answers 404. */
  token: string | undefined;
  scrape(): Promise<{ contentType: string; text: string }>;
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** The request carries `Authorization: Bearer <token>`, compared in constant time. */
function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return !!match && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * `GET /metrics`: the process's metrics in Prometheus' text format (./metrics.ts) for a request
 * with the bearer token; 401 without it; 404 when no METRICS_TOKEN is set, as if there were no
 * such path. Answered by the HTTP server itself, before anything else. Returns a handler that
 * answers and returns true for that path, false for any other request. See docs/operations.md.
 */
export function metricsRoute(
  endpoint: () => MetricsEndpoint,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const send = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body = "",
  ) => {
    res.writeHead(status, { "Cache-Control": "no-store", ...headers });
    res.end(body);
  };
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    if ((query === -1 ? url : url.slice(0, query)) !== "/metrics") return false;
    const { token, scrape } = endpoint();
    if (token === undefined) {
      send(res, 404, { "Content-Type": "text/plain" }, "Not Found");
      return true;
    }
    if (!authorized(req, token)) {
      send(
        res,
        401,
        { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"' },
        "Unauthorized: send Authorization: Bearer <METRICS_TOKEN>",
      );
      return true;
    }
    scrape().then(
      ({ contentType, text }) => send(res, 200, { "Content-Type": contentType }, text),
      (error: unknown) => {
        log.error({ err: error }, "the metrics could not be collected");
        send(res, 500, { "Content-Type": "text/plain" }, "The metrics could not be collected");
      },
    );
    return true;
  };
}
