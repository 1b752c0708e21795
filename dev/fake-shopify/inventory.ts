/**
 * Inventory items and levels as Shopify models them for a shop with one location: every variant
 * has an inventory item (its own id space), and the item one level at the shop's location whose
 * `available` is the variant's `inventoryQuantity`. Ids are derived from the variant's, so bulk
 * exports and webhooks agree without a table.
 */
import { gid, numericPart, parseGid } from "./gid";

/** The shop's only location. */
export const LOCATION_ID = 77_000_000_001;
export const LOCATION_GID = gid("Location", LOCATION_ID);

/** Inventory item numbers sit this far above their variant's (a separate id space, as on Shopify). */
const ITEM_OFFSET = 100_000_000_000_000;

export function inventoryItemGidOf(variantGid: string): string {
  return gid("InventoryItem", Number(numericPart(variantGid)) + ITEM_OFFSET);
}

/** The variant gid an inventory item gid belongs to; null when it is not an inventory item's. */
export function variantGidOfItem(itemGid: string): string | null {
  const parsed = parseGid(itemGid);
  if (parsed?.type !== "InventoryItem" || !/^\d+$/.test(parsed.id)) return null;
  const variant = Number(parsed.id) - ITEM_OFFSET;
  return variant > 0 ? gid("ProductVariant", variant) : null;
}

/** InventoryLevel gids name the location and the item, as Shopify's do. */
export function inventoryLevelGid(itemGid: string): string {
  return `gid://shopify/InventoryLevel/${LOCATION_ID}?inventory_item_id=${numericPart(itemGid)}`;
}

/** Shopify's REST timestamps carry an offset; the fake's shop is in UTC. */
export function restTime(iso: string): string {
  return iso.replace(/Z$/, "+00:00");
}

/** The inventory_levels/update body (Shopify's sample shape). */
export function inventoryLevelPayload(itemGid: string, available: number, updatedAt: string) {
  return {
    inventory_item_id: Number(numericPart(itemGid)),
    location_id: LOCATION_ID,
    available,
    updated_at: restTime(updatedAt),
    admin_graphql_api_id: inventoryLevelGid(itemGid),
  };
}
