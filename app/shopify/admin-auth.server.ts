import { Session } from "@shopify/shopify-api";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { config, type DemoShop } from "../config.server";
import { routeShopAdminApi } from "./admin-transport.server";
import shopify, { authenticate, unauthenticated } from "./app.server";
import { setLogShop } from "../server/log";
import { offlineSessionIdOf } from "../models/session-reads.server";

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
  if (demo) {
    setLogShop(demo.shopDomain);
    return { shopDomain: demo.shopDomain, admin: await demoShopAdmin(demo) };
  }
  const { session, admin } = await authenticate.admin(request);
  // The request's log lines name the shop from here on.
  setLogShop(session.shop);
  return { shopDomain: session.shop, admin };
}

/** The Admin API of a shop for background work (sync runs), with its offline token. */
export async function adminFor(shopDomain: string): Promise<AdminGraphql> {
  const demo = config().demo;
  if (demo && demo.shopDomain === shopDomain) return demoShopAdmin(demo);
  const { admin } = await unauthenticated.admin(shopDomain);
  return admin;
}

/**
 * The demo shop's Admin API through Shopify's own client, as a real shop's: an offline session
 * (the demo's token, stored as OAuth would have) and `unauthenticated.admin`, with only the
 * library's transport sent to the fake Admin API. So the demo, the tests and the benchmarks meet
 * whatever the library does with Shopify's answers (it throws THROTTLED, for one).
 */
async function demoShopAdmin(demo: DemoShop): Promise<AdminGraphql> {
  routeShopAdminApi(demo.shopDomain, demo.adminGraphqlUrl);
  const id = offlineSessionIdOf(demo.shopDomain);
  const stored = await shopify.sessionStorage.loadSession(id);
  if (stored?.accessToken !== demo.accessToken) {
    await shopify.sessionStorage.storeSession(
      new Session({
        id,
        shop: demo.shopDomain,
        state: "demo",
        isOnline: false,
        scope: config().scopes.join(",") || undefined,
        accessToken: demo.accessToken,
      }),
    );
  }
  const { admin } = await unauthenticated.admin(demo.shopDomain);
  return admin;
}
