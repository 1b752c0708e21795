import { adminGraphqlOverHttp, type AdminGraphql } from "./catalog";
import { config } from "./config.server";
import { authenticate, unauthenticated } from "./shopify.server";

export interface AdminRequestContext {
  shopDomain: string;
  admin: AdminGraphql;
}

/**
 * The admin UI's authentication: Shopify's embedded session token, or in the offline demo the
 * one demo shop (the demo refuses to start in production or off loopback).
 */
export async function authenticateAdmin(request: Request): Promise<AdminRequestContext> {
  const demo = config().demo;
  if (demo)
    return {
      shopDomain: demo.shopDomain,
      admin: adminGraphqlOverHttp(demo.adminGraphqlUrl, demo.accessToken),
    };
  const { session, admin } = await authenticate.admin(request);
  return { shopDomain: session.shop, admin };
}

/** The Admin API of a shop for background work (sync runs), with its offline token. */
export async function adminFor(shopDomain: string): Promise<AdminGraphql> {
  const demo = config().demo;
  if (demo && demo.shopDomain === shopDomain)
    return adminGraphqlOverHttp(demo.adminGraphqlUrl, demo.accessToken);
  const { admin } = await unauthenticated.admin(shopDomain);
  return admin;
}
