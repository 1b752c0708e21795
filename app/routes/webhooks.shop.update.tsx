import { applyShopUpdate } from "../shop/follow-domain-change.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/**
 * shop/update: when the primary domain changed, the shop moves to the workspace named after it
 * (re-indexed there; its items leave the old one). Retries and late deliveries are harmless: the
 * domain is read from the Admin API, not from the payload.
 */
const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request);
  await applyShopUpdate(shop);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
