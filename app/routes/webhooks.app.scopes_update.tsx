import { updateShopScopes } from "../models/shops.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop, payload } = await authenticateShopifyWebhook(request);
  const current = (payload as { current?: unknown }).current;
  if (!Array.isArray(current) || !current.every((s) => typeof s === "string")) {
    return new Response("app/scopes_update payload has no list of current scopes", { status: 400 });
  }
  await updateShopScopes(shop, current);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
