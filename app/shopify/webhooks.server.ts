import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../config.server";
import { readBodyWithinLimit, type WebhookRequest } from "./webhook-body-limit.server";
import { setLogShop } from "../server/log";

export interface VerifiedShopifyWebhook {
  /** The shop, from X-Shopify-Shop-Domain, confirmed by the signed body where the body names one. */
  shop: string;
  topic: string;
  webhookId: string;
  triggeredAt: string | undefined;
  /** The parsed body: always a JSON object. */
  payload: Record<string, unknown>;
}

/** A Shopify webhook route's action reads only its request. */
export interface WebhookActionArgs {
  request: WebhookRequest;
}

export interface WebhookOptions {
  /**
   * The body must name the shop (`shop_domain`): for topics that erase a shop's data, a header
   * alone (not covered by the signature) is never enough.
   */
  requireShopInBody?: boolean;
}

const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
/** Where Shopify's payloads name the shop: compliance topics, and the Shop resource. */
const SHOP_FIELDS = ["shop_domain", "myshopify_domain"] as const;

function refuse(status: 400 | 401, message: string): Response {
  return new Response(message, { status });
}

/** The headers Shopify sends with every webhook; a delivery without one of them is refused. */
const REQUIRED_HEADERS = [
  "X-Shopify-Topic",
  "X-Shopify-Shop-Domain",
  "X-Shopify-API-Version",
  "X-Shopify-Webhook-Id",
] as const;

/**
 * Shopify's signature: base64 HMAC-SHA256 of the raw body keyed with the app's secret (or, during
 * a client secret rotation, the previous one: docs/key-rotation.md), compared in constant time. Done here rather than by the Shopify library's `authenticate.webhook`, which
 * also reads (and may refresh) the shop's offline session on every delivery: a database read per
 * webhook that no route uses (the routes look the shop up themselves).
 */
function signedByShopify(
  rawBody: string,
  hmacHeader: string | null,
  secrets: readonly string[],
): boolean {
  if (!hmacHeader) return false;
  const given = Buffer.from(hmacHeader, "base64");
  return secrets.some((secret) => {
    const expected = createHmac("sha256", secret).update(rawBody, "utf8").digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Every Shopify webhook route starts here: the body is read within the size limit (413 over it),
 * the signature checked (401), then what can never succeed is refused with 400: an empty body, a
 * missing Shopify header, a shop header that is not one hostname, a body that is not a JSON
 * object, a body naming another shop than the header. A 400 does not stop Shopify: it retries any
 * answer but a 2xx, 8 times over 4 hours. Kept anyway (docs/webhook-limits.md, "Why 400 and not
 * 200"): each retry is refused before any database work, and the failure stays visible. The
 * signature covers the body only, so the header's shop is trusted only where the signed body
 * agrees with it. Everything refused is thrown as a Response; nothing is touched before this
 * returns, and nothing is read from the database.
 */
export async function authenticateShopifyWebhook(
  request: WebhookRequest,
  options: WebhookOptions = {},
): Promise<VerifiedShopifyWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405 });
  const rawBody = await readBodyWithinLimit(request);
  const headers = request.headers;
  const shopHeader = headers.get("X-Shopify-Shop-Domain");
  if (shopHeader !== null && !HOSTNAME.test(shopHeader)) {
    throw refuse(400, "X-Shopify-Shop-Domain must be one shop's domain");
  }
  if (rawBody.length === 0) throw refuse(400, "Webhook body is empty");
  const hmac = headers.get("X-Shopify-Hmac-Sha256");
  if (!hmac) throw refuse(400, "X-Shopify-Hmac-Sha256 is missing");
  if (!signedByShopify(rawBody, hmac, config().webhookSecrets)) {
    throw new Response(undefined, { status: 401, statusText: "Unauthorized" });
  }
  const missing = REQUIRED_HEADERS.filter((name) => !headers.get(name));
  if (missing.length > 0) throw refuse(400, `Missing webhook headers: ${missing.join(", ")}`);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw refuse(400, "Webhook body is not JSON");
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw refuse(400, "Webhook body is not a JSON object");
  }
  const body = payload as Record<string, unknown>;
  const shop = shopHeader!;
  const named = SHOP_FIELDS.map((field) => body[field]).filter((value) => value !== undefined);
  for (const value of named) {
    if (typeof value !== "string" || value.toLowerCase() !== shop.toLowerCase()) {
      throw refuse(400, `Webhook body names another shop than X-Shopify-Shop-Domain (${shop})`);
    }
  }
  if (options.requireShopInBody && named.length === 0) {
    throw refuse(400, "Webhook body does not name the shop (shop_domain)");
  }
  setLogShop(shop);
  return {
    shop,
    // As Shopify's library names topics: products/update → PRODUCTS_UPDATE.
    topic: headers.get("X-Shopify-Topic")!.toUpperCase().replace(/\/|\./g, "_"),
    webhookId: headers.get("X-Shopify-Webhook-Id")!,
    triggeredAt: headers.get("X-Shopify-Triggered-At") ?? undefined,
    payload: body,
  };
}
