import { answerLookupWebhook } from "../webhooks/lookup-webhook.server";
import type { WebhookActionArgs } from "../webhooks/shopify-webhook.server";

/** inventory_levels/update: the inventory item goes to the lookup outbox, answered at once. */
export const action = ({ request }: WebhookActionArgs) => answerLookupWebhook(request);
