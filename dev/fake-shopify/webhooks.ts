/**
 * Webhook deliveries to the app, signed as Shopify signs them: `X-Shopify-Hmac-Sha256` is the
 * base64 HMAC-SHA256 of the raw body keyed with the app's client secret. One attempt each (Shopify
 * retries failures for hours; a test can simply send again), every attempt recorded.
 */
import { createHmac, randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { API_VERSION } from "./schema";

export interface WebhookDelivery {
  webhookId: string;
  eventId: string;
  topic: string;
  /** null when no app URL was configured (nothing sent). */
  url: string | null;
  /** The app's HTTP status; 0 when nothing was sent or the connection failed. */
  status: number;
  error?: string;
  triggeredAt: string;
  sentAt: string;
  durationMs: number;
  body: string;
  headers: Record<string, string>;
}

export interface SendWebhookOptions {
  webhookId?: string;
  eventId?: string;
  triggeredAt?: string;
  /** Sends this signature instead of the right one (to test the app's refusal). */
  hmac?: string;
  apiVersion?: string;
}

/** Where each topic is delivered, as the app's shopify.app.toml subscribes them. */
export const DEFAULT_WEBHOOK_PATHS: Readonly<Record<string, string>> = {
  "products/create": "/webhooks/products",
  "products/update": "/webhooks/products",
  "products/delete": "/webhooks/products",
  "collections/create": "/webhooks/collections",
  "collections/update": "/webhooks/collections",
  "collections/delete": "/webhooks/collections",
  "metafield_definitions/create": "/webhooks/metafield_definitions",
  "metafield_definitions/update": "/webhooks/metafield_definitions",
  "metafield_definitions/delete": "/webhooks/metafield_definitions",
  ...Object.fromEntries(
    [
      "domains/create",
      "domains/update",
      "domains/destroy",
      "locales/create",
      "locales/update",
      "locales/destroy",
      "markets/create",
      "markets/update",
      "markets/delete",
    ].map((topic) => [topic, "/webhooks/presences"]),
  ),
};

/**
 * The `include_fields` of the app's subscriptions (shopify.app.toml; a test checks they agree):
 * Shopify sends only these fields of the payload, a period naming a nested field.
 */
export const DEFAULT_INCLUDE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "products/create": productFields(),
  "products/update": productFields(),
};

function productFields(): string[] {
  return [
    "id",
    "admin_graphql_api_id",
    "updated_at",
    "title",
    "body_html",
    "handle",
    "vendor",
    "product_type",
    "tags",
    "status",
    "published_at",
    "options.name",
    "options.values",
    "variants.id",
    "variants.title",
    "variants.price",
    "variants.compare_at_price",
    "variants.sku",
    "variants.option1",
    "variants.option2",
    "variants.option3",
    "image.src",
    "media.position",
    "media.media_content_type",
    "media.preview_image.src",
  ];
}

/**
 * The payload cut to `fields` as Shopify's include_fields cuts it: a top-level field whole, or
 * `a.b` the field b of the object (or of each object of the list) a.
 */
export function applyIncludeFields(payload: unknown, fields: readonly string[]): unknown {
  if (typeof payload !== "object" || payload === null) return payload;
  if (Array.isArray(payload)) return payload.map((entry) => applyIncludeFields(entry, fields));
  const source = payload as Record<string, unknown>;
  const nested = new Map<string, string[]>();
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const dot = field.indexOf(".");
    if (dot < 0) {
      if (field in source) out[field] = source[field];
      continue;
    }
    const head = field.slice(0, dot);
    nested.set(head, [...(nested.get(head) ?? []), field.slice(dot + 1)]);
  }
  for (const [head, rest] of nested) {
    if (head in source && !(head in out)) {
      const value = source[head];
      out[head] =
        value === null || typeof value !== "object" ? value : applyIncludeFields(value, rest);
    }
  }
  return out;
}

export function webhookPath(topic: string, paths: Readonly<Record<string, string>>): string {
  return paths[topic] ?? `/webhooks/${topic}`;
}

export function shopifyHmac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

export interface WebhookSenderOptions {
  shopDomain: () => string;
  appUrl: () => string | null;
  apiSecret: () => string | null;
  now: () => number;
  paths: Readonly<Record<string, string>>;
  /** Topic → the subscription's include_fields (none: the whole payload). */
  includeFields: Readonly<Record<string, readonly string[]>>;
  timeoutMs: number;
}

export class WebhookSender {
  deliveries: WebhookDelivery[] = [];
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: WebhookSenderOptions) {}

  async send(
    topic: string,
    payload: unknown,
    options: SendWebhookOptions = {},
  ): Promise<WebhookDelivery> {
    const promise = this.#send(topic, payload, options);
    this.#inFlight.add(promise);
    try {
      return await promise;
    } finally {
      this.#inFlight.delete(promise);
    }
  }

  /** Resolves when no delivery is under way. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #send(topic: string, payload: unknown, options: SendWebhookOptions) {
    const fields = this.options.includeFields[topic];
    const body = JSON.stringify(fields ? applyIncludeFields(payload, fields) : payload);
    const now = new Date(this.options.now()).toISOString();
    const appUrl = this.options.appUrl();
    const secret = this.options.apiSecret();
    const delivery: WebhookDelivery = {
      webhookId: options.webhookId ?? randomUUID(),
      eventId: options.eventId ?? randomUUID(),
      topic,
      url: appUrl === null ? null : new URL(webhookPath(topic, this.options.paths), appUrl).href,
      status: 0,
      triggeredAt: options.triggeredAt ?? now,
      sentAt: now,
      durationMs: 0,
      body,
      headers: {},
    };
    this.deliveries.push(delivery);
    if (delivery.url === null || (secret === null && options.hmac === undefined)) {
      delivery.error = delivery.url === null ? "No appUrl is set" : "No apiSecret is set";
      return delivery;
    }
    delivery.headers = {
      "Content-Type": "application/json",
      "User-Agent": "Shopify-Captain-Hook",
      "X-Shopify-Topic": topic,
      "X-Shopify-Hmac-Sha256": options.hmac ?? shopifyHmac(secret ?? "", body),
      "X-Shopify-Shop-Domain": this.options.shopDomain(),
      "X-Shopify-Webhook-Id": delivery.webhookId,
      "X-Shopify-API-Version": options.apiVersion ?? API_VERSION,
      "X-Shopify-Event-Id": delivery.eventId,
      "X-Shopify-Triggered-At": delivery.triggeredAt,
    };
    const started = performance.now();
    try {
      delivery.status = await post(delivery.url, delivery.headers, body, this.options.timeoutMs);
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    delivery.durationMs = Math.round(performance.now() - started);
    return delivery;
  }
}

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith("https:") ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        agent: false,
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`No answer within ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}
