import { authenticate } from "../shopify.server";
import { readBodyWithinLimit } from "./body-limit.server";

export interface VerifiedShopifyWebhook {
  /** The shop, from X-Shopify-Shop-Domain, confirmed by the signed body where the body names one. */
  shop: string;
  topic: string;
  webhookId: string;
  triggeredAt: string | undefined;
  /** The parsed body: always a JSON object. */
  payload: Record<string, unknown>;
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

function refuse(status: 400, message: string): Response {
  return new Response(message, { status });
}

/**
 * Every Shopify webhook route starts here: the body is read within the size limit (413 over it),
 * the signature checked by Shopify's library (401), then what can never succeed is refused with
 * 400 so that Shopify stops retrying it: a shop header that is not one hostname, a body that is
 * not a JSON object, a body naming another shop than the header. The signature covers the body
 * only, so the header's shop is trusted only where the signed body agrees with it.
 * Everything refused is thrown as a Response; nothing is touched before this returns.
 */
export async function authenticateShopifyWebhook(
  request: Request,
  options: WebhookOptions = {},
): Promise<VerifiedShopifyWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405 });
  const rawBody = await readBodyWithinLimit(request);
  const shopHeader = request.headers.get("X-Shopify-Shop-Domain");
  if (shopHeader !== null && !HOSTNAME.test(shopHeader)) {
    throw refuse(400, "X-Shopify-Shop-Domain must be one shop's domain");
  }
  let context: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    context = await authenticate.webhook(
      new Request(request.url, { method: "POST", headers: request.headers, body: rawBody }),
    );
  } catch (error) {
    // The library parses the body after checking its signature: a signed body that is not JSON.
    if (error instanceof SyntaxError) throw refuse(400, "Webhook body is not JSON");
    throw error;
  }
  const payload = context.payload as unknown;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw refuse(400, "Webhook body is not a JSON object");
  }
  const body = payload as Record<string, unknown>;
  const shop = context.shop;
  const named = SHOP_FIELDS.map((field) => body[field]).filter((value) => value !== undefined);
  for (const value of named) {
    if (typeof value !== "string" || value.toLowerCase() !== shop.toLowerCase()) {
      throw refuse(400, `Webhook body names another shop than X-Shopify-Shop-Domain (${shop})`);
    }
  }
  if (options.requireShopInBody && named.length === 0) {
    throw refuse(400, "Webhook body does not name the shop (shop_domain)");
  }
  return {
    shop,
    topic: String(context.topic),
    webhookId: context.webhookId,
    triggeredAt: context.triggeredAt,
    payload: body,
  };
}
