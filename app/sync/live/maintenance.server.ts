import { pruneWebhookReceipts } from "../../models/outbox.server";
import { installedShops } from "../../models/shops.server";
import { sendingTierOf } from "../engine/pacer-registry.server";
import { serviceKeyIdOf } from "../../shop/service-keys.server";
import { probePausedShop, shopsPausedByService } from "../../shop/pause.server";
import { leaveFormerWorkspaces } from "../../shop/leave-former-workspace.server";
import { followStorefrontDomains } from "../../shop/follow-storefront-domains.server";
import { shopsToFollow } from "../../models/storefront-presences.server";
import type { WorkerContext } from "./worker-context";

/**
 * The worker's periodic chores: old receipts forgotten, shops that are gone forgotten, paused
 * shops asked again, old workspaces emptied, storefront domains' workspaces filled or emptied as
 * the store's domains changed (a pass after a presence read that failed or found the shop busy).
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
          worker.log(
            "the search service answers again; the shop resumed",
            undefined,
            shop.shopDomain,
          );
        }
      } finally {
        await lease.release();
      }
    });
  }
  await leaveFormerWorkspaces(worker);
  // In a slot of its own: a pass that finds nothing to do must not keep the shop's changes from
  // being served (with frequent maintenance it would take the shop's slot every round); one that
  // acts holds the shop's lease, which keeps serving out meanwhile.
  for (const shopDomain of await shopsToFollow()) {
    worker.launch(
      shopDomain,
      () => followStorefrontDomains(shopDomain, { leases: worker.leases }),
      `${shopDomain}#domains`,
    );
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
