import { noteBulkOperationFinished } from "../models/bulk-exports.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

const deliver = async ({ request }: WebhookActionArgs) => {
  const { shop, payload } = await authenticateShopifyWebhook(request);
  const operationId = (payload as { admin_graphql_api_id?: unknown }).admin_graphql_api_id;
  if (typeof operationId !== "string") {
    return new Response("bulk_operations/finish payload has no admin_graphql_api_id", {
      status: 400,
    });
  }
  await noteBulkOperationFinished(shop, operationId);
  return new Response();
};

export const action = answeredBusyForRetry(deliver);
