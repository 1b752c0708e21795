import type { ActionFunctionArgs } from "@remix-run/node";
import { chooseStorefronts } from "../shop/choose-storefronts.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";

/** Settings' "Save storefronts" (posted by a fetcher form): which domains are indexed. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  const form = await request.formData();
  return chooseStorefronts(shopDomain, form.getAll("storefront").map(String));
};
