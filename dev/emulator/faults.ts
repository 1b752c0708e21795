/**
 * Fault injection: the next `count` API requests (matching `method` / `path` when given) fail
 * the way the fault says, before authentication and without counting against any limit.
 */
import { HttpError } from "./http-utils";
import { isObject } from "../http";

export interface FaultSpec {
  /** HTTP status to answer (default 503 unless only delayMs or disconnect is given). */
  status?: number;
  /** How many requests it applies to (default 1). */
  count?: number;
  code?: string;
  message?: string;
  /** For 429 (or any status): top-level body `retryAfter` in seconds, also sent as Retry-After. */
  retryAfter?: number;
  /** A Retry-After header different from the body's (seconds or an HTTP date). */
  retryAfterHeader?: string | number;
  /** Wait this long before answering (or before handling normally when no status is given). */
  delayMs?: number;
  /** Close the connection without any answer. */
  disconnect?: boolean;
  /**
   * Only requests with this method, a path starting with `path`, and (when given) this
   * X-Workspace-ID header: one workspace's requests fail while the account's others go through.
   */
  match?: { method?: string; path?: string; workspace?: string };
}

export interface ActiveFault extends FaultSpec {
  id: number;
  remaining: number;
}

const DEFAULT_CODES: Record<number, string> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  402: "TRIAL_EXPIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

export function parseFault(body: unknown): FaultSpec {
  if (!isObject(body)) throw new HttpError(400, "VALIDATION_ERROR", "A fault is a JSON object");
  const fault = body as FaultSpec;
  const numberOrUndefined = (value: unknown) => value === undefined || typeof value === "number";
  if (
    !numberOrUndefined(fault.status) ||
    !numberOrUndefined(fault.count) ||
    !numberOrUndefined(fault.retryAfter) ||
    !numberOrUndefined(fault.delayMs)
  ) {
    throw new HttpError(400, "VALIDATION_ERROR", "status, count, retryAfter, delayMs are numbers");
  }
  if (fault.status !== undefined && (fault.status < 100 || fault.status > 599)) {
    throw new HttpError(400, "VALIDATION_ERROR", "status must be an HTTP status");
  }
  return fault;
}

export class FaultQueue {
  #faults: ActiveFault[] = [];
  #nextId = 1;

  add(spec: FaultSpec): ActiveFault {
    const fault: ActiveFault = { ...spec, id: this.#nextId++, remaining: spec.count ?? 1 };
    this.#faults.push(fault);
    return fault;
  }

  /** The first fault that applies to this request, counted down. */
  take(method: string, path: string, workspace?: string): ActiveFault | undefined {
    const fault = this.#faults.find(
      (candidate) =>
        candidate.remaining > 0 &&
        (!candidate.match?.method || candidate.match.method.toUpperCase() === method) &&
        (!candidate.match?.path || path.startsWith(candidate.match.path)) &&
        (!candidate.match?.workspace || candidate.match.workspace === workspace),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults = this.#faults.filter((other) => other !== fault);
    return fault;
  }

  list(): ActiveFault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.#faults = [];
  }
}

/** The error a fault answers with, or undefined when it only delays or disconnects. */
export function faultError(fault: FaultSpec): HttpError | undefined {
  if (fault.status === undefined && (fault.delayMs !== undefined || fault.disconnect)) {
    return undefined;
  }
  const status = fault.status ?? 503;
  const extra: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) {
    extra.retryAfter = fault.retryAfter;
    headers["Retry-After"] = String(Math.ceil(fault.retryAfter));
  } else if (status === 429) {
    extra.retryAfter = 60;
    headers["Retry-After"] = "60";
  }
  if (status === 402) {
    extra.trial_ended_at = "2025-01-01T00:00:00.000Z";
    extra.upgrade_url = "https://service.example/billing/upgrade";
  }
  if (fault.retryAfterHeader !== undefined) headers["Retry-After"] = String(fault.retryAfterHeader);
  return new HttpError(
    status,
    fault.code ?? DEFAULT_CODES[status] ?? "INJECTED_FAULT",
    fault.message ?? `Injected fault (${status})`,
    extra,
    headers,
  );
}
