import type { ActionFunctionArgs } from "@remix-run/node";
import { sendTestEvent } from "../service-events/test-event.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";

/** Settings' "Send a test event" (posted by a fetcher form): the outcome in the merchant's words. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  return sendTestEvent(shopDomain);
};
