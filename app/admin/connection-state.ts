import type { Shop } from "@prisma/client";
import { tierName } from "../index-service/tiers";

export type ConnectionState =
  | { kind: "not-connected"; message: string }
  | { kind: "connected"; tier: string | null; message: string }
  /** Keys saved, but the workspace the storefront chat asks holds nothing of the catalogue. */
  | { kind: "storefront-empty"; tier: string | null; message: string }
  | { kind: "paused"; reason: string; message: string }
  | { kind: "uninstalled"; message: string };

type ShopConnectionFields = Pick<
  Shop,
  "state" | "pauseReason" | "secretKeyCiphertext" | "publishableKey" | "tier"
>;

/** What the dashboard tells the store admin about the link between the shop and the service. */
export function connectionStateOf(shop: ShopConnectionFields): ConnectionState {
  if (shop.state === "uninstalled") {
    return { kind: "uninstalled", message: "The app is uninstalled from this shop." };
  }
  if (shop.state === "paused") {
    const reason = shop.pauseReason ?? "Sync is paused.";
    return { kind: "paused", reason, message: `Sync is paused: ${reason}` };
  }
  if (!shop.secretKeyCiphertext || !shop.publishableKey) {
    return {
      kind: "not-connected",
      message: "Not connected yet: add the service's secret and publishable keys in Settings.",
    };
  }
  return {
    kind: "connected",
    tier: shop.tier,
    message: shop.tier ? `Connected on the ${tierName(shop.tier)} plan.` : "Connected.",
  };
}

/** Never "connected" while the storefront's workspace is empty: shoppers would get no products. */
export function withStorefrontCatalogue(
  state: ConnectionState,
  storefrontWorkspaceId: string | null,
  itemsThere: number,
): ConnectionState {
  if (state.kind !== "connected" || itemsThere > 0) return state;
  const plan = state.tier ? `Connected on the ${tierName(state.tier)} plan` : "Connected";
  return {
    kind: "storefront-empty",
    tier: state.tier,
    message: `${plan}, but the storefront chat asks workspace ${storefrontWorkspaceId ?? "(none)"}, which holds none of the catalogue yet: shoppers get no products until a sync has sent it there.`,
  };
}
