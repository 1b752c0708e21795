/** Shopify's Admin GraphQL schema (API 2026-10), built once from the introspection the tests use. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export const API_VERSION = "2026-10";

const INTROSPECTION = fileURLToPath(
  new URL("../../test/fixtures/shopify/admin_2026-10.introspection.json.gz", import.meta.url),
);

let schema: GraphQLSchema | undefined;

export function adminSchema(): GraphQLSchema {
  if (!schema) {
    const json = JSON.parse(gunzipSync(readFileSync(INTROSPECTION)).toString("utf8")) as {
      data: IntrospectionQuery;
    };
    schema = buildClientSchema(json.data);
  }
  return schema;
}
