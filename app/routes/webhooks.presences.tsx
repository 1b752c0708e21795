import { findShop } from "../models/shops.server";
import { refreshStorefrontPresencesSoon } from "../shop/follow-storefront-presences.server";
import { adminFor } from "../shopify/admin-auth.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/**
 * domains/*, locales/*, markets/*: where the shop sells changed. Answered at once; the presences
 * are then read from the Admin API (never from the body), so a late or repeated delivery is
 * harmless (app/shop/follow-storefront-presences.server.ts).
 */
const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request);
  const known = await findShop(shop);
  if (known && known.state !== "uninstalled") void refreshStorefrontPresencesSoon(shop, adminFor);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
