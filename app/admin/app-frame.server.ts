import { config } from "../config.server";
import { unreadInboxCount } from "../models/inbox.server";

/** What every admin page's frame shows: App Bridge's key (or the demo's plain navigation), the Inbox count. */
export async function appFrameOf(shopDomain: string) {
  const env = config();
  return {
    apiKey: env.shopifyApiKey,
    embedded: !env.demo,
    inboxUnread: await unreadInboxCount(shopDomain),
  };
}
