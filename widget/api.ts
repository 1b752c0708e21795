/**
 * The chat's calls to the service, made from the shopper's browser with the publishable key only:
 * POST /chat (streamed NDJSON) and POST /feedback. The third call from the storefront, the search
 * box's POST /products/search (./search.ts), sends the same headers (`serviceHeaders`).
 */
import type { WidgetConfig } from "./config";
import type { Rating, Turn } from "./model";

export type Failure =
  | { kind: "network" }
  | { kind: "auth" }
  /** The month's chat messages are used up (403 QUOTA_EXCEEDED, docs/reference/service-gaps.md). */
  | { kind: "quota" }
  | { kind: "rate"; seconds: number }
  | { kind: "http"; status: number };

/** Used when a 429 names no wait at all. */
const DEFAULT_RETRY_SECONDS = 30;

/** The publishable key and the workspace: all the widget and the search box send. */
export function serviceHeaders(
  cfg: Pick<WidgetConfig, "publishableKey" | "workspaceId">,
): Record<string, string> {
  const h: Record<string, string> = {
    Authorization: `Bearer ${cfg.publishableKey}`,
    "Content-Type": "application/json",
  };
  if (cfg.workspaceId) h["X-Workspace-ID"] = cfg.workspaceId;
  return h;
}

/**
 * Seconds to wait after a 429: the larger of the body's `retryAfter` (seconds, see
 * docs/reference/service-gaps.md) and a `Retry-After` header in seconds, when the service exposes it.
 */
export async function retryAfterSeconds(res: Response): Promise<number> {
  const body = (await res.json().catch(() => ({}))) as { retryAfter?: unknown };
  const seconds = Math.ceil(
    Math.max(Number(body.retryAfter) || 0, Number(res.headers.get("Retry-After")) || 0),
  );
  return seconds > 0 ? seconds : DEFAULT_RETRY_SECONDS;
}

export async function postChat(
  cfg: WidgetConfig,
  threadId: string,
  turn: Turn,
  signal: AbortSignal,
): Promise<Response | Failure> {
  let res: Response;
  try {
    res = await fetch(`${cfg.apiUrl}/chat`, {
      method: "POST",
      headers: { ...serviceHeaders(cfg), Accept: "application/x-ndjson" },
      body: JSON.stringify({
        message: turn.message,
        threadId,
        stream: true,
        // The shopper's language (BCP 47), a body extra the service may use (service-gaps.md).
        locale: cfg.locale,
        ...(turn.offerResponse ? { offerResponse: turn.offerResponse } : {}),
      }),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: "network" };
  }
  if (res.ok && res.body) return res;
  if (res.status === 429) return { kind: "rate", seconds: await retryAfterSeconds(res) };
  if (res.status === 403) {
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: unknown } };
    if (body.error?.code === "QUOTA_EXCEEDED") return { kind: "quota" };
  }
  if (res.status === 401 || res.status === 403) return { kind: "auth" };
  return { kind: "http", status: res.status };
}

export function postFeedback(
  cfg: WidgetConfig,
  threadId: string,
  rating: Rating,
  messageIndex: number,
): Promise<boolean> {
  return fetch(`${cfg.apiUrl}/feedback`, {
    method: "POST",
    headers: serviceHeaders(cfg),
    body: JSON.stringify({ threadId, rating, messageIndex }),
    keepalive: true,
  }).then(
    (res) => res.ok,
    () => false,
  );
}
