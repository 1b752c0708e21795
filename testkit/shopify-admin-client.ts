/**
 * Shopify's own Admin API client (shopify-app-remix's `admin.graphql`, from `unauthenticated.admin`
 * with a stored offline session) pointed at a fake Admin API: only the library's transport goes
 * to loopback (app/shopify/admin-transport.server.ts). For tests of a fake alone, without the
 * app's configuration; the app itself reaches its demo shop the same way (adminFor).
 */
import { LogSeverity, Session } from "@shopify/shopify-api";
import { shopifyApp } from "@shopify/shopify-app-remix/server";
import type { AdminGraphql } from "../app/shopify/admin-graphql";
import { API_VERSION } from "../app/shopify/api-version";
import { routeShopAdminApi } from "../app/shopify/admin-transport.server";
import { DEFAULT_ACCESS_TOKEN } from "../dev/fake-shopify/server";

type SessionStorage = NonNullable<Parameters<typeof shopifyApp>[0]["sessionStorage"]>;

/** Sessions in memory, enough for `unauthenticated.admin`. */
class MemorySessions implements SessionStorage {
  readonly #sessions = new Map<string, Session>();

  async storeSession(session: Session) {
    this.#sessions.set(session.id, session);
    return true;
  }
  async loadSession(id: string) {
    return this.#sessions.get(id);
  }
  async deleteSession(id: string) {
    return this.#sessions.delete(id);
  }
  async deleteSessions(ids: string[]) {
    for (const id of ids) this.#sessions.delete(id);
    return true;
  }
  async findSessionsByShop(shop: string) {
    return [...this.#sessions.values()].filter((session) => session.shop === shop);
  }
}

let shops = 0;

/**
 * A real admin client for the fake at `graphqlUrl`. Each call gets a shop domain of its own, so
 * several fakes in one process each get their own requests.
 */
export async function shopifyAdminClient(
  graphqlUrl: string,
  accessToken: string = DEFAULT_ACCESS_TOKEN,
): Promise<AdminGraphql> {
  const shop = `fake-admin-${process.pid}-${++shops}.myshopify.com`;
  const sessionStorage = new MemorySessions();
  const app = shopifyApp({
    apiKey: "test-api-key",
    apiSecretKey: "test-api-secret",
    appUrl: "https://catalog-chat.test",
    apiVersion: API_VERSION,
    sessionStorage,
    future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
    logger: { level: LogSeverity.Error },
  });
  routeShopAdminApi(shop, graphqlUrl);
  await sessionStorage.storeSession(
    new Session({ id: `offline_${shop}`, shop, state: "test", isOnline: false, accessToken }),
  );
  const { admin } = await app.unauthenticated.admin(shop);
  return admin;
}
