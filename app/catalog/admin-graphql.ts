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

interface GraphqlError {
  message?: string;
  extensions?: { code?: string };
}

interface ThrottleStatus {
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlBody<T> {
  data?: T;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

export interface QueryOptions {
  /** THROTTLED answers waited out before giving up. */
  maxThrottledRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one Admin GraphQL document and returns its data. A THROTTLED answer (Shopify's cost-based
 * limit) is waited out for as long as the bucket needs to refill to the query's cost, then retried;
 * other GraphQL errors throw.
 */
export async function queryAdmin<T>(
  admin: AdminGraphql,
  query: string,
  variables?: Record<string, unknown>,
  options: QueryOptions = {},
): Promise<T> {
  const sleep = options.sleep ?? sleepFor;
  for (let throttled = 0; ; throttled++) {
    const response = await admin.graphql(query, variables ? { variables } : undefined);
    const body = (await response.json()) as GraphqlBody<T>;
    const errors = Array.isArray(body.errors)
      ? body.errors
      : body.errors
        ? [{ message: body.errors }]
        : [];
    if (errors.some((error) => error.extensions?.code === "THROTTLED")) {
      if (throttled >= (options.maxThrottledRetries ?? 20)) {
        throw new AdminApiError("Shopify kept throttling the app's Admin API requests.", errors);
      }
      await sleep(throttleWaitMs(body.extensions?.cost));
      continue;
    }
    if (errors.length > 0 || !body.data) {
      const detail =
        errors.map((error) => error.message).join("; ") || `HTTP ${response.status}, no data`;
      throw new AdminApiError(`Shopify Admin API error: ${detail}`, errors);
    }
    return body.data;
  }
}

/** How long until the cost bucket holds the query's cost again (at least a second when unknown). */
export function throttleWaitMs(
  cost: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } | undefined,
): number {
  const status = cost?.throttleStatus;
  if (!status || !cost?.requestedQueryCost || status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, cost.requestedQueryCost - status.currentlyAvailable);
  return Math.max(100, Math.ceil((missing / status.restoreRate) * 1000));
}
