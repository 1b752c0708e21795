import { answerLookupWebhook } from "../sync/live/lookup-webhook.server";
import type { WebhookActionArgs } from "../shopify/webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

/**
 * collections/create, collections/update, collections/delete: the collection goes to the lookup
 * outbox, answered at once.
 */
export const action = answeredBusyForRetry(({ request }: WebhookActionArgs) =>
  answerLookupWebhook(request),
);
