import { pruneWebhookReceipts } from "../../models/outbox.server";
import { findShop, installedShops, workspaceOf } from "../../models/shops.server";
import { unfinishedRun } from "../../models/sync-runs.server";
import { sendingTierOf } from "../engine/pacers.server";
import { serviceKeyIdOf } from "../shop/service-keys.server";
import {
  pauseForServiceRefusal,
  probePausedShop,
  shopsPausedByService,
} from "../shop/pause.server";
import { formerWorkspaces, reindexedSince, removeWorkspaceItems } from "../shop/removal.server";
import { followStorefront } from "../shop/storefront-follows.server";
import { DOMAIN_CHANGE_TRIGGER } from "../shop/workspace-move.server";
import { startLeasedShopSync } from "../shopify/run-leases.server";
import type { WorkerContext } from "./worker-context";

/**
 * The worker's periodic chores: old receipts forgotten, shops that are gone forgotten, paused
 * shops asked again, old workspaces emptied.
 */
export async function maintain(worker: WorkerContext): Promise<void> {
  await pruneWebhookReceipts(worker.now());
  await forgetGoneShops(worker);
  for (const shop of await shopsPausedByService()) {
    worker.launch(shop.shopDomain, async () => {
      const lease = await worker.leases.hold(shop.shopDomain);
      if (!lease) return;
      try {
        const client = worker.serviceClient(shop);
        const pacer = worker.registry.pacerFor(
          shop.shopDomain,
          sendingTierOf(shop),
          serviceKeyIdOf(shop),
        );
        if (await probePausedShop(shop, client, pacer)) {
          worker.log(`${shop.shopDomain}: the search service answers again; the shop resumed`);
        }
      } finally {
        await lease.release();
      }
    });
  }
  const former = new Map<string, string[]>();
  for (const { shopDomain, workspaceId } of await formerWorkspaces()) {
    former.set(shopDomain, [...(former.get(shopDomain) ?? []), workspaceId]);
  }
  for (const [shopDomain, workspaceIds] of former) {
    worker.launch(shopDomain, () => emptyFormerWorkspaces(worker, shopDomain, workspaceIds));
  }
}

/** What the worker keeps per shop (memory, pacer) goes with the shop: deleted or uninstalled. */
async function forgetGoneShops(worker: WorkerContext): Promise<void> {
  const remembered = worker.memory.shops();
  if (remembered.length === 0) return;
  const installed = new Set(await installedShops(remembered));
  for (const shopDomain of remembered) {
    if (installed.has(shopDomain)) continue;
    worker.memory.forget(shopDomain);
    worker.registry.forget(shopDomain);
  }
}

/**
 * After a move to another workspace (shop/update, or a new domain or workspace saved another
 * way): the shop is first indexed in the new one, the storefront then asks the new one, and only
 * then do its items leave the old one.
 */
async function emptyFormerWorkspaces(
  worker: WorkerContext,
  shopDomain: string,
  workspaceIds: string[],
): Promise<void> {
  const shop = await findShop(shopDomain);
  const current = shop && workspaceOf(shop);
  if (!shop || !current || (await unfinishedRun(shopDomain))) return;
  const reindexed = await reindexedSince(shopDomain, current, workspaceIds);
  if (reindexed === "no") {
    await startLeasedShopSync(worker.leases, shopDomain, DOMAIN_CHANGE_TRIGGER);
    return;
  }
  if (reindexed === "failed") return;
  // The old workspace is what the storefront asks until the new one holds the whole catalogue
  // (a spent quota can leave it short): emptied only once the storefront asks the new one.
  try {
    if (!(await followStorefront(shopDomain))) return;
  } catch (error) {
    worker.log(`${shopDomain}: the storefront could not be pointed at its new workspace`, error);
    return;
  }
  const lease = await worker.leases.hold(shopDomain);
  if (!lease) return;
  try {
    const client = worker.serviceClient(shop);
    const pacer = worker.registry.pacerFor(shopDomain, sendingTierOf(shop), serviceKeyIdOf(shop));
    for (const workspaceId of workspaceIds) {
      await removeWorkspaceItems({ shopDomain, workspaceId }, client, {
        send: (request) => pacer.send(request),
      });
    }
  } catch (error) {
    if (!(await pauseForServiceRefusal(shopDomain, error))) {
      worker.log(`${shopDomain}: removing items from its former workspace failed`, error);
    }
  } finally {
    await lease.release();
  }
}
