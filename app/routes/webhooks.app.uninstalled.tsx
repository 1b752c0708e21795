import type { ActionFunctionArgs } from "@remix-run/node";
import { markShopUninstalled } from "../models/shops.server";
import { removeServiceWebhook } from "../service-events/registration.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  // Bounded and never failing: the service stops sending and the app stops accepting.
  await removeServiceWebhook(shop);
  await markShopUninstalled(shop);
  return new Response();
};
