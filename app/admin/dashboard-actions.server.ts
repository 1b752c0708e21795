import prisma from "../db.server";
import { countOf } from "../format";
import { findShop } from "../models/shops.server";
import { ShopNotConnectedError } from "../sync/shop/service-keys.server";
import { NothingChosenError, startShopSync } from "../sync/shopify/shop-sync.server";
import { RunInProgressError, type SyncTrigger } from "../models/sync-runs.server";

export interface DashboardMessage {
  message: string;
  tone: "success" | "info" | "warning";
}

/**
 * The Dashboard's buttons. "Resync" starts a full sync; "Retry failed items" starts one too, as a
 * full sync re-sends whatever the index lacks, and the items the service refused are not in it.
 * A paused shop's Resync says what happens: the key is proved first and the pause lifts only if
 * the service accepts it.
 */
export async function dashboardAction(
  shopDomain: string,
  intent: FormDataEntryValue | null,
): Promise<DashboardMessage> {
  const retry = intent === "retry-failed";
  const [shop, failed] = await Promise.all([
    findShop(shopDomain),
    retry ? failedInLastRun(shopDomain) : 0,
  ]);
  const trigger: SyncTrigger = retry ? "retry" : "resync";
  try {
    await startShopSync(shopDomain, trigger);
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
  if (retry) {
    return {
      message: `Retrying ${countOf(failed, "failed item")}: the app reads your store again and sends everything the index lacks, ${failed === 1 ? "this one" : "these"} included.`,
      tone: "success",
    };
  }
  return { message: "Resync started.", tone: "success" };
}

async function failedInLastRun(shopDomain: string): Promise<number> {
  const last = await prisma.syncRun.findFirst({
    where: { shopDomain, state: { not: "running" } },
    orderBy: { startedAt: "desc" },
    select: { id: true },
  });
  return last ? prisma.syncItem.count({ where: { runId: last.id, status: "failed" } }) : 0;
}
