import type { ActionFunctionArgs } from "@remix-run/node";
import { answerLookupWebhook } from "../webhooks/lookup-webhook.server";

/** collections/update, collections/delete: the collection goes to the lookup outbox, answered at once. */
export const action = ({ request }: ActionFunctionArgs) => answerLookupWebhook(request);
