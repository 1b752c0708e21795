import { markShopUninstalled } from "../models/shops.server";
import { removeServiceWebhook } from "../service-events/registration.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request);
  // Bounded and never failing: the service stops sending and the app stops accepting.
  await removeServiceWebhook(shop);
  await markShopUninstalled(shop);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
