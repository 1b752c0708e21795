import {
  findShop,
  isPausedByMerchant,
  pauseShopForMerchant,
  resumeShopForMerchant,
} from "../models/shops.server";
import { unfinishedRun } from "../models/sync-runs.server";

// The merchant's own pause (Dashboard, "Pause syncing"): the index stays as it is and answers
// shoppers, nothing is sent to it, and the store's changes wait in the outbox. The live worker
// skips a paused shop without dropping its changes, the scheduled full sync and policy check
// skip it, and nothing but "Resume syncing" lifts it (resumeShop leaves it alone).

export interface PauseMessage {
  message: string;
  tone: "success" | "info" | "warning";
}

const PAUSED_REASON = "You paused syncing from the Dashboard.";

/** "Pause syncing", confirmed. */
export async function pauseSyncing(shopDomain: string): Promise<PauseMessage> {
  const shop = await findShop(shopDomain);
  if (!shop || shop.state === "uninstalled") {
    return { message: "The app is uninstalled from this shop.", tone: "warning" };
  }
  if (isPausedByMerchant(shop)) return { message: "Syncing is already paused.", tone: "info" };
  // A run sends until it ends: pausing under it would promise what it cannot keep.
  if (await unfinishedRun(shopDomain)) {
    return {
      message:
        "A sync is in progress: it would go on sending while paused. Pause syncing when it has finished (its progress is shown below).",
      tone: "info",
    };
  }
  await pauseShopForMerchant(shopDomain, PAUSED_REASON);
  return {
    message:
      "Syncing is paused. The index stays as it is and shoppers keep getting answers from it; your store's changes are kept and sent when you resume.",
    tone: "success",
  };
}

/** "Resume syncing": the pause lifts and the live worker sends the changes kept meanwhile. */
export async function resumeSyncing(shopDomain: string): Promise<PauseMessage> {
  if (!(await resumeShopForMerchant(shopDomain))) {
    return { message: "Syncing was not paused.", tone: "info" };
  }
  return {
    message:
      "Syncing resumed: the changes kept while it was paused are being sent now. Changes to pages and articles are caught up by the next scheduled check, or now with Resync.",
    tone: "success",
  };
}

/** Whether syncing is paused by the merchant: a Resync then says so instead of syncing. */
export async function syncingPausedByMerchant(shopDomain: string): Promise<boolean> {
  const shop = await findShop(shopDomain);
  return shop !== null && isPausedByMerchant(shop);
}
