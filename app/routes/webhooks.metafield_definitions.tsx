import { findShop } from "../models/shops.server";
import { followMetafieldDefinitionsSoon } from "../shop/follow-metafield-definitions.server";
import { adminFor } from "../shopify/admin-auth.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/**
 * metafield_definitions/create|update|delete: answered at once; the definitions are then read
 * from the Admin API, and a chosen one deleted or hidden from the storefront leaves the index
 * (app/shop/follow-metafield-definitions.server.ts, decision 0034).
 */
const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request);
  const known = await findShop(shop);
  if (known && known.state !== "uninstalled") void followMetafieldDefinitionsSoon(shop, adminFor);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
