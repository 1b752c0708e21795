import { adminFormat, type AdminFormat } from "../format";
import { findShop } from "../models/shops.server";
import { ShopNotConnectedError } from "../shop/service-keys.server";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { NothingChosenError, startShopSync } from "../sync/full/run-full-sync.server";
import { retryRefusedItems, type RetryOutcome } from "../sync/full/retry-refused-items.server";
import { RunInProgressError } from "../models/sync-runs.server";
import { refusalInMerchantWords } from "./item-problems";
import {
  pauseSyncing,
  resumeSyncing,
  syncingPausedByMerchant,
} from "../shop/merchant-pause.server";

export interface DashboardMessage {
  message: string;
  tone: "success" | "info" | "warning";
  /** "Retry failed items": what each item came to, by name. */
  details?: string[];
}

/**
 * The Dashboard's buttons. "Resync" starts a full sync. "Retry failed items" reads the refused
 * items alone from Shopify and sends them while the merchant waits, then says what each came to.
 * A paused shop's Resync says what happens: the key is proved first and the pause lifts only if
 * the service accepts it. "Pause syncing" and "Resume syncing" are the merchant's own pause
 * (shop/merchant-pause.server.ts); while it holds, Resync and Retry failed items send nothing.
 */
export async function dashboardAction(
  shopDomain: string,
  intent: FormDataEntryValue | null,
  admin: AdminGraphql,
  format: AdminFormat = adminFormat(),
): Promise<DashboardMessage> {
  if (intent === "pause") return pauseSyncing(shopDomain);
  if (intent === "resume") return resumeSyncing(shopDomain);
  // Paused by the merchant: nothing is sent, not even a retry, until they resume.
  if (await syncingPausedByMerchant(shopDomain)) {
    return {
      message:
        "Syncing is paused (you paused it): nothing is sent to the search index. Press Resume syncing to send your store's changes, then Resync if you still want a full sync.",
      tone: "warning",
    };
  }
  if (intent === "retry-failed") {
    try {
      return retryMessage(await retryRefusedItems(shopDomain, admin), format);
    } catch (error) {
      return {
        message: `The retry stopped before it finished (${error instanceof Error ? error.message : String(error)}). What was sent is in the index; press Retry failed items again, or Resync.`,
        tone: "warning",
      };
    }
  }
  const shop = await findShop(shopDomain);
  try {
    await startShopSync(shopDomain, "resync");
  } catch (error) {
    if (error instanceof RunInProgressError) {
      return {
        message: "A sync is already in progress for this shop; its progress is shown below.",
        tone: "info",
      };
    }
    if (error instanceof NothingChosenError) {
      return {
        message:
          "Nothing is chosen to sync: tick Products, Online store pages or Blog articles in Settings, then press Resync.",
        tone: "warning",
      };
    }
    if (error instanceof ShopNotConnectedError) {
      return { message: "Add the search service's keys in Settings first.", tone: "warning" };
    }
    throw error;
  }
  if (shop?.state === "paused") {
    return {
      message:
        "The app is checking your secret key with the search service first. If the service accepts it, the sync runs and the pause ends; if not, syncing stays paused and the banner above says what to fix.",
      tone: "info",
    };
  }
  return { message: "Resync started.", tone: "success" };
}

/** What a press of "Retry failed items" came to, in the merchant's words and number format. */
export function retryMessage(
  outcome: RetryOutcome,
  format: AdminFormat = adminFormat(),
): DashboardMessage {
  switch (outcome.kind) {
    case "nothing":
      return { message: "No refused items to retry.", tone: "info" };
    case "busy":
      return {
        message:
          outcome.reason === "sync"
            ? "A sync is in progress for this shop; it sends the refused items too. Its progress is shown below."
            : "The app is sending this shop's latest changes right now; press Retry failed items again in a minute.",
        tone: "info",
      };
    case "done": {
      const { indexed, removed, refused, overQuota, notRetried, more } = outcome;
      const parts = [
        indexed.length > 0
          ? `${format.count(indexed.length, "item is", "items are")} in the index now`
          : null,
        removed.length > 0
          ? `${format.count(removed.length, "item was", "items were")} removed (no longer in your store or not for sale)`
          : null,
        refused.length > 0
          ? `${format.count(refused.length, "item was", "items were")} refused again`
          : null,
        overQuota.length > 0
          ? `${format.count(overQuota.length, "item waits", "items wait")} for this month's quota`
          : null,
      ].filter(Boolean);
      const details = [
        ...indexed.map((name) => `${name}: in the index now.`),
        ...removed.map((name) => `${name}: removed from the index.`),
        ...refused.map(
          ({ name, error }) => `${name}: refused again. ${refusalInMerchantWords(error ?? null)}`,
        ),
        ...overQuota.map((name) => `${name}: waits for this month's quota.`),
      ];
      const later = [
        more > 0
          ? `${format.count(more, "more item")} ${more === 1 ? "is" : "are"} retried with the next press.`
          : null,
        notRetried > 0
          ? `${format.count(notRetried, "policy or metaobject entry", "policies or metaobject entries")} ${notRetried === 1 ? "is" : "are"} sent by the next Resync.`
          : null,
      ].filter(Boolean);
      const tried = outcome.tried;
      return {
        message: `Retried ${format.count(tried, "refused item")}, read again from your store: ${parts.join(", ") || "nothing to send"}.${later.length ? ` ${later.join(" ")}` : ""}`,
        tone: refused.length + overQuota.length > 0 ? "warning" : "success",
        details,
      };
    }
  }
}
