import { deleteAllShopData } from "../models/shops.server";
import { removeServiceWebhook } from "../service-events/registration.server";
import { removeShopFromIndex } from "../shop/remove-from-index.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request, { requireShopInBody: true });
  // Bounded (a few seconds) and never failing: the shop's data is deleted either way.
  await Promise.all([removeShopFromIndex(shop), removeServiceWebhook(shop)]);
  await deleteAllShopData(shop);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
