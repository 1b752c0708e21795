import {
  contentHash,
  numericId,
  mapCatalogueItem,
  type CatalogueItem,
  type IndexPost,
  type IndexProduct,
  type MapContext,
  type StockStatus,
} from "../../catalogue";
import type { ContentKind } from "../../models/ledger.server";

/**
 * The part of the shop an item belongs to; pages, articles, the shop's policies and the entries
 * of the metaobject definitions chosen in Settings are all posts in the index.
 */
export type CatalogueType = "product" | "page" | "article" | "policy" | "metaobject";

/** One exported object, mapped and hashed: what the service should hold for it, or that it must go. */
export type CatalogueEntry =
  | {
      kind: ContentKind;
      id: string;
      indexable: true;
      item: IndexProduct | IndexPost;
      hash: string;
      stockStatus: StockStatus | null;
      updatedAt: Date | null;
      /** Products: the ledger's ",1,2," of its Shopify collections (null when unknown or a post). */
      collectionIds: string | null;
    }
  | { kind: ContentKind; id: string; indexable: false; reason: string };

/** The name of a product, the title of a post, as the service holds it (for the ledger). */
export function titleOf(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null) return null;
  const { name, title } = payload as { name?: unknown; title?: unknown };
  return typeof name === "string" ? name : typeof title === "string" ? title : null;
}

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
    stockStatus: mapped.kind === "product" ? (mapped.item as IndexProduct).stock_status : null,
    updatedAt: updated ? new Date(updated) : null,
    collectionIds: object.type === "Product" ? collectionIdsOf(object.value) : null,
  };
}

/**
 * A product's collections as the ledger keeps them: ",1,2," (numeric ids, sorted), "" for none;
 * null when the list was cut short (a re-read's first page), so nobody relies on it.
 */
export function collectionIdsOf(product: {
  collections?: readonly { id: string }[];
  truncated?: readonly string[];
}): string | null {
  if (product.truncated?.includes("collections")) return null;
  const ids = (product.collections ?? []).map((collection) => numericId(collection.id)).sort();
  return ids.length === 0 ? "" : `,${ids.join(",")},`;
}

export function kindOfType(type: CatalogueType): ContentKind {
  return type === "product" ? "product" : "post";
}

const TYPE_OF: Record<CatalogueItem["type"], CatalogueType> = {
  Product: "product",
  Page: "page",
  Article: "article",
  ShopPolicy: "policy",
  Metaobject: "metaobject",
};

export function catalogueTypeOf(object: CatalogueItem): CatalogueType {
  return TYPE_OF[object.type];
}
