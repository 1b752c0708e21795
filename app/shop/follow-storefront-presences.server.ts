/**
 * Following where the shop sells (docs/markets.md, decision 0031): the shop's storefront
 * presences (each domain and subfolder, its languages, its markets and their currency) are read
 * from the Admin API in one paged document and kept whole. They are read when the shop is
 * installed, before each full sync, when Shopify sends domains/*, locales/* or markets/* (the
 * webhook is a signal: the presences are read, never taken from its body, so a late or repeated
 * delivery cannot bring old ones back), and on the periodic check, which alone sees a web
 * presence created, changed or deleted (Shopify has no topic for those).
 *
 * Read-only for now: nothing here changes what is indexed or where.
 */
import { isAccessDenied, type AdminGraphql } from "../shopify/admin-graphql";
import { readStorefrontPresences, type StorefrontPresence } from "../shopify/web-presences";
import {
  recordPresencesProblem,
  replaceStorefrontPresences,
  shopsToFollow,
} from "../models/storefront-presences.server";
import { logFor } from "../server/log";

const log = logFor("presences");

/** What Settings says when the shop has not granted the scopes the read needs. */
export const PRESENCES_NEED_SCOPES =
  "The app cannot read the store's markets and languages: it needs the read_markets and " +
  "read_locales permissions. Open the app from Shopify's admin to grant them.";

export type PresencesOutcome =
  | { kind: "read"; presences: StorefrontPresence[] }
  | { kind: "no-access" }
  | { kind: "failed"; error: unknown };

/**
 * Reads the shop's presences and keeps them; a shop that did not grant the scopes, or a read
 * that failed, keeps what was read before, with the reason noted. Never throws.
 */
export async function refreshStorefrontPresences(
  shopDomain: string,
  admin: AdminGraphql,
  now: Date = new Date(),
): Promise<PresencesOutcome> {
  try {
    const presences = await readStorefrontPresences(admin);
    await replaceStorefrontPresences(shopDomain, presences, now);
    return { kind: "read", presences };
  } catch (error) {
    if (isAccessDenied(error)) {
      await recordPresencesProblem(shopDomain, PRESENCES_NEED_SCOPES);
      return { kind: "no-access" };
    }
    log.warn({ err: error, shop: shopDomain }, "the store's presences could not be read");
    return { kind: "failed", error };
  }
}

const reading = new Map<string, Promise<void>>();
const readAgain = new Set<string>();

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
  const under = reading.get(shopDomain);
  if (under) {
    readAgain.add(shopDomain);
    return under;
  }
  const run = (async () => {
    do {
      readAgain.delete(shopDomain);
      try {
        await refreshStorefrontPresences(shopDomain, await adminOf(shopDomain));
      } catch (error) {
        log.error({ err: error, shop: shopDomain }, "the store's presences could not be read");
      }
    } while (readAgain.has(shopDomain));
  })().finally(() => reading.delete(shopDomain));
  reading.set(shopDomain, run);
  return run;
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
  }
  return read;
}

/** Checks every `everyMinutes` (never two passes at once); returns a stop function. */
export function schedulePresenceChecks(
  everyMinutes: number,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    followStorefrontPresences(adminOf)
      .catch((error: unknown) => log.error({ err: error }, "the presences check failed"))
      .finally(() => (running = false));
  }, everyMinutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
