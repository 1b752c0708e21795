import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { configOrExit } from "../config.server";
import { lazyObject } from "../lazy";
import { prismaSessionStorage } from "../models/sessions.server";
import type { AdminGraphql } from "./admin-graphql";
import { readShopInfo } from "./shop-info";
import { refreshStorefrontPresences } from "./storefront-presences.server";
import { recordInstalledShop } from "../models/shops.server";
import { API_VERSION } from "./api-version";
import { logFor } from "../server/log";

const shopifyLog = logFor("shopify");

/** Shopify's libraries' lines, through the app's logger (levels, fields, redaction). */
function logShopifyLine(severity: LogSeverity, message: string): void {
  const level = ({ 0: "error", 1: "warn", 2: "info", 3: "debug" } as const)[severity];
  // Its own "[shopify-api/INFO] " prefix: the level and component say it.
  shopifyLog[level](message.replace(/^(\[[^\]]*\] )+/, ""));
}

/**
 * The Shopify app of this process, made on its first use from the configuration: a bad one stops
 * the process with one message and exit code 2. The app server's start checks it first
 * (startServerProcess in app/entry.server.tsx).
 */
function makeShopifyApp() {
  const env = configOrExit();
  return shopifyApp({
    apiKey: env.shopifyApiKey,
    apiSecretKey: env.shopifyApiSecret,
    apiVersion: API_VERSION,
    scopes: env.scopes.length > 0 ? env.scopes : undefined,
    appUrl: env.appUrl,
    authPathPrefix: "/auth",
    sessionStorage: prismaSessionStorage(),
    distribution: AppDistribution.AppStore,
    logger: { log: logShopifyLine, level: LogSeverity.Info },
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
}

const shopify = lazyObject(makeShopifyApp);

/**
 * Reads the shop's storefront domain from the Admin API and stores the shop's record, then where
 * the shop sells (its storefront presences; a failure there is noted, never stops the install).
 */
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
  await refreshStorefrontPresences(shopDomain, admin);
}

type ShopifyApp = ReturnType<typeof makeShopifyApp>;

export default shopify;
export const addDocumentResponseHeaders: ShopifyApp["addDocumentResponseHeaders"] = (...args) =>
  shopify.addDocumentResponseHeaders(...args);
export const authenticate = lazyObject(() => shopify.authenticate);
export const unauthenticated = lazyObject(() => shopify.unauthenticated);
export const login: ShopifyApp["login"] = (request) => shopify.login(request);
