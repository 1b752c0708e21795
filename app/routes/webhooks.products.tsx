import { MalformedProductWebhookError, receiveProductWebhook } from "../sync/live/intake.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/** products/create, products/update, products/delete: answered once recorded in the outbox. */
const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop, topic, webhookId, triggeredAt, payload } =
    await authenticateShopifyWebhook(request);
  try {
    await receiveProductWebhook({
      shopDomain: shop,
      topic: String(topic),
      webhookId,
      triggeredAt,
      payload,
    });
  } catch (error) {
    if (error instanceof MalformedProductWebhookError) {
      return new Response(error.message, { status: 400 });
    }
    throw error;
  }
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
