/** The emulator's own HTTP helpers, over the local servers' shared ones (dev/http.ts). */
import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLargeError, readBody, sendJson } from "../http";

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

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(
    res,
    error.status,
    { error: { message: error.message, code: error.code }, ...error.extra },
    error.headers,
  );
}

/** The body as JSON; an empty body is `undefined`; anything unreadable is a 400. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    throw new HttpError(413, "PAYLOAD_TOO_LARGE", error.message);
  }
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new HttpError(400, "INVALID_JSON", "The request body is not valid JSON");
  }
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
