import { GraphqlQueryError } from "@shopify/shopify-api";
import { appMetrics } from "../server/metrics";
import { sleep } from "../server/sleep";

/** The part of the Admin API client (shopify-app-remix's `admin.graphql`) the catalogue uses. */
export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly errors: unknown,
  ) {
    super(message);
    this.name = "AdminApiError";
  }
}

/** Shopify refused a field for want of an access scope the app was not granted. */
export function isAccessDenied(error: unknown): boolean {
  return (
    error instanceof AdminApiError &&
    Array.isArray(error.errors) &&
    error.errors.some(
      (entry: { extensions?: { code?: string } }) => entry?.extensions?.code === "ACCESS_DENIED",
    )
  );
}

interface GraphqlError {
  message?: string;
  extensions?: { code?: string };
}

interface ThrottleStatus {
  maximumAvailable?: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface QueryCost {
  requestedQueryCost?: number;
  /** What the answer cost (null for a THROTTLED one). */
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

/** An Admin GraphQL answer as Shopify sends it. */
interface GraphqlBody<T> {
  data?: T | null;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: QueryCost };
}

export interface QueryOptions {
  /** THROTTLED answers waited out before giving up. */
  maxThrottledRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_MAX_THROTTLED_RETRIES = 20;
/** The longest single wait: Shopify's bucket refills in seconds, a wait past this is a bad status. */
const MAX_THROTTLE_WAIT_MS = 60_000;

/**
 * Runs one Admin GraphQL document and returns its data. A THROTTLED answer (Shopify's cost-based
 * limit) is waited out for as long as the bucket needs to refill to the query's cost, then the
 * same request (same variables, so a page of a pagination is asked again from its own cursor) is
 * sent again, at most `maxThrottledRetries` times; other GraphQL errors throw AdminApiError.
 *
 * Shopify's own client (shopify-app-remix's `admin.graphql`) throws an answer that has `errors`
 * as a GraphqlQueryError carrying the answer in `body`; a client that returns the response
 * instead is read the same way.
 */
export async function queryAdmin<T>(
  admin: AdminGraphql,
  query: string,
  variables?: Record<string, unknown>,
  options: QueryOptions = {},
): Promise<T> {
  const wait = options.sleep ?? sleep;
  const maxRetries = options.maxThrottledRetries ?? DEFAULT_MAX_THROTTLED_RETRIES;
  for (let throttled = 0; ; throttled++) {
    const { body, status } = await askAdmin<T>(admin, query, variables);
    const errors = errorsOf(body);
    const metrics = appMetrics();
    const spent = body.extensions?.cost?.actualQueryCost;
    if (typeof spent === "number" && spent > 0) metrics.adminApiPoints.inc(spent);
    if (errors.some((error) => error.extensions?.code === "THROTTLED")) {
      metrics.adminApiThrottled.inc();
      if (throttled >= maxRetries) {
        throw new AdminApiError(
          `Shopify throttled the app's Admin API request ${throttled + 1} times in a row ` +
            `(THROTTLED, ${describeStatus(body.extensions?.cost)}); gave up after ${maxRetries} waits.`,
          errors,
        );
      }
      await wait(throttleWaitMs(body.extensions?.cost));
      continue;
    }
    if (errors.length > 0 || !body.data) {
      const detail =
        errors.map((error) => error.message).join("; ") || `HTTP ${status ?? "?"}, no data`;
      throw new AdminApiError(`Shopify Admin API error: ${detail}`, errors);
    }
    return body.data;
  }
}

/** The answer, whether the client returned it or threw it (Shopify's client throws any `errors`). */
async function askAdmin<T>(
  admin: AdminGraphql,
  query: string,
  variables: Record<string, unknown> | undefined,
): Promise<{ body: GraphqlBody<T>; status: number | undefined }> {
  try {
    const response = await admin.graphql(query, variables ? { variables } : undefined);
    return { body: (await response.json()) as GraphqlBody<T>, status: response.status };
  } catch (error) {
    if (!(error instanceof GraphqlQueryError)) throw error;
    const status = (error.response as { status?: unknown } | undefined)?.status;
    return {
      body: answerOfQueryError<T>(error),
      status: typeof status === "number" ? status : undefined,
    };
  }
}

/**
 * The answer a GraphqlQueryError carries: its `body` is the library's result, with Shopify's
 * `data` and `extensions` (the cost and throttle status) as sent, and Shopify's `errors` under
 * `errors.graphQLErrors`.
 */
function answerOfQueryError<T>(error: GraphqlQueryError): GraphqlBody<T> {
  const body = (error.body ?? {}) as {
    data?: T | null;
    extensions?: { cost?: QueryCost };
    errors?: { graphQLErrors?: GraphqlError[] };
  };
  const graphQLErrors = body.errors?.graphQLErrors;
  return {
    data: body.data,
    errors:
      Array.isArray(graphQLErrors) && graphQLErrors.length > 0
        ? graphQLErrors
        : [{ message: error.message }],
    extensions: body.extensions,
  };
}

function errorsOf(body: GraphqlBody<unknown>): GraphqlError[] {
  if (Array.isArray(body.errors)) return body.errors;
  return body.errors ? [{ message: body.errors }] : [];
}

function describeStatus(cost: QueryCost | undefined): string {
  const status = cost?.throttleStatus;
  if (!status) return "no throttle status";
  return (
    `query cost ${cost?.requestedQueryCost ?? "?"}, ${status.currentlyAvailable} of ` +
    `${status.maximumAvailable ?? "?"} points available, restoring ${status.restoreRate}/s`
  );
}

/** How long until the cost bucket holds the query's cost again (a second when unknown). */
export function throttleWaitMs(cost: QueryCost | undefined): number {
  const status = cost?.throttleStatus;
  if (!status || !cost?.requestedQueryCost || status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, cost.requestedQueryCost - status.currentlyAvailable);
  return Math.min(
    MAX_THROTTLE_WAIT_MS,
    Math.max(100, Math.ceil((missing / status.restoreRate) * 1000)),
  );
}
