/**
 * One error class per answer of spec §7 and docs/reference/service-gaps.md, under a common base. `status`
 * is 0 when no HTTP answer came (network, timeout, abort, or a request refused before sending).
 * Messages never carry the API key (the client redacts them).
 */
import { FORBIDDEN_CODES, TRIAL_EXPIRED_CODE, WORKSPACE_REQUIRED_CODE } from "./assumptions";

export interface ErrorContext {
  message: string;
  status?: number;
  code?: string;
  method?: string;
  path?: string;
  /** False when the client refused the call before any request was made. */
  requestSent?: boolean;
  cause?: unknown;
}

export class IndexServiceError extends Error {
  readonly status: number;
  readonly code: string;
  /** Whether the same request may succeed later unchanged (429, 5xx, network, timeout). */
  readonly retryable: boolean;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly requestSent: boolean;

  constructor(
    context: ErrorContext,
    defaults: { status: number; code: string; retryable: boolean },
  ) {
    super(context.message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    this.status = context.status ?? defaults.status;
    this.code = context.code ?? defaults.code;
    this.retryable = defaults.retryable;
    this.method = context.method;
    this.path = context.path;
    this.requestSent = context.requestSent ?? true;
  }
}

/** 400: a validation error, malformed JSON, or a refused request shape. */
export class BadRequestError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 400, code: "VALIDATION_ERROR", retryable: false });
  }
}

/** A content write without a workspace: refused by the client before sending, or 400 by the service. */
export class WorkspaceRequiredError extends BadRequestError {
  constructor(context: ErrorContext) {
    super({ ...context, code: WORKSPACE_REQUIRED_CODE });
  }
}

/** 401: key invalid, expired or revoked, or the Authorization header malformed. */
export class UnauthorizedError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 401, code: "UNAUTHORIZED", retryable: false });
  }
}

/** 402: the free trial has ended; data is kept until a plan is subscribed. */
export class TrialExpiredError extends IndexServiceError {
  readonly upgradeUrl: string | undefined;
  readonly trialEndedAt: string | undefined;

  constructor(context: ErrorContext & { upgradeUrl?: string; trialEndedAt?: string }) {
    super(context, { status: 402, code: TRIAL_EXPIRED_CODE, retryable: false });
    this.upgradeUrl = context.upgradeUrl;
    this.trialEndedAt = context.trialEndedAt;
  }
}

/** 403; `code` tells why: FORBIDDEN, SUBSCRIPTION_INACTIVE or QUOTA_EXCEEDED (see subclasses). */
export class ForbiddenError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 403, code: FORBIDDEN_CODES.forbidden, retryable: false });
  }
}

export class SubscriptionInactiveError extends ForbiddenError {
  constructor(context: ErrorContext) {
    super({ ...context, code: FORBIDDEN_CODES.subscriptionInactive });
  }
}

/** A monthly quota is spent; it comes back on the 1st at 00:00 UTC. */
export class QuotaExceededError extends ForbiddenError {
  constructor(context: ErrorContext) {
    super({ ...context, code: FORBIDDEN_CODES.quotaExceeded });
  }
}

export class NotFoundError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 404, code: "NOT_FOUND", retryable: false });
  }
}

/** 413: the body or the batch is too large; split it (see sendInBatches). */
export class PayloadTooLargeError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 413, code: "PAYLOAD_TOO_LARGE", retryable: false });
  }
}

/** 429: nothing may be sent on this key before `retryAt`. */
export class RateLimitedError extends IndexServiceError {
  readonly retryAfterMs: number;
  /** Epoch milliseconds, by the client's clock. */
  readonly retryAt: number;

  constructor(context: ErrorContext & { retryAfterMs: number; now?: number }) {
    super(context, { status: 429, code: "RATE_LIMITED", retryable: true });
    this.retryAfterMs = context.retryAfterMs;
    this.retryAt = (context.now ?? Date.now()) + context.retryAfterMs;
  }
}

/** 5xx. */
export class ServerError extends IndexServiceError {
  /** From a Retry-After header, when the service sent one (e.g. with 503). */
  readonly retryAfterMs: number | undefined;

  constructor(context: ErrorContext & { retryAfterMs?: number }) {
    super(context, { status: 500, code: "SERVER_ERROR", retryable: true });
    this.retryAfterMs = context.retryAfterMs;
  }
}

/** Any other HTTP status, or a success answer whose body cannot be read. */
export class UnexpectedResponseError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 0, code: "UNEXPECTED_RESPONSE", retryable: false });
  }
}

/** No HTTP answer: connection refused or reset, DNS, TLS… */
export class NetworkError extends IndexServiceError {
  constructor(context: ErrorContext, code = "NETWORK_ERROR") {
    super(context, { status: 0, code, retryable: true });
  }
}

/** No answer within the client's timeout. */
export class TimeoutError extends NetworkError {
  constructor(context: ErrorContext) {
    super(context, "TIMEOUT");
  }
}

/** The caller aborted the call through its AbortSignal. */
export class RequestAbortedError extends IndexServiceError {
  constructor(context: ErrorContext) {
    super(context, { status: 0, code: "ABORTED", retryable: false });
  }
}

/** Replaces every occurrence of a secret in a text. */
export function redact(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted key]");
}
