import type { ActionFunctionArgs } from "@remix-run/node";
import { chooseStorefronts } from "../shop/choose-storefronts.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";

/**
 * Settings' "Save storefronts" (posted by a fetcher form): which of the domains the page showed
 * (`shown`, one per box) are indexed (`storefront`, the ticked boxes). Other pages' stay as saved.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  const form = await request.formData();
  return chooseStorefronts(
    shopDomain,
    form.getAll("storefront").map(String),
    form.getAll("shown").map(String),
  );
};
