import { answerLookupWebhook } from "../sync/live/lookup-webhook.server";
import type { WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/** inventory_levels/update: the inventory item goes to the lookup outbox, answered at once. */
export const action = answeredBusyForRetry(({ request }: WebhookActionArgs) =>
  answerLookupWebhook(request),
);
