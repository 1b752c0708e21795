/**
 * metafield_definitions/create|update|delete (decision 0034): a chosen product metafield whose
 * definition was deleted in Shopify, or whose storefront access was turned off, leaves the choice
 * and every product in the index at once, not at the merchant's next save. The webhook is a
 * signal: the definitions are read from the Admin API (Shopify's update payload carries neither
 * the definition's id nor its storefront access; the delete payload only its id), so a late or
 * repeated delivery cannot undo anything.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { SyncRun } from "@prisma/client";
import { metafieldKey, type ChosenMetafield } from "../catalogue";
import { chosenMetafieldsOf, findShop, saveChosenMetafields } from "../models/shops.server";
import { isRunUnfinished, RunInProgressError, type SyncTrigger } from "../models/sync-runs.server";
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
  /** Chosen ones no longer offered, dropped; `run` the export that takes them out (null: none). */
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
  return { kind: "withdrawn", withdrawn, run: await exportProductsAgain(shopDomain) };
}

/** How long a withdrawal waits for a run under way to end before leaving it to the daily sweep. */
const WAIT_FOR_RUN_MS = 30 * 60_000;
const WAIT_STEP_MS = 1_000;

/**
 * The full sync that sends every product without the withdrawn metafields. A run under way may
 * have asked Shopify for its export with the old choice: this one starts when that one has ended
 * (waiting in this process, at most 30 minutes; past that, or on a restart, the daily sweep or
 * a Resync drops them).
 */
async function exportProductsAgain(shopDomain: string): Promise<SyncRun | null> {
  const deadline = Date.now() + WAIT_FOR_RUN_MS;
  for (;;) {
    try {
      return await startShopSync(shopDomain, DEFINITION_CHANGE_TRIGGER, undefined, undefined, [
        "product",
      ]);
    } catch (error) {
      if (!(error instanceof RunInProgressError)) {
        if (isNoRunToStart(error)) return null;
        throw error;
      }
      if (Date.now() >= deadline) return null;
      while ((await isRunUnfinished(error.run.id)) && Date.now() < deadline) {
        // Unreferenced: a process stopping does not wait for it.
        await sleep(WAIT_STEP_MS, undefined, { ref: false });
      }
    }
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
