/**
 * Many shops for a benchmark, each with its own fake store, installed through the app's own code,
 * and the check that each shop's index equals its store. The app's modules are imported when
 * these are called, after routeShopHosts: the Shopify library keeps the fetch it finds when loaded.
 */
import type { FakeShopify } from "../testkit/live-stack";

type Emulator = Awaited<ReturnType<typeof import("../dev/emulator/server").startEmulator>>;

export interface FleetShop {
  domain: string;
  primaryDomain: string;
  /** The emulator account that holds the shop's workspace (its secret key's account). */
  account: string;
  workspace: string;
  secretKey: string;
  publishableKey: string;
  store: FakeShopify;
}

/**
 * Installed as after OAuth: an offline session (unless `session` says no: the offline demo's
 * shop gets its own from adminFor, with the demo token), the shop recorded, its keys saved (sealed, a workspace chosen, its first full
 * sync started, as the Settings page saves them). Does not wait for the syncs.
 */
export async function installShops(
  shops: readonly FleetShop[],
  options: { scopes: string; accessToken: string; session?: (shop: FleetShop) => boolean },
): Promise<void> {
  const prisma = (await import("../app/models/db.server")).default;
  const { adminFor } = await import("../app/shopify/admin-auth.server");
  const { recordShopAfterAuth } = await import("../app/shopify/app.server");
  const { saveSettings } = await import("../app/shop/save-settings.server");
  for (const shop of shops) {
    if (options.session?.(shop) ?? true) {
      await prisma.session.create({
        data: {
          id: `offline_${shop.domain}`,
          shop: shop.domain,
          state: "installed",
          isOnline: false,
          scope: options.scopes,
          accessToken: options.accessToken,
        },
      });
    }
    const admin = await adminFor(shop.domain);
    await recordShopAfterAuth(shop.domain, options.scopes, admin);
    const saved = await saveSettings(shop.domain, admin, {
      secretKey: shop.secretKey,
      publishableKey: shop.publishableKey,
      workspaceOverride: "",
      syncProducts: true,
      syncPages: true,
      syncArticles: true,
    });
    if (!saved.ok) {
      throw new Error(`${shop.domain}: keys refused: ${JSON.stringify(saved.problems)}`);
    }
  }
}

/**
 * Products whose index entry differs from the store (missing, extra or another content), per
 * shop in the order given: all 0 when every shop's index equals its store.
 */
export async function productsDiffering(
  emulator: Emulator,
  shops: readonly FleetShop[],
): Promise<number[]> {
  const prisma = (await import("../app/models/db.server")).default;
  const catalogue = await import("../app/catalogue");
  const { expectedProducts, indexedProducts } = await import("../testkit/live-stack");
  type LiveServices = import("../testkit/live-stack").LiveServices;
  const counts: number[] = [];
  for (const shop of shops) {
    const services = {
      emulator,
      shopify: shop.store,
      prisma,
      catalogue,
    } as unknown as LiveServices;
    const expected = await expectedProducts(services, shop.primaryDomain);
    const indexed = indexedProducts(services, shop.workspace, shop.account);
    let wrong = 0;
    for (const id of new Set([...expected.keys(), ...indexed.keys()])) {
      if (expected.get(id) !== indexed.get(id)) wrong += 1;
    }
    counts.push(wrong);
  }
  return counts;
}
