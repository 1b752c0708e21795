import { MalformedLookupWebhookError, receiveLookupWebhook } from "./lookup-intake.server";
import type { WebhookRequest } from "../../shopify/webhook-body-limit.server";
import { authenticateShopifyWebhook } from "../../shopify/webhooks.server";

/**
 * inventory_levels/update and collections/update|delete: the inventory item or collection goes to
 * the lookup outbox and the delivery is answered at once; a payload that can never be taken is a
 * 400 (Shopify still retries it 8 times over 4 hours: docs/webhook-limits.md, "Why 400 and not
 * 200").
 */
export async function answerLookupWebhook(request: WebhookRequest): Promise<Response> {
  const webhook = await authenticateShopifyWebhook(request);
  try {
    await receiveLookupWebhook({ ...webhook, shopDomain: webhook.shop });
  } catch (error) {
    if (error instanceof MalformedLookupWebhookError) {
      return new Response(error.message, { status: 400 });
    }
    throw error;
  }
  return new Response();
}
