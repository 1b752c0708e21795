/**
 * The largest webhook body the app reads. Shopify's biggest deliveries are products/*: the REST
 * Product resource, measured at up to 0.9 KB per variant and 0.4 KB per image in Shopify's own
 * fixtures (test/fixtures/shopify/rest-admin). A product may have 2,048 variants and 250 media, so
 * the worst real payload is about 2 MB; 4 MiB keeps twice that. See docs/webhook-limits.md.
 */
import { logFor } from "../server/log";

const log = logFor("webhooks");

export const WEBHOOK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * How much of an over-limit body is read and thrown away before the 413 is sent, at most. A server
 * that answers and closes while the sender is still sending makes the kernel reset the connection,
 * and the reset can overtake the answer: the sender then sees a broken connection, not a 413.
 * Draining first (what web servers call a lingering close) gives every sender whose body ends
 * within these bounds a clean 413; a larger or slower body is cut off.
 */
export const OVERSIZED_DRAIN_MS = 3_000;
export const OVERSIZED_DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * What a webhook route reads of its request. A Fetch `Request` is one (Remix passes it); the HTTP
 * server's fast path for Shopify's webhooks passes a lighter one over the same Node request
 * (app/server/webhook-routes.ts): building a Fetch `Request` costs more than the rest of a delivery.
 */
export interface WebhookRequest {
  method: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

function tooLarge(limit: number): Response {
  return new Response(`Webhook body over ${limit} bytes refused`, {
    status: 413,
    headers: { Connection: "close" },
  });
}

/**
 * The sender closed the connection before its body ended (a timeout on its side, a reset): nobody
 * is left to read an answer, and nothing went wrong in the app, so one short line is logged, not
 * an error with its stack (a burst of such connections once printed 1,501 stack traces).
 */
function cutOff(received: number, error: unknown): Response {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const reason = (typeof code === "string" ? code : String(message ?? error)).split("\n")[0];
  log.warn(`Webhook connection closed by its sender after ${received} bytes of body (${reason})`);
  return new Response("Webhook body cut off", { status: 400, headers: { Connection: "close" } });
}

/** Reads and discards the rest of a body, holding nothing, until it ends or a drain bound is hit. */
async function discardUntil(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: number) {
  // Releasing the lock rejects a read that is waiting on a sender who went quiet. (Racing each
  // read against one shared timeout promise instead would keep every chunk alive until it fired.)
  // Not cancelled: that would reset the connection before the 413 is sent; unread, the rest waits
  // in the socket until Connection: close ends it.
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    reader.releaseLock();
  };
  const timer = setTimeout(release, Math.max(0, deadline - Date.now()));
  try {
    // The clock is read too: a sender faster than the timer's turn would never let it fire.
    let drained = 0;
    while (Date.now() < deadline && drained <= OVERSIZED_DRAIN_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      drained += value.byteLength;
    }
  } catch {
    // Time is up, or the sender went away: either way there is no more to read.
  } finally {
    clearTimeout(timer);
    release();
  }
}

/**
 * Reads a request's body as text, refusing (a thrown 413 Response) anything over `limit` bytes,
 * whether its Content-Length says so or the stream passes the limit. At most `limit` bytes are ever
 * held, so parallel oversized requests cannot grow the process. Any webhook route (Shopify's or the
 * service's) reads its body through this.
 */
export async function readBodyWithinLimit(
  request: WebhookRequest,
  limit: number = WEBHOOK_BODY_LIMIT_BYTES,
): Promise<string> {
  const declared = request.headers.get("Content-Length");
  const declaredTooLarge = declared !== null && Number(declared) > limit;
  if (!request.body) {
    if (declaredTooLarge) throw tooLarge(limit);
    return "";
  }
  const reader = request.body.getReader();
  if (declaredTooLarge) {
    await discardUntil(reader, Date.now() + OVERSIZED_DRAIN_MS);
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw cutOff(received, error);
    }
    const { done, value } = chunk;
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await discardUntil(reader, Date.now() + OVERSIZED_DRAIN_MS);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
