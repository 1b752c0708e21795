/**
 * The small HTTP helpers the local servers share (the service emulator, the fake Shopify Admin
 * API, the storefront preview, the mail sink): reading a bounded body, answering JSON, listening
 * on a port (0: a free one) and closing with every connection.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer, type AddressInfo } from "node:net";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/** The request's body, refused past `maxBytes` as it streams in (never buffered whole first). */
export async function readBody(
  req: IncomingMessage,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLargeError(`The body exceeds ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export async function readText(
  req: IncomingMessage,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<string> {
  return (await readBody(req, maxBytes)).toString("utf8");
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
    "Content-Length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An idle keep-alive connection is kept this long: far longer than a client keeps one (Node's
 * fetch, 4 s), so the client always closes it first. With Node's default of 5 s the server closed
 * connections the client was just reusing, and on a loaded machine a request now and then failed
 * with ECONNRESET (real Shopify and the service keep theirs for a minute or more).
 */
const KEEP_ALIVE_MS = 65_000;

/** Listens on `port` of `host` (0: a free port) and resolves to the port taken. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops listening and drops every open connection; resolves once the server closed. */
export function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
  server.closeAllConnections();
  return closed;
}

/** `http://host:port`, an IPv6 host in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * A port nothing listens on right now, for a server whose URL must be known before it starts.
 * Picked at random below Linux's ephemeral range (32768-60999), not by binding port 0: that gives
 * a port from the ephemeral range, where any outgoing connection of the machine may take it
 * before the server listens (seen as EADDRINUSE in a test while benchmarks ran beside it); here
 * only another picker could, at random. Port 0's pick is the fallback.
 */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await listenOnce(port, host)) !== null) return port;
  }
  const port = await listenOnce(0, host);
  if (port === null) throw new Error(`no free port on ${host}`);
  return port;
}

/** Listens on `port` and closes at once: the port it got, or null when it was taken. */
function listenOnce(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(null));
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : null));
    });
  });
}

/** A server's number setting from the environment (a port, a delay); anything else exits. */
export function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a number >= 0, got "${raw}"`);
    process.exit(1);
  }
  return value;
}
