import {
  contentHash,
  mapCatalogueItem,
  type CatalogueItem,
  type CatalogPost,
  type CatalogProduct,
  type MapContext,
  type StockStatus,
} from "../../catalog";
import type { ContentKind } from "../../models/ledger.server";

/** The part of the shop an item belongs to; pages and articles are both posts in the index. */
export type CatalogueType = "product" | "page" | "article";

/** One exported object, mapped and hashed: what the service should hold for it, or that it must go. */
export type CatalogueEntry =
  | {
      kind: ContentKind;
      id: string;
      indexable: true;
      item: CatalogProduct | CatalogPost;
      hash: string;
      stockStatus: StockStatus | null;
      updatedAt: Date | null;
    }
  | { kind: ContentKind; id: string; indexable: false; reason: string };

export function catalogueEntry(object: CatalogueItem, context: MapContext): CatalogueEntry {
  const mapped = mapCatalogueItem(object, context);
  if (!mapped.indexable) {
    return { kind: mapped.kind, id: mapped.id, indexable: false, reason: mapped.reason };
  }
  const updated = "updated_at" in mapped.item ? mapped.item.updated_at : undefined;
  return {
    kind: mapped.kind,
    id: mapped.id,
    indexable: true,
    item: mapped.item,
    hash: contentHash(mapped.item),
    stockStatus: mapped.kind === "product" ? (mapped.item as CatalogProduct).stock_status : null,
    updatedAt: updated ? new Date(updated) : null,
  };
}

export function kindOfType(type: CatalogueType): ContentKind {
  return type === "product" ? "product" : "post";
}

export function catalogueTypeOf(object: CatalogueItem): CatalogueType {
  return object.type === "Product" ? "product" : object.type === "Page" ? "page" : "article";
}
