/**
 * A local stand-in for the hosted search, chat and indexing service: a real HTTP server with
 * in-memory state that follows docs/reference/index-service-spec.md and the choices of
 * docs/reference/service-gaps.md. Independent of app/: it is the other side of the contract.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { BUILT_IN_ACCOUNTS, keyHint, type EmulatorAccountConfig } from "./accounts";
import { chat, feedback } from "./chat-route";
import {
  POSTS,
  PRODUCTS,
  bulkDelete,
  bulkUpsert,
  deleteOne,
  getOne,
  search,
  upsert,
} from "./content-routes";
import type { Handler } from "./context";
import { EmulatorControl } from "./control";
import { EmulatorCore, type RequestLogEntry } from "./core";
import { faultError } from "./faults";
import { HttpError, readJson, sendError, waitUnlessClosed } from "./http-utils";
import { closeServer, headerValue, httpUrl, listen } from "../http";
import { INSPECTION_PREFIX, handleInspection } from "./inspection";
import { takeRequest } from "./limits";
import { usageReport } from "./usage-route";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  testWebhook,
  updateWebhook,
} from "./webhook-routes";
import { normalizeWorkspaceId } from "./workspace";

export type { EmulatorAccountConfig } from "./accounts";
export type { EmulatorControl } from "./control";
export type { FaultSpec } from "./faults";

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Pause between two `text_delta` events of a chat stream (default 20 ms). */
  tokenDelayMs?: number;
  /** Webhook retry delays are multiplied by it (1 = real minutes; e.g. 0.0001 in tests). */
  timeScale?: number;
  /** The clock for rate windows, quotas and timestamps (default Date.now). */
  now?: () => number;
  /** Accounts in addition to the built-in test accounts. */
  accounts?: EmulatorAccountConfig[];
  /** How long a webhook receiver may take to answer (default 30 000 ms). */
  webhookTimeoutMs?: number;
  /** Keep each API request's parsed body in the request log (to see what was sent, and when). */
  logBodies?: boolean;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Inspection and control (the same as the /__emulator/ routes). */
  state: EmulatorControl;
}

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** "any": publishable keys may call it too (search, chat, feedback). */
  access: "secret" | "any";
}

function route(method: string, path: string, handler: Handler, access: Route["access"]): Route {
  const pattern = new RegExp(`^${path.replace(/:id/g, "(?<id>[^/]+)")}$`);
  return { method, pattern, handler, access };
}

const ROUTES: readonly Route[] = [
  route("POST", "/products/search", search, "any"),
  route("POST", "/products", upsert(PRODUCTS), "secret"),
  route("POST", "/products/bulk", bulkUpsert(PRODUCTS), "secret"),
  route("DELETE", "/products/bulk", bulkDelete(PRODUCTS), "secret"),
  route("GET", "/products/:id", getOne(PRODUCTS), "secret"),
  route("DELETE", "/products/:id", deleteOne(PRODUCTS), "secret"),
  route("POST", "/posts", upsert(POSTS), "secret"),
  route("POST", "/posts/bulk", bulkUpsert(POSTS), "secret"),
  route("DELETE", "/posts/bulk", bulkDelete(POSTS), "secret"),
  route("GET", "/posts/:id", getOne(POSTS), "secret"),
  route("DELETE", "/posts/:id", deleteOne(POSTS), "secret"),
  route("POST", "/chat", chat, "any"),
  route("POST", "/feedback", feedback, "any"),
  route("POST", "/webhooks", createWebhook, "secret"),
  route("GET", "/webhooks", listWebhooks, "secret"),
  route("GET", "/webhooks/:id", getWebhook, "secret"),
  route("PUT", "/webhooks/:id", updateWebhook, "secret"),
  route("DELETE", "/webhooks/:id", deleteWebhook, "secret"),
  route("POST", "/webhooks/:id/test", testWebhook, "secret"),
  route("GET", "/usage", usageReport, "secret"),
];

const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, X-Workspace-ID, Accept";
const CORS_ALLOWED_METHODS = "GET, POST, PUT, DELETE, OPTIONS";
const UPGRADE_URL = "https://service.example/billing/upgrade";

function matchRoute(method: string, path: string) {
  for (const candidate of ROUTES) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        throw new HttpError(400, "VALIDATION_ERROR", "The path is not valid percent-encoding");
      }
    }
    return { route: candidate, params };
  }
  return undefined;
}

function unauthorized(message: string): HttpError {
  return new HttpError(401, "UNAUTHORIZED", message);
}

async function handleApi(
  core: EmulatorCore,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  origin: string | undefined,
  log: RequestLogEntry,
): Promise<void> {
  const match = matchRoute(method, path);
  if (!match) throw new HttpError(404, "NOT_FOUND", `No route ${method} ${path}`);

  const fault = core.faults.take(method, path, headerValue(req, "x-workspace-id"));
  if (fault) {
    if (fault.delayMs && (await waitUnlessClosed(fault.delayMs, res))) return;
    if (fault.disconnect) {
      req.socket.destroy();
      return;
    }
    const error = faultError(fault);
    if (error) throw error;
  }

  const authorization = headerValue(req, "authorization");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!bearer?.[1]) {
    log.keyType = authorization === undefined ? "none" : "invalid";
    throw unauthorized("Missing or malformed Authorization header; expected Bearer <API key>");
  }
  const key = bearer[1];
  log.keyHint = keyHint(key);
  const found = core.accounts.lookup(key);
  if (!found || found.record.revoked) {
    log.keyType = "invalid";
    throw unauthorized("The API key is invalid, expired or revoked");
  }
  const { account, record } = found;
  log.keyType = record.type;
  log.account = account.name;
  if (account.status === "trial_expired") {
    throw new HttpError(402, "TRIAL_EXPIRED", "The free trial has ended; subscribe to a plan", {
      trial_ended_at: account.trialEndedAt,
      upgrade_url: UPGRADE_URL,
    });
  }
  if (account.status === "inactive") {
    throw new HttpError(403, "SUBSCRIPTION_INACTIVE", "The subscription is inactive");
  }
  if (match.route.access === "secret" && record.type === "publishable") {
    throw new HttpError(
      403,
      "FORBIDDEN",
      "A publishable key is read-only; this operation needs a secret key",
    );
  }

  const now = core.clock.now();
  const decision = takeRequest(account, now);
  if (!decision.allowed) {
    throw new HttpError(
      429,
      "RATE_LIMITED",
      "Rate limit exceeded",
      { retryAfter: decision.retryAfterSeconds },
      { "Retry-After": String(decision.retryAfterSeconds) },
    );
  }

  const body = await readJson(req);
  if (core.logBodies) log.body = body;
  let workspaceId: string | undefined;
  const header = headerValue(req, "x-workspace-id");
  if (header !== undefined && header.trim() !== "") {
    workspaceId = normalizeWorkspaceId(header);
    if (workspaceId === undefined) {
      throw new HttpError(
        400,
        "VALIDATION_ERROR",
        "X-Workspace-ID is not a workspace id or domain",
      );
    }
  } else if (record.type === "publishable" && origin !== undefined) {
    workspaceId = normalizeWorkspaceId(origin);
  }
  if (workspaceId !== undefined) log.workspaceId = workspaceId;

  await match.route.handler({
    core,
    req,
    res,
    account,
    keyType: record.type,
    workspaceId,
    params: match.params,
    body,
    now,
  });
}

async function handle(
  core: EmulatorCore,
  control: EmulatorControl,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const method = req.method ?? "GET";
  let path = new URL(req.url ?? "/", "http://emulator.invalid").pathname;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const origin = headerValue(req, "origin");
  if (origin !== undefined) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Vary", "Origin");
    res.setHeader("Access-Control-Expose-Headers", "Retry-After");
  }
  try {
    if (path === INSPECTION_PREFIX || path.startsWith(`${INSPECTION_PREFIX}/`)) {
      await handleInspection(control, req, res, path);
      return;
    }
    const log: RequestLogEntry = {
      at: core.clock.iso(),
      method,
      path,
      keyType: "none",
      status: 0,
      durationMs: 0,
    };
    res.once("close", () => {
      log.status = res.headersSent ? res.statusCode : 0;
      log.durationMs = Math.round(performance.now() - started);
      core.logRequest(log);
    });
    if (method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Origin": origin ?? "*",
        "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
        "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
        "Access-Control-Max-Age": "600",
      });
      res.end();
      return;
    }
    await handleApi(core, req, res, method, path, origin, log);
  } catch (error) {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    if (error instanceof HttpError) {
      sendError(res, error);
      return;
    }
    console.error("[emulator]", error);
    sendError(res, new HttpError(500, "INTERNAL_ERROR", "The emulator failed on this request"));
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const core = new EmulatorCore({
    accounts: [...BUILT_IN_ACCOUNTS, ...(options.accounts ?? [])],
    tokenDelayMs: options.tokenDelayMs ?? 20,
    timeScale: options.timeScale ?? 1,
    logBodies: options.logBodies ?? false,
    ...(options.now ? { now: options.now } : {}),
    ...(options.webhookTimeoutMs === undefined
      ? {}
      : { webhookTimeoutMs: options.webhookTimeoutMs }),
  });
  const control = new EmulatorControl(core);
  const server = createServer((req, res) => void handle(core, control, req, res));
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 0, host);
  return {
    url: httpUrl(host, port),
    port,
    state: control,
    close: () => {
      core.close();
      return closeServer(server);
    },
  };
}
