/** Turns a failed HTTP answer into the typed error for its status (spec §7, service-gaps). */
import {
  DEFAULT_RETRY_AFTER_MS,
  MAX_RETRY_AFTER_MS,
  FORBIDDEN_CODES,
  HONOUR_RETRY_AFTER_HEADER,
  RETRY_AFTER_UNIT_MS,
  TRIAL_EXPIRED_FIELDS,
  WORKSPACE_REQUIRED_CODE,
} from "./assumptions";
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  SubscriptionInactiveError,
  TrialExpiredError,
  UnauthorizedError,
  UnexpectedResponseError,
  WorkspaceRequiredError,
  redact,
  type ErrorContext,
  type IndexServiceError,
} from "./errors";

export interface FailedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
  method: string;
  path: string;
  apiKey: string;
  now: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === "string" ? value : undefined;
}

/** `Retry-After`: delay-seconds or an HTTP date. */
export function parseRetryAfterHeader(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1_000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait after a 429: the larger of body `retryAfter` (seconds) and the Retry-After header, at
 * most MAX_RETRY_AFTER_MS.
 */
export function retryAfterMsOf(body: unknown, headers: Headers, now: number): number {
  const candidates: number[] = [];
  if (isObject(body) && typeof body.retryAfter === "number" && Number.isFinite(body.retryAfter)) {
    candidates.push(Math.max(0, body.retryAfter * RETRY_AFTER_UNIT_MS));
  }
  if (HONOUR_RETRY_AFTER_HEADER) {
    const fromHeader = parseRetryAfterHeader(headers.get("retry-after"), now);
    if (fromHeader !== undefined) candidates.push(fromHeader);
  }
  const wait = candidates.length > 0 ? Math.max(...candidates) : DEFAULT_RETRY_AFTER_MS;
  return Math.min(wait, MAX_RETRY_AFTER_MS);
}

export function errorFromResponse(response: FailedResponse): IndexServiceError {
  const { status, headers, bodyText, method, path, apiKey, now } = response;
  let body: unknown;
  try {
    body = bodyText === "" ? undefined : JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  const serverCode = error ? stringField(error, "code") : undefined;
  const serverMessage =
    (error ? stringField(error, "message") : undefined) ??
    (isObject(body) && typeof body.error === "string" ? body.error : undefined) ??
    (bodyText !== "" && body === undefined ? bodyText.slice(0, 200) : undefined);
  const label = `${method} ${path} answered ${status}${serverCode ? ` ${serverCode}` : ""}`;
  const context: ErrorContext = {
    message: redact(serverMessage ? `${label}: ${serverMessage}` : label, apiKey),
    status,
    method,
    path,
  };
  if (serverCode !== undefined) context.code = serverCode;

  switch (status) {
    case 400:
      return serverCode === WORKSPACE_REQUIRED_CODE
        ? new WorkspaceRequiredError(context)
        : new BadRequestError(context);
    case 401:
      return new UnauthorizedError(context);
    case 402: {
      const fields = isObject(body) ? body : {};
      const upgradeUrl = stringField(fields, TRIAL_EXPIRED_FIELDS.upgradeUrl);
      const trialEndedAt = stringField(fields, TRIAL_EXPIRED_FIELDS.trialEndedAt);
      return new TrialExpiredError({
        ...context,
        ...(upgradeUrl === undefined ? {} : { upgradeUrl }),
        ...(trialEndedAt === undefined ? {} : { trialEndedAt }),
      });
    }
    case 403:
      if (serverCode === FORBIDDEN_CODES.quotaExceeded) return new QuotaExceededError(context);
      if (serverCode === FORBIDDEN_CODES.subscriptionInactive) {
        return new SubscriptionInactiveError(context);
      }
      return new ForbiddenError(context);
    case 404:
      return new NotFoundError(context);
    case 413:
      return new PayloadTooLargeError(context);
    case 429:
      return new RateLimitedError({
        ...context,
        retryAfterMs: retryAfterMsOf(body, headers, now),
        now,
      });
    default: {
      if (status >= 500) {
        const retryAfterMs = parseRetryAfterHeader(headers.get("retry-after"), now);
        return new ServerError({
          ...context,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        });
      }
      return new UnexpectedResponseError(context);
    }
  }
}
