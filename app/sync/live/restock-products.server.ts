import {
  contentHash,
  PRODUCT_STOCK_BY_IDS_QUERY,
  PRODUCT_STOCK_IDS_PER_QUERY,
  PRODUCT_STOCK_VARIANTS_FIRST,
  PRODUCT_STOCK_VARIANTS_MAX,
  productNotIndexableReason,
  productUrl,
  queryAdmin,
  restockProduct,
  stocklessProduct,
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
 * when its variants are not those the document lists, or when it has more than 250.
 */
export async function restockProducts(
  admin: AdminGraphql,
  scope: LedgerScope,
  productIds: readonly string[],
  primaryDomain: string,
): Promise<Restocked> {
  const result: Restocked = { entries: new Map(), reread: [] };
  const documents = await indexedDocuments(scope, "product", productIds);
  const known: Known[] = [];
  for (const id of productIds) {
    const kept = documents.get(id);
    const item = kept ? parseKept(kept.content, kept.contentHash) : null;
    // Its collections are those of the kept document: only the stock changes.
    if (item) known.push({ id, item, collectionIds: kept!.collectionIds });
    else result.reread.push(id);
  }
  const settle = (entry: Known, node: ProductStockNode | null) => {
    const restocked = node ? restockFrom(entry.item, node, primaryDomain) : null;
    if (restocked) {
      result.entries.set(entry.id, {
        item: restocked,
        hash: contentHash(restocked),
        collectionIds: entry.collectionIds,
      });
    } else result.reread.push(entry.id);
  };
  const many: Known[] = [];
  for (let start = 0; start < known.length; start += PRODUCT_STOCK_IDS_PER_QUERY) {
    const batch = known.slice(start, start + PRODUCT_STOCK_IDS_PER_QUERY);
    const nodes = await readStock(admin, batch, PRODUCT_STOCK_VARIANTS_FIRST);
    batch.forEach((entry, index) => {
      const node = nodes[index] ?? null;
      if (node?.variants.pageInfo.hasNextPage) many.push(entry);
      else settle(entry, node);
    });
  }
  // More variants than the first page: read alone with all of them (up to 250).
  for (const entry of many) {
    const [node] = await readStock(admin, [entry], PRODUCT_STOCK_VARIANTS_MAX);
    settle(entry, node ?? null);
  }
  return result;
}

interface Known {
  id: string;
  item: CatalogProduct;
  collectionIds: string | null;
}

/** The stock of these products, in their order; null for one Shopify does not have. */
async function readStock(
  admin: AdminGraphql,
  entries: readonly Known[],
  variantsFirst: number,
): Promise<(ProductStockNode | null)[]> {
  const data = await queryAdmin<ProductStockByIdsData>(admin, PRODUCT_STOCK_BY_IDS_QUERY, {
    ids: entries.map(({ id }) => toGid("Product", id)),
    variantsFirst,
  });
  return entries.map((_, index) => {
    const node = data.nodes[index];
    return node?.__typename === "Product" ? (node as ProductStockNode) : null;
  });
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

/**
 * Of these exported products, the ids whose document differs from the one the ledger kept in
 * stock alone (`stocklessProduct`): the hourly check queues them as stock changes, so a check
 * that runs during a sale does not re-read whole what a stock read settles.
 */
export async function differingInStockAlone(
  scope: LedgerScope,
  exported: readonly CatalogProduct[],
): Promise<Set<string>> {
  const documents = await indexedDocuments(
    scope,
    "product",
    exported.map((item) => item.id),
  );
  const ids = new Set<string>();
  for (const item of exported) {
    const kept = documents.get(item.id);
    const previous = kept ? parseKept(kept.content, kept.contentHash) : null;
    if (
      previous &&
      contentHash(stocklessProduct(previous)) === contentHash(stocklessProduct(item))
    ) {
      ids.add(item.id);
    }
  }
  return ids;
}
