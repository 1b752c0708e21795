/**
 * POST /admin/api/2026-10/graphql.json, answered as Shopify answers it: the access token
 * (401 otherwise), the document parsed and validated against the real schema (errors with HTTP
 * 200), the requested cost checked against the single-query limit and the shop's bucket (THROTTLED
 * when short, nothing charged), then execution, charged at its actual cost, with
 * `extensions.cost` in every answer that got that far.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
} from "graphql";
import { MERCHANT_SCOPES, type FakeShopifyCore, type RequestLogEntry } from "./core";
import { actualCost, MAX_QUERY_COST, requestedCost } from "./cost";
import { BodyTooLargeError, headerValue, isObject, readText, sendJson } from "../http";
import { fieldResolver, mutationRoot, queryRoot, typeResolver } from "./resolvers";
import { API_VERSION } from "./schema";
import { syntaxError, validateDocument } from "./validation";

export const GRAPHQL_PATH = `/admin/api/${API_VERSION}/graphql.json`;

const INVALID_TOKEN =
  "[API] Invalid API key or access token (unrecognized login or wrong password)";
const THROTTLED_DOCUMENTATION = "https://shopify.dev/api/usage/limits#rate-limits";

interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

async function readRequest(req: IncomingMessage): Promise<GraphqlRequest | null> {
  const text = await readText(req);
  if ((headerValue(req, "content-type") ?? "").startsWith("application/graphql")) {
    return text.trim() === "" ? null : { query: text, variables: {}, operationName: null };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(body) || typeof body.query !== "string" || body.query.trim() === "") return null;
  let variables: unknown = body.variables ?? {};
  if (typeof variables === "string") {
    try {
      variables = JSON.parse(variables);
    } catch {
      return null;
    }
  }
  return {
    query: body.query,
    variables: isObject(variables) ? variables : {},
    operationName: typeof body.operationName === "string" ? body.operationName : null,
  };
}

function codesOf(errors: readonly GraphQLFormattedError[]): string[] {
  return errors.map((error) => String(error.extensions?.code ?? error.message));
}

export async function handleGraphql(
  core: FakeShopifyCore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const headers = { "X-Request-Id": randomUUID(), "X-Shopify-API-Version": API_VERSION };
  const log: RequestLogEntry = {
    at: new Date(core.now()).toISOString(),
    operationName: null,
    rootFields: [],
    requestedQueryCost: null,
    actualQueryCost: null,
    throttled: false,
    status: 200,
    errors: [],
  };
  const answer = (status: number, body: unknown) => {
    log.status = status;
    if (isObject(body) && Array.isArray(body.errors)) log.errors = codesOf(body.errors);
    else if (isObject(body) && body.errors !== undefined)
      log.errors = [JSON.stringify(body.errors)];
    core.logRequest(log);
    sendJson(res, status, body, headers);
  };

  const token = headerValue(req, "x-shopify-access-token");
  const scopes = token === core.merchantAccessToken ? MERCHANT_SCOPES : core.scopes;
  if (token !== core.accessToken && token !== core.merchantAccessToken) {
    req.resume();
    return answer(401, { errors: INVALID_TOKEN });
  }
  let request: GraphqlRequest | null;
  try {
    request = await readRequest(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return answer(413, { errors: "Request Entity Too Large" });
    throw error;
  }
  if (!request) return answer(400, { errors: { query: "Required parameter missing or invalid" } });

  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    if (error instanceof GraphQLError) return answer(200, { errors: [syntaxError(error)] });
    throw error;
  }
  const invalid = validateDocument(core.schema, document);
  if (invalid.length > 0) return answer(200, { errors: invalid });

  const operation = getOperationAST(document, request.operationName);
  if (!operation) {
    const message = request.operationName
      ? `No operation named "${request.operationName}"`
      : "An operation name is required";
    return answer(200, { errors: [{ message }] });
  }
  log.operationName = operation.name?.value ?? null;
  log.rootFields = operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.name.value] : [],
  );

  const coerced = getVariableValues(
    core.schema,
    operation.variableDefinitions ?? [],
    request.variables,
  );
  if (coerced.errors) {
    return answer(200, {
      errors: coerced.errors.map((error) => ({
        message: error.message,
        ...(error.locations ? { locations: error.locations } : {}),
        extensions: { code: "INVALID_VARIABLE" },
      })),
    });
  }

  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const requested = requestedCost(core.schema, operation, fragments, coerced.coerced);
  if (requested.errors.length > 0) {
    return answer(200, { errors: requested.errors.map((error) => error.toJSON()) });
  }
  log.requestedQueryCost = requested.cost;
  const costExtension = (actual: number | null) => ({
    cost: {
      requestedQueryCost: requested.cost,
      actualQueryCost: actual,
      throttleStatus: core.bucket.status(),
    },
  });

  if (requested.cost > MAX_QUERY_COST) {
    return answer(200, {
      errors: [
        {
          message:
            `Query cost is ${requested.cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\n` +
            "See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\n" +
            "cost of a query is calculated.\n\n" +
            "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
            "See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n",
          extensions: { code: "MAX_COST_EXCEEDED", cost: requested.cost, maxCost: MAX_QUERY_COST },
        },
      ],
      extensions: costExtension(null),
    });
  }

  const failing = core.internalErrorsNext.get(log.operationName ?? "") ?? 0;
  if (failing > 0) {
    core.internalErrorsNext.set(log.operationName!, failing - 1);
    // As Shopify answers an internal error: HTTP 200, no data, the request's id in the message.
    const requestId = headers["X-Request-Id"];
    return answer(200, {
      errors: [
        {
          message: `Internal error. Looks like something went wrong on our end.\nRequest ID: ${requestId} (include this in support requests).`,
          extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
        },
      ],
    });
  }

  const forced = core.throttleNext > 0;
  if (forced) core.throttleNext -= 1;
  if (forced || core.bucket.available() < requested.cost) {
    log.throttled = true;
    return answer(200, {
      errors: [
        {
          message: "Throttled",
          extensions: { code: "THROTTLED", documentation: THROTTLED_DOCUMENTATION },
        },
      ],
      extensions: costExtension(null),
    });
  }

  const result = await execute({
    schema: core.schema,
    document,
    rootValue: operation.operation === "mutation" ? mutationRoot(core) : queryRoot(core),
    contextValue: { core, scopes },
    variableValues: request.variables,
    operationName: request.operationName,
    fieldResolver,
    typeResolver,
  });
  const actual = actualCost(core.schema, operation, fragments, result.data);
  core.bucket.take(actual);
  log.actualQueryCost = actual;
  answer(200, {
    ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
    data: result.data ?? null,
    extensions: costExtension(actual),
  });
}
