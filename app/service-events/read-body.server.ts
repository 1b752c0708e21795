/** The largest service event body taken; a contact form or a chat message is far smaller. */
export const MAX_SERVICE_EVENT_BYTES = 256 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super(`The body is larger than ${MAX_SERVICE_EVENT_BYTES} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * The raw body as text, refused (413) when it declares or turns out to be larger than the limit:
 * read chunk by chunk, so an oversized body is never held whole.
 */
export async function readLimitedBody(
  request: Request,
  limit: number = MAX_SERVICE_EVENT_BYTES,
): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
