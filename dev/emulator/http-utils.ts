/** Small helpers over node:http for the emulator. */
import type { IncomingMessage, ServerResponse } from "node:http";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** An answer other than success, thrown by handlers and sent by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Top-level fields next to `error` (e.g. retryAfter, upgrade_url). */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(
    res,
    error.status,
    { error: { message: error.message, code: error.code }, ...error.extra },
    error.headers,
  );
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpError(413, "PAYLOAD_TOO_LARGE", `The body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON; an empty body is `undefined`; anything unreadable is a 400. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new HttpError(400, "INVALID_JSON", "The request body is not valid JSON");
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) setImmediate(resolve);
    else setTimeout(resolve, ms);
  });
}

/** Waits `ms`, or less if the client goes away first; true when it went away. */
export function waitUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(true);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(false);
    }, ms);
    res.once("close", onClose);
  });
}
