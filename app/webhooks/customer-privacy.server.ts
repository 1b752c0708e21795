import type { ActionFunctionArgs } from "@remix-run/node";
import { recordComplianceRequest } from "../models/shops.server";
import { authenticateShopifyWebhook } from "./shopify-webhook.server";

/** customers/data_request and customers/redact: the app stores no customer data to export or erase. */
export async function customerPrivacyAction({ request }: ActionFunctionArgs): Promise<Response> {
  const { shop, topic, webhookId } = await authenticateShopifyWebhook(request);
  await recordComplianceRequest(shop, topic, webhookId);
  return new Response();
}
