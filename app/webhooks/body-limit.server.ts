/**
 * The largest webhook body the app reads. Shopify's biggest deliveries are products/*: the REST
 * Product resource, measured at up to 0.9 KB per variant and 0.4 KB per image in Shopify's own
 * fixtures (test/fixtures/shopify/rest-admin). A product may have 2,048 variants and 250 media, so
 * the worst real payload is about 2 MB; 4 MiB keeps twice that. See docs/webhook-limits.md.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

function tooLarge(limit: number): Response {
  // Connection: close makes the server drop the rest of the upload instead of reading it.
  return new Response(`Webhook body over ${limit} bytes refused`, {
    status: 413,
    headers: { Connection: "close" },
  });
}

/**
 * Reads a request's body as text, refusing (a thrown 413 Response) anything over `limit` bytes:
 * by its Content-Length before a byte is read, else as soon as the stream passes the limit. At
 * most `limit` bytes are ever held, so parallel oversized requests cannot grow the process.
 * Any webhook route (Shopify's or the service's) reads its body through this.
 */
export async function readBodyWithinLimit(
  request: Request,
  limit: number = WEBHOOK_BODY_LIMIT_BYTES,
): Promise<string> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Not cancelled: that would reset the connection before the 413 is sent. Unread, the rest
      // waits in the socket until Connection: close ends it.
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
