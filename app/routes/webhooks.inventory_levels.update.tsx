import type { ActionFunctionArgs } from "@remix-run/node";
import { answerLookupWebhook } from "../webhooks/lookup-webhook.server";

/** inventory_levels/update: the inventory item goes to the lookup outbox, answered at once. */
export const action = ({ request }: ActionFunctionArgs) => answerLookupWebhook(request);
