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

/** Runs one Admin GraphQL document and returns its data, throwing on GraphQL errors. */
export async function queryAdmin<T>(
  admin: AdminGraphql,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await admin.graphql(query, variables ? { variables } : undefined);
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) {
    throw new AdminApiError(
      `Shopify Admin API error: ${JSON.stringify(body.errors ?? "no data")}`,
      body.errors,
    );
  }
  return body.data;
}
