import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { configOrExit } from "./config.server";
import prisma from "./db.server";
import type { AdminGraphql } from "./catalog/admin-graphql";
import { readShopInfo } from "./catalog/shop-info";
import { recordInstalledShop } from "./models/shops.server";
import { API_VERSION } from "./shopify/api-version";

// Loaded when the server starts: a bad configuration stops it with one message and exit code 2.
const env = configOrExit();

const shopify = shopifyApp({
  apiKey: env.shopifyApiKey,
  apiSecretKey: env.shopifyApiSecret,
  apiVersion: API_VERSION,
  scopes: env.scopes.length > 0 ? env.scopes : undefined,
  appUrl: env.appUrl,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  distribution: AppDistribution.AppStore,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  hooks: {
    afterAuth: async ({ session, admin }) => {
      await recordShopAfterAuth(session.shop, session.scope, admin);
    },
  },
  ...(env.shopCustomDomain ? { customShopDomains: [env.shopCustomDomain] } : {}),
});

/** Reads the shop's storefront domain from the Admin API and stores the shop's record. */
export async function recordShopAfterAuth(
  shopDomain: string,
  scope: string | undefined,
  admin: AdminGraphql,
): Promise<void> {
  const info = await readShopInfo(admin);
  await recordInstalledShop({
    shopDomain,
    primaryDomain: info.primaryDomainHost,
    currencyCode: info.currencyCode,
    contactEmail: info.email,
    scopes: scope,
  });
}

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
