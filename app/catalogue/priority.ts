import type { IndexProduct, StockStatus } from "./index-types";

/** What the quota planner needs to rank a product; small enough to keep for a whole catalogue. */
export type ProductPriorityKey = Pick<IndexProduct, "id" | "stock_status" | "updated_at">;

const AVAILABILITY: Record<StockStatus, number> = { instock: 0, onbackorder: 1, outofstock: 2 };

export function productPriorityKey(product: IndexProduct): ProductPriorityKey {
  return { id: product.id, stock_status: product.stock_status, updated_at: product.updated_at };
}

/**
 * Order in which products earn a place when the monthly quota cannot hold them all: products
 * that can be bought first (in stock, then on backorder, then out of stock), then the most
 * recently updated, then by id so the order is total and stable. Sort ascending with it:
 * `keys.sort(compareProductPriority)` puts the most deserving first.
 */
export function compareProductPriority(a: ProductPriorityKey, b: ProductPriorityKey): number {
  const availability = AVAILABILITY[a.stock_status] - AVAILABILITY[b.stock_status];
  if (availability !== 0) return availability;
  const updated = Date.parse(b.updated_at) - Date.parse(a.updated_at);
  if (updated !== 0 && !Number.isNaN(updated)) return updated;
  // Shorter first, then lexical: numeric ids in numeric order.
  if (a.id.length !== b.id.length) return a.id.length - b.id.length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
