/**
 * metafield_definitions/create|update|delete (decision 0034): a chosen product metafield whose
 * definition was deleted in Shopify, or whose storefront access was turned off, leaves the choice
 * and every product in the index at once, not at the merchant's next save. The webhook is a
 * signal: the definitions are read from the Admin API (Shopify's update payload carries neither
 * the definition's id nor its storefront access; the delete payload only its id), so a late or
 * repeated delivery cannot undo anything.
 */
import type { SyncRun } from "@prisma/client";
import { metafieldKey, type ChosenMetafield } from "../catalogue";
import { chosenMetafieldsOf, findShop, saveChosenMetafields } from "../models/shops.server";
import type { SyncTrigger } from "../models/sync-runs.server";
import { logFor } from "../server/log";
import { oneAtATimePerShop } from "../server/one-at-a-time-per-shop";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { isNoRunToStart, startShopSync } from "../sync/full/run-full-sync.server";
import { chosenFromOffers, productMetafieldOffers } from "./product-metafields.server";

const log = logFor("metafield-definitions");

export const DEFINITION_CHANGE_TRIGGER: SyncTrigger = "definition-change";

export type DefinitionChangeOutcome =
  | { kind: "unknown-shop" }
  | { kind: "unchanged" }
  /** Chosen ones no longer offered, dropped; `run` the export that takes them out (null: none started). */
  | { kind: "withdrawn"; withdrawn: ChosenMetafield[]; run: SyncRun | null };

export async function followMetafieldDefinitions(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<DefinitionChangeOutcome> {
  const shop = await findShop(shopDomain);
  if (!shop || shop.state === "uninstalled") return { kind: "unknown-shop" };
  const chosen = chosenMetafieldsOf(shop);
  if (chosen.length === 0) return { kind: "unchanged" };
  const stillOffered = new Set(
    chosenFromOffers(await productMetafieldOffers(admin), chosen.map(metafieldKey)).map(
      metafieldKey,
    ),
  );
  const withdrawn = chosen.filter((metafield) => !stillOffered.has(metafieldKey(metafield)));
  if (withdrawn.length === 0) return { kind: "unchanged" };
  // The rest keep the names they were chosen with (decision 0025): only a save renames.
  await saveChosenMetafields(
    shopDomain,
    chosen.filter((metafield) => stillOffered.has(metafieldKey(metafield))),
  );
  log.info(
    { shop: shopDomain, withdrawn: withdrawn.map(metafieldKey) },
    "chosen metafields withdrawn: their definitions were deleted or hidden from the storefront",
  );
  if (!shop.syncProducts || !shop.secretKeyCiphertext)
    return { kind: "withdrawn", withdrawn, run: null };
  try {
    const run = await startShopSync(shopDomain, DEFINITION_CHANGE_TRIGGER, undefined, undefined, [
      "product",
    ]);
    return { kind: "withdrawn", withdrawn, run };
  } catch (error) {
    // A run under way read the old choice: the next full sync (the daily sweep, Resync) drops it.
    if (isNoRunToStart(error)) return { kind: "withdrawn", withdrawn, run: null };
    throw error;
  }
}

const followOnce = oneAtATimePerShop();

/** After the webhook's answer, one reading per shop at a time (a delivery during one asks for one more). */
export function followMetafieldDefinitionsSoon(
  shopDomain: string,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): Promise<void> {
  return followOnce(shopDomain, async () => {
    try {
      await followMetafieldDefinitions(shopDomain, await adminOf(shopDomain));
    } catch (error) {
      log.error(
        { err: error, shop: shopDomain },
        "the store's metafield definitions could not be read",
      );
    }
  });
}
