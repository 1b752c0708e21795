import { recordProductDelivery, type DeliveryOutcome } from "./outbox.server";
import { productChangeOf } from "./product-webhook";

export interface ProductWebhook {
  shopDomain: string;
  topic: string;
  webhookId: string;
  triggeredAt?: string | undefined;
  payload: unknown;
}

/**
 * A verified products/* delivery: "product X changed (or was deleted) at T" goes to the outbox,
 * once per delivery id. Nothing is asked of Shopify or the service here; the worker does that.
 * Deliveries for a shop that is not installed, or does not sync products, are ignored.
 */
export async function receiveProductWebhook(
  webhook: ProductWebhook,
  receivedAt: Date = new Date(),
): Promise<DeliveryOutcome> {
  const signal = productChangeOf({ ...webhook, receivedAt });
  return recordProductDelivery({
    shopDomain: webhook.shopDomain,
    webhookId: webhook.webhookId,
    topic: webhook.topic,
    signal,
    receivedAt,
  });
}
