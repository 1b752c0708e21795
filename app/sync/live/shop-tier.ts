import type { Shop } from "@prisma/client";
import { isTier, type Tier } from "../../index-service/tiers";

/** The tier live updates pace a shop by: a shop whose tier is not known yet gets the lowest limits. */
export function sendingTierOf(shop: Pick<Shop, "tier">): Tier {
  return isTier(shop.tier) ? shop.tier : "personal";
}
