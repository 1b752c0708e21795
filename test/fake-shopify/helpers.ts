import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import {
  BULK_OPERATION_RUN_QUERY_MUTATION,
  BULK_OPERATION_STATUS_QUERY,
  productsBulkQuery,
  type BulkOperationRunQueryData,
  type BulkOperationStatusData,
  type MetafieldChoice,
} from "../../app/catalogue/queries";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import { urlSource } from "../../app/shopify/bulk-source";
import {
  DEFAULT_ACCESS_TOKEN,
  startFakeShopify,
  type FakeShopifyOptions,
} from "../../dev/fake-shopify/server";

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;

export const API_SECRET = "test_app_secret";

export function startTestShop(options: FakeShopifyOptions = {}): Promise<FakeShopify> {
  return startFakeShopify({ port: 0, bulkDelayMs: 150, ...options });
}

export interface GraphqlAnswer<T = Record<string, unknown>> {
  status: number;
  body: {
    data?: T;
    errors?: { message: string; extensions?: Record<string, unknown> }[] | string;
    extensions?: {
      cost: {
        requestedQueryCost: number;
        actualQueryCost: number | null;
        throttleStatus: {
          maximumAvailable: number;
          currentlyAvailable: number;
          restoreRate: number;
        };
      };
    };
  };
}

/** One Admin GraphQL request, as the app's client sends it. */
export async function graphql<T = Record<string, unknown>>(
  shop: FakeShopify,
  query: string,
  variables?: Record<string, unknown>,
  options: { token?: string | null; url?: string } = {},
): Promise<GraphqlAnswer<T>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = options.token === undefined ? DEFAULT_ACCESS_TOKEN : options.token;
  if (token !== null) headers["X-Shopify-Access-Token"] = token;
  const response = await fetch(options.url ?? shop.graphqlUrl, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: response.status, body: (await response.json()) as GraphqlAnswer<T>["body"] };
}

/**
 * A merchant's change (or read) in the fake store through the Admin API, with the merchant's own
 * token: the answer's data. Throws on a refused request; a mutation's `userErrors` are in the
 * data (`userErrorsOf`), for the tests that expect them.
 */
export async function asMerchant<T = Record<string, unknown>>(
  shop: FakeShopify,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const answer = await graphql<T>(shop, query, variables, {
    token: shop.state.merchantAccessToken,
  });
  if (answer.status !== 200 || !answer.body.data || answer.body.errors) {
    throw new Error(`GraphQL failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body.data;
}

/** Shopify's `metafieldsSet`, as a merchant's change sends it (`metafields`: its inputs). */
export const METAFIELDS_SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
}`;

/** Shopify's `metafieldDefinitionCreate` (`definition`: its input), with what it created. */
export const METAFIELD_DEFINITION_CREATE = `mutation Create($definition: MetafieldDefinitionInput!) {
  metafieldDefinitionCreate(definition: $definition) {
    createdDefinition { id name namespace key type { name } access { storefront } metafieldsCount }
    userErrors { field message code }
  }
}`;

/** Every mutation payload's `userErrors` in an answer's data. */
export function userErrorsOf(data: unknown): unknown[] {
  return Object.values(data ?? {}).flatMap(
    (payload) => (payload as { userErrors?: unknown[] } | null)?.userErrors ?? [],
  );
}

/**
 * Data of a request that must succeed. A THROTTLED answer (the app's own work shares the bucket)
 * is waited out as Shopify asks: until the bucket has restored the points the query requests.
 */
export async function data<T>(
  shop: FakeShopify,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  let answer = await graphql<T>(shop, query, variables);
  for (let tries = 0; tries < 5 && isThrottled(answer); tries += 1) {
    const cost = answer.body.extensions!.cost;
    const missing = cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable;
    await new Promise((resolve) =>
      setTimeout(resolve, (1000 * Math.max(1, missing)) / cost.throttleStatus.restoreRate),
    );
    answer = await graphql<T>(shop, query, variables);
  }
  if (answer.status !== 200 || answer.body.errors || !answer.body.data) {
    throw new Error(`GraphQL failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body.data;
}

function isThrottled(answer: GraphqlAnswer<unknown>): boolean {
  const errors = answer.body.errors;
  return (
    Array.isArray(errors) &&
    errors.some((error) => error.extensions?.code === "THROTTLED") &&
    !!answer.body.extensions?.cost
  );
}

export async function runBulk(shop: FakeShopify, query: string) {
  const result = await data<BulkOperationRunQueryData>(shop, BULK_OPERATION_RUN_QUERY_MUTATION, {
    query,
  });
  const payload = result.bulkOperationRunQuery;
  if (!payload) throw new Error("no payload");
  return payload;
}

export type BulkNode = NonNullable<BulkOperationStatusData["node"]>;

/** Polls the operation until it leaves CREATED/RUNNING; returns every status seen and the end. */
export async function pollBulk(
  shop: FakeShopify,
  id: string,
): Promise<{ seen: string[]; final: BulkNode }> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 500; attempt++) {
    const { node } = await data<BulkOperationStatusData>(shop, BULK_OPERATION_STATUS_QUERY, { id });
    if (!node) throw new Error(`no operation ${id}`);
    if (seen[seen.length - 1] !== node.status) seen.push(node.status);
    if (!["CREATED", "RUNNING", "CANCELING"].includes(node.status)) return { seen, final: node };
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  throw new Error(`operation ${id} never finished`);
}

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A stand-in for the app's webhook routes: records each request and answers `status`. */
export async function startReceiver(status = 200): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A fake shop whose webhooks, signed with API_SECRET, go to a receiver that records them; `close`
 * stops both.
 */
export async function startShopWithReceiver(
  options: FakeShopifyOptions,
): Promise<{ shop: FakeShopify; receiver: Receiver; close(): Promise<void> }> {
  const receiver = await startReceiver();
  const shop = await startTestShop({ appUrl: receiver.url, apiSecret: API_SECRET, ...options });
  return {
    shop,
    receiver,
    async close() {
      await shop.close();
      await receiver.close();
    },
  };
}

/** Shopify's check: base64 HMAC-SHA256 of the raw body with the app secret, compared safely. */
export function validShopifyHmac(secret: string, webhook: ReceivedWebhook): boolean {
  const header = webhook.headers["x-shopify-hmac-sha256"];
  if (typeof header !== "string") return false;
  const expected = createHmac("sha256", secret).update(webhook.body, "utf8").digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The products' bulk export with those metafields chosen, run on the fake and read: by handle. */
export async function exportedProducts(
  shop: FakeShopify,
  chosen: readonly MetafieldChoice[],
): Promise<Map<string, ShopifyProduct>> {
  const started = await runBulk(shop, productsBulkQuery(chosen));
  if (started.userErrors.length > 0) throw new Error(JSON.stringify(started.userErrors));
  const { final } = await pollBulk(shop, started.bulkOperation!.id);
  if (final.status !== "COMPLETED" || !final.url) throw new Error(`export ${final.status}`);
  const products = new Map<string, ShopifyProduct>();
  for await (const item of (await readBulkExport(urlSource(final.url))).items()) {
    if (item.type === "Product") products.set(item.value.handle, item.value);
  }
  return products;
}
