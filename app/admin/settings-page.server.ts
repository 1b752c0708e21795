import { findShop, workspaceOf } from "../models/shops.server";
import { serviceEventsStatus } from "../service-events/registration.server";

/** What the Settings page shows: the saved keys (never the secret), the workspace and choices. */
export async function settingsPageOf(shopDomain: string) {
  const [shop, events] = await Promise.all([findShop(shopDomain), serviceEventsStatus(shopDomain)]);
  return {
    derivedWorkspaceId: shop?.workspaceId ?? null,
    primaryDomain: shop?.primaryDomain ?? null,
    workspaceOverride: shop?.workspaceOverride ?? "",
    workspaceId: shop ? workspaceOf(shop) : null,
    secretKeyLast4: shop?.secretKeyLast4 ?? null,
    publishableKey: shop?.publishableKey ?? "",
    syncProducts: shop?.syncProducts ?? true,
    syncPages: shop?.syncPages ?? true,
    syncArticles: shop?.syncArticles ?? true,
    events,
  };
}
