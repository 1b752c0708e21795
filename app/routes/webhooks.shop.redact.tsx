import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteAllShopData } from "../models/shops.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  await deleteAllShopData(shop);
  return new Response();
};
