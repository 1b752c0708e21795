import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, type ServerBuild } from "@remix-run/node";
import type { WebhookRequest } from "../shopify/webhook-body-limit.server";
import type { WebhookActionArgs } from "../shopify/webhooks.server";
import { logFor } from "./log";

const log = logFor("webhooks");

type WebhookAction = (args: WebhookActionArgs) => Promise<Response> | Response;

/**
 * Told of every delivery answered: its X-Shopify-Topic and X-Shopify-Shop-Domain (unchecked), the
 * status, the time it took.
 */
export type WebhookObserver = (delivery: {
  topic: string | null;
  shop: string | null;
  status: number;
  seconds: number;
}) => void;

/** Where Shopify's webhook routes live (app/routes/webhooks.*.tsx). */
const WEBHOOKS = "/webhooks/";

/** A route's URL path: its own path after its parents' (flat routes nest under the root). */
function fullPath(build: ServerBuild, id: string): string {
  const route = build.routes[id];
  if (!route) return "";
  const parent = route.parentId ? fullPath(build, route.parentId) : "";
  return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent;
}

/** The request's headers as a Fetch `Headers` reads them (repeated headers joined with ", "). */
function headersOf(req: IncomingMessage): WebhookRequest["headers"] {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/**
 * Shopify's webhook routes served by the HTTP server itself, before express and Remix: a POST to
 * the exact path of a route under /webhooks/ calls that route's action from the build (the one
 * implementation; Remix calls the same) with the Node request's headers and body, and sends the
 * Response it returns or throws. Building a Fetch `Request`, express's middleware and Remix's
 * route matching cost more than the delivery's own work (docs/decisions/0012-webhook-fast-path.md).
 * Returns a handler that answers and returns true for those requests, false for any other (which
 * go on to express and Remix, as does a webhook path in another spelling, e.g. a trailing slash).
 * `observe` is told of each delivery answered (the app's metrics: topic, outcome, intake time).
 */
export function shopifyWebhookRoutes(
  build: ServerBuild,
  observe: WebhookObserver = () => undefined,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const actions = new Map<string, WebhookAction>();
  for (const id of Object.keys(build.routes)) {
    const path = fullPath(build, id);
    const action = build.routes[id]?.module.action;
    if (action && path.startsWith(WEBHOOKS) && !/[:*]/.test(path)) {
      // These routes' actions read only method, headers and body (WebhookActionArgs).
      actions.set(path, action as unknown as WebhookAction);
    }
  }
  return (req, res) => {
    if (req.method !== "POST") return false;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const action = actions.get(query === -1 ? url : url.slice(0, query));
    if (!action) return false;
    const started = process.hrtime.bigint();
    const report = (status: number) =>
      observe({
        topic: headersOf(req).get("X-Shopify-Topic"),
        shop: headersOf(req).get("X-Shopify-Shop-Domain"),
        status,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    const request: WebhookRequest = {
      method: "POST",
      headers: headersOf(req),
      body: createReadableStreamFromReadable(req),
    };
    void (async () => {
      let response: Response;
      try {
        response = await action({ request });
      } catch (thrown) {
        if (thrown instanceof Response) {
          response = thrown;
        } else {
          // As Remix does for an action's error: logged, and a 500 without details.
          log.error({ err: thrown }, "a webhook's action failed");
          response = new Response("Unexpected Server Error", { status: 500 });
        }
      }
      await send(res, response);
      return response.status;
    })().then(
      (status) => report(status),
      (error: unknown) => {
        log.error({ err: error }, "a webhook could not be answered");
        if (!res.headersSent) res.writeHead(500);
        res.end();
        report(res.statusCode);
      },
    );
    return true;
  };
}
