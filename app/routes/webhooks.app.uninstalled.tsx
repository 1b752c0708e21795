import type { ActionFunctionArgs } from "@remix-run/node";
import { markShopUninstalled } from "../models/shops.server";
import { authenticateShopifyWebhook } from "../webhooks/shopify-webhook.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticateShopifyWebhook(request);
  await markShopUninstalled(shop);
  return new Response();
};
