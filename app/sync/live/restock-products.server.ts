import {
  contentHash,
  PRODUCT_STOCK_BY_IDS_QUERY,
  PRODUCT_STOCK_IDS_PER_QUERY,
  PRODUCT_STOCK_VARIANTS_FIRST,
  productNotIndexableReason,
  productUrl,
  queryAdmin,
  restockProduct,
  toGid,
  type AdminGraphql,
  type CatalogProduct,
  type ProductStockByIdsData,
  type ProductStockNode,
} from "../../catalog";
import { indexedDocuments, type LedgerScope } from "../../models/ledger.server";

export interface Restocked {
  /** Products sent again from their last document with their current stock, by id. */
  entries: Map<string, { item: CatalogProduct; hash: string; collectionIds: string | null }>;
  /** Products that must be re-read whole (no kept document, gone, unlisted, moved, reshaped). */
  reread: string[];
}

/**
 * Products whose only known change is their stock (an inventory level changed): their variants'
 * stock is read, a few cost points each, and put into the document the ledger kept of the last
 * send; the result is what mapping the whole product would give if nothing else changed. Any
 * other change comes with its own webhook (products/update, a whole re-read), and a lost one is
 * found by the reconciliation, which compares the whole product with the ledger's hash. A product
 * is re-read whole instead when the ledger keeps no document for it (or one that is not what its
 * hash says), when Shopify no longer has it, when it is no longer indexable or has another handle,
 * or when its variants are not those the document lists.
 */
export async function restockProducts(
  admin: AdminGraphql,
  scope: LedgerScope,
  productIds: readonly string[],
  primaryDomain: string,
): Promise<Restocked> {
  const result: Restocked = { entries: new Map(), reread: [] };
  const documents = await indexedDocuments(scope, "product", productIds);
  const known: { id: string; item: CatalogProduct; collectionIds: string | null }[] = [];
  for (const id of productIds) {
    const kept = documents.get(id);
    const item = kept ? parseKept(kept.content, kept.contentHash) : null;
    // Its collections are those of the kept document: only the stock changes.
    if (item) known.push({ id, item, collectionIds: kept!.collectionIds });
    else result.reread.push(id);
  }
  for (let start = 0; start < known.length; start += PRODUCT_STOCK_IDS_PER_QUERY) {
    const batch = known.slice(start, start + PRODUCT_STOCK_IDS_PER_QUERY);
    const data = await queryAdmin<ProductStockByIdsData>(admin, PRODUCT_STOCK_BY_IDS_QUERY, {
      ids: batch.map(({ id }) => toGid("Product", id)),
      variantsFirst: PRODUCT_STOCK_VARIANTS_FIRST,
    });
    batch.forEach(({ id, item, collectionIds }, index) => {
      const node = data.nodes[index];
      const restocked =
        node?.__typename === "Product"
          ? restockFrom(item, node as ProductStockNode, primaryDomain)
          : null;
      if (restocked) {
        result.entries.set(id, { item: restocked, hash: contentHash(restocked), collectionIds });
      } else result.reread.push(id);
    });
  }
  return result;
}

function parseKept(content: string, hash: string): CatalogProduct | null {
  try {
    const item = JSON.parse(content) as CatalogProduct;
    return contentHash(item) === hash ? item : null;
  } catch {
    return null;
  }
}

function restockFrom(
  item: CatalogProduct,
  node: ProductStockNode,
  primaryDomain: string,
): CatalogProduct | null {
  if (productNotIndexableReason(node) !== null) return null;
  if (productUrl(primaryDomain, node.handle) !== item.url) return null;
  if (node.variants.pageInfo.hasNextPage) return null;
  return restockProduct(item, node.variants.nodes, node.updatedAt);
}
