import type { PendingLookup } from "@prisma/client";
import {
  COLLECTION_PRODUCT_IDS_QUERY,
  COLLECTION_PRODUCTS_PAGE_SIZE,
  INVENTORY_ITEM_PRODUCTS_QUERY,
  INVENTORY_ITEM_VARIANTS_FIRST,
  INVENTORY_ITEMS_PER_QUERY,
  numericId,
  type CollectionProductIdsData,
  type InventoryItemProductsData,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql, type QueryOptions } from "../../shopify/admin-graphql";
import { noteLookupAttempt, pendingLookups, removeLookups } from "../../models/lookups.server";
import { indexedMembersOf, ledgerKnowsCollections } from "../../models/ledger.server";
import { enqueueProductUpdates } from "../../models/outbox.server";
import { productsOfKnownItems, rememberItemProducts } from "../../models/stock-model.server";

/** Lookups resolved per pass of a shop. */
const LOOKUPS_PER_PASS = 500;

export interface SettleLookupsOptions {
  shopDomain: string;
  admin: AdminGraphql;
  /**
   * Starts a full sync of the shop (a reconciliation): what a deleted collection's products were
   * can no longer be asked of Shopify; when the ledger does not know every product's collections
   * (rows sent before it kept them), one export compared with the ledger finds them.
   * Returns whether one is under way now.
   */
  startFullSync: () => Promise<boolean>;
  /** How Shopify's throttling is waited out (default: real time; a test steps its fake's clock). */
  sleep?: QueryOptions["sleep"];
}

export interface SettledLookups {
  /** Lookups turned into product changes (or found to concern no product). */
  resolved: number;
  /** Products put into the outbox. */
  products: number;
  /** A full sync was started for lookups that cannot be resolved by id. */
  fullSync: boolean;
}

function gidOf(type: "InventoryItem" | "Collection", id: string) {
  return `gid://shopify/${type}/${id}`;
}

/**
 * Turns a shop's lookups (all of them: the worker comes when the oldest has waited the coalescing
 * window, as for products) into product changes in the live outbox: inventory items are mapped
 * to their products `INVENTORY_ITEMS_PER_QUERY` at a time (one re-read per product later, however
 * many of its levels changed: the outbox holds one row per product); a collection's products are
 * read page by page (Shopify's throttling waited out by queryAdmin), together with those the
 * ledger has in it; a deleted collection's (or one already gone) are the ledger's, or, while the
 * ledger does not know every product's collections, a full sync finds them. Resolved lookups
 * leave the outbox afterwards, so a crash in between only resolves them again.
 */
export async function settleLookups(options: SettleLookupsOptions): Promise<SettledLookups> {
  const rows = await pendingLookups(options.shopDomain, LOOKUPS_PER_PASS);
  const result: SettledLookups = { resolved: 0, products: 0, fullSync: false };
  if (rows.length === 0) return result;
  const needFullSync: PendingLookup[] = [];
  try {
    const items: PendingLookup[] = [];
    // An item whose product Shopify named before (the stock model, an earlier lookup) names it
    // without asking again (0 points).
    const known = await productsOfKnownItems(
      options.shopDomain,
      rows.filter((row) => row.kind === "inventory-item").map((row) => row.resourceId),
    );
    for (const row of rows) {
      if (row.kind !== "inventory-item") continue;
      const productId = known.get(row.resourceId);
      if (productId === undefined) {
        items.push(row);
        continue;
      }
      await enqueueProductUpdates(
        row.shopDomain,
        [productId],
        row.changedAt,
        row.receivedAt,
        "stock",
      );
      await removeLookups([row]);
      result.products += 1;
      result.resolved += 1;
    }
    for (let start = 0; start < items.length; start += INVENTORY_ITEMS_PER_QUERY) {
      const batch = items.slice(start, start + INVENTORY_ITEMS_PER_QUERY);
      const products = await productsOfItems(options.admin, batch, options.sleep);
      // Kept: the item's next payload names its product without asking again, even before the
      // product's levels are read (a sale's next order may come first).
      await rememberItemProducts(
        options.shopDomain,
        batch.flatMap((row) => {
          const ids = products.get(row.resourceId) ?? [];
          return ids.length === 1 ? [{ inventoryItemId: row.resourceId, productId: ids[0]! }] : [];
        }),
      );
      for (const row of batch) {
        const ids = products.get(row.resourceId) ?? [];
        // Only the stock is known to have changed: the worker reads just that (PendingChangeKind).
        await enqueueProductUpdates(row.shopDomain, ids, row.changedAt, row.receivedAt, "stock");
        result.products += ids.length;
      }
      await removeLookups(batch);
      result.resolved += batch.length;
    }
    const collections = rows.filter(
      (candidate) => candidate.kind === "collection" || candidate.kind === "collection-delete",
    );
    for (const row of collections) {
      // A deleted collection has no products to ask for; one changed may have lost some (taken
      // out on the collection's page): the products the index has in it are re-read too.
      const members =
        row.kind === "collection"
          ? await productsOfCollection(options.admin, row.resourceId, options.sleep)
          : null;
      if (members === null && !(await ledgerKnowsCollections(row.shopDomain))) {
        needFullSync.push(row);
        continue;
      }
      const ids = [
        ...new Set([
          ...(members ?? []),
          ...(await indexedMembersOf({ shopDomain: row.shopDomain }, row.resourceId)),
        ]),
      ];
      await enqueueProductUpdates(row.shopDomain, ids, row.changedAt, row.receivedAt);
      await removeLookups([row]);
      result.products += ids.length;
      result.resolved += 1;
    }
  } catch (error) {
    await noteLookupAttempt(rows, error instanceof Error ? error.message : String(error));
    throw error;
  }
  if (needFullSync.length > 0 && (await options.startFullSync())) {
    await removeLookups(needFullSync);
    result.resolved += needFullSync.length;
    result.fullSync = true;
  }
  return result;
}

/** Inventory item id → the numeric ids of its products (none when Shopify no longer has it). */
async function productsOfItems(
  admin: AdminGraphql,
  rows: readonly PendingLookup[],
  sleep: QueryOptions["sleep"],
): Promise<Map<string, string[]>> {
  const data = await queryAdmin<InventoryItemProductsData>(
    admin,
    INVENTORY_ITEM_PRODUCTS_QUERY,
    {
      ids: rows.map((row) => gidOf("InventoryItem", row.resourceId)),
      variantsFirst: INVENTORY_ITEM_VARIANTS_FIRST,
    },
    { sleep },
  );
  const products = new Map<string, string[]>();
  for (const node of data.nodes) {
    if (!node?.id) continue;
    const ids = new Set<string>();
    for (const variant of node.variants?.nodes ?? []) {
      if (variant.product) ids.add(numericId(variant.product.id));
    }
    products.set(numericId(node.id), [...ids]);
  }
  return products;
}

/** The numeric ids of a collection's products, every page; null when Shopify has no such collection. */
async function productsOfCollection(
  admin: AdminGraphql,
  collectionId: string,
  sleep: QueryOptions["sleep"],
): Promise<string[] | null> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const data: CollectionProductIdsData = await queryAdmin<CollectionProductIdsData>(
      admin,
      COLLECTION_PRODUCT_IDS_QUERY,
      { id: gidOf("Collection", collectionId), first: COLLECTION_PRODUCTS_PAGE_SIZE, after },
      { sleep },
    );
    if (!data.collection) return null;
    const page = data.collection.products;
    ids.push(...page.nodes.map((node) => numericId(node.id)));
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return ids;
    after = page.pageInfo.endCursor;
  }
}
