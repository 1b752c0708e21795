import type { IncomingMessage, ServerResponse } from "node:http";
import { logFor } from "./log";

const log = logFor("server");
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A write whose `Origin` names another site than the request's host (`X-Forwarded-Host` first, as
 * behind a proxy) is answered 403 here, with one `info` line: Remix makes the same check for a
 * page's action but answers 500 and logs an error, and makes none for a resource route's action.
 * The app's own forms and App Bridge's requests come from the app's origin; Shopify's webhooks and
 * the service's events carry no `Origin` (and the webhooks are answered before this).
 */
export function refuseCrossSiteWrite(req: IncomingMessage, res: ServerResponse): boolean {
  if (!WRITES.has(req.method ?? "")) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const forwarded = req.headers["x-forwarded-host"];
  const host =
    (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() ||
    req.headers.host;
  if (host !== undefined && originHost(origin) === host) return false;
  log.info(
    { method: req.method, path: (req.url ?? "").split("?")[0], origin: origin.slice(0, 200) },
    "a write from another site was refused",
  );
  res.writeHead(403, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Forbidden: this request came from another site.");
  return true;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
