import type { AdminGraphql } from "./admin-graphql";

/** Admin GraphQL over plain HTTP with an access token: how the offline demo reaches its fake Shopify. */
export function adminGraphqlOverHttp(graphqlUrl: string, accessToken: string): AdminGraphql {
  return {
    graphql: (query, options) =>
      fetch(graphqlUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": accessToken },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      }),
  };
}
