/**
 * Following where the shop sells (docs/markets.md, decision 0031): the shop's storefront
 * presences (each domain and subfolder, its languages, its markets and their currency) are read
 * from the Admin API in one paged document and kept whole (app/shopify/storefront-presences.server.ts).
 * They are read when the shop is installed or authorises the app again (afterAuth: also after
 * granting read_markets and read_locales), when Shopify sends domains/*, locales/* or markets/* (the
 * webhook is a signal: the presences are read, never taken from its body, so a late or repeated
 * delivery cannot bring old ones back), and on the periodic check, which alone sees a web
 * presence created, changed or deleted (Shopify has no topic for those).
 *
 * After each read, the storefront domains' own workspaces follow the presences: one added is
 * filled, one gone is dropped from the storefront configuration, then emptied
 * (follow-storefront-domains.server.ts, decision 0038).
 */
import type { AdminGraphql } from "../shopify/admin-graphql";
import { refreshStorefrontPresences } from "../shopify/storefront-presences.server";
import { shopsToFollow } from "../models/storefront-presences.server";
import { logFor } from "../server/log";
import { followStorefrontDomains } from "./follow-storefront-domains.server";
import { oneAtATimePerShop } from "../server/one-at-a-time-per-shop";
import { repeatWithoutOverlap } from "../server/repeat-without-overlap";

const log = logFor("presences");

const readOnce = oneAtATimePerShop();

/**
 * A webhook said the presences changed: they are read after the answer, one read per shop at a
 * time (a delivery during a read asks for one more, so the last read starts after the last
 * change). A read lost with the process is made by the next periodic check. Resolves when the
 * shop's reads are done (tests).
 */
export function refreshStorefrontPresencesSoon(
  shopDomain: string,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): Promise<void> {
  return readOnce(shopDomain, async () => {
    try {
      await refreshStorefrontPresences(shopDomain, await adminOf(shopDomain));
    } catch (error) {
      log.error({ err: error, shop: shopDomain }, "the store's presences could not be read");
    }
    await followDomains(shopDomain, adminOf);
  });
}

/** Reads every installed shop's presences, one shop after the other. */
export async function followStorefrontPresences(
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): Promise<number> {
  let read = 0;
  for (const shopDomain of await shopsToFollow()) {
    try {
      const outcome = await refreshStorefrontPresences(shopDomain, await adminOf(shopDomain));
      if (outcome.kind === "read") read += 1;
    } catch (error) {
      log.error({ err: error, shop: shopDomain }, "the check of its presences failed");
    }
    await followDomains(shopDomain, adminOf);
  }
  return read;
}

/**
 * The domain workspaces follow the presences kept (just read, or as before when the read failed);
 * a failure is tried again by the next pass.
 */
function followDomains(
  shopDomain: string,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): Promise<void> {
  return followStorefrontDomains(shopDomain, { adminOf });
}

/** Checks every `everyMinutes` (never two passes at once); returns a stop function. */
export function schedulePresenceChecks(
  everyMinutes: number,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): () => void {
  return repeatWithoutOverlap(
    everyMinutes * 60_000,
    () => followStorefrontPresences(adminOf),
    (error) => log.error({ err: error }, "the presences check failed"),
  );
}
