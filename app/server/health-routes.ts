import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readiness } from "./health.server";
import { logFor } from "./log";

const log = logFor("health");

/**
 * `GET /healthz` (the process is alive: 200) and `GET /readyz` (the checks of
 * ./health.server.ts: 200 when every one passes, else 503 naming the failing ones), answered by
 * the HTTP server itself, before anything else, without authentication. Returns a handler that
 * answers and returns true for those two paths, false for any other request. See
 * docs/operations.md.
 */
export function healthRoutes(
  readiness: () => Promise<Readiness>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  };
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (path === "/healthz") {
      send(res, 200, { status: "alive" });
      return true;
    }
    if (path !== "/readyz") return false;
    readiness().then(
      (result) =>
        send(res, result.ready ? 200 : 503, {
          status: result.ready ? "ready" : "not ready",
          failing: result.failing,
          checks: result.checks,
        }),
      (error: unknown) => {
        log.error({ err: error }, "readiness could not be checked");
        send(res, 503, { status: "not ready", failing: ["readiness"], checks: {} });
      },
    );
    return true;
  };
}
