import { config } from "../config.server";
import { LOCALE_COOKIE } from "../format";
import { unreadInboxCount } from "../models/inbox.server";

/**
 * What every admin page's frame shows: App Bridge's key (or the demo's plain navigation), the
 * Inbox count, and the admin's locale for the pages' dates and numbers.
 */
export async function appFrameOf(shopDomain: string, locale: string) {
  const env = config();
  return {
    apiKey: env.shopifyApiKey,
    embedded: !env.demo,
    inboxUnread: await unreadInboxCount(shopDomain),
    locale,
  };
}

/**
 * Keeps the locale Shopify put on the app's URL for the app's own navigations, whose requests do
 * not carry it. Inside the admin's iframe the cookie is a third party's: partitioned (CHIPS), so
 * browsers that block third-party cookies still keep it for this admin; a browser that keeps none
 * falls back to en-GB until Shopify loads the app's URL again.
 */
export function localeCookie(locale: string): string {
  const value = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; Path=/; Max-Age=31536000`;
  return config().demo ? `${value}; SameSite=Lax` : `${value}; SameSite=None; Secure; Partitioned`;
}
