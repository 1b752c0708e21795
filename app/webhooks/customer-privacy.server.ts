import type { ActionFunctionArgs } from "@remix-run/node";
import { recordComplianceRequest } from "../models/shops.server";
import { authenticate } from "../shopify.server";

/** customers/data_request and customers/redact: the app stores no customer data to export or erase. */
export async function customerPrivacyAction({ request }: ActionFunctionArgs): Promise<Response> {
  const { shop, topic, webhookId } = await authenticate.webhook(request);
  await recordComplianceRequest(shop, topic, webhookId);
  return new Response();
}
