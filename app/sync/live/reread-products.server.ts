import {
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  productsFromNodesResponse,
  numericId,
  toGid,
  productsByIdsRead,
  type ChosenMetafield,
  type ProductsByIdsData,
  type ShopifyProduct,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";

/**
 * Ids per `nodes(ids:)` query with the default sizes: each id may cost some 185 points, and
 * Shopify refuses a query whose requested cost is over 1,000 (see queries.ts).
 */
export const PRODUCT_IDS_PER_QUERY = 5;

/**
 * The sizes a product cut short by the defaults is read again with, alone: about 870 points
 * requested, within Shopify's 1,000. A product with even more (over 250 variants) is indexed
 * with its first 250.
 */
export const PRODUCT_NODES_LARGE_PAGE_SIZES = {
  variantsFirst: 250,
  collectionsFirst: 50,
  mediaFirst: 20,
} as const;

export interface RereadProducts {
  /** Products Shopify has, as the bulk export assembles them. */
  products: ShopifyProduct[];
  /** Numeric ids Shopify no longer knows (deleted). */
  missing: string[];
}

/**
 * Reads products from the Admin API by id, in queries of a few ids, waiting out Shopify's
 * cost-based throttling (queryAdmin). What it returns is the truth at the time of reading,
 * whatever the webhooks said.
 */
export async function rereadProducts(
  admin: AdminGraphql,
  productIds: readonly string[],
  /** The shop's chosen metafields, read with each product (MapContext.metafields). */
  metafields: readonly ChosenMetafield[] = [],
): Promise<RereadProducts> {
  const {
    query,
    variables,
    idsPerQuery = PRODUCT_IDS_PER_QUERY,
    largeVariantsFirst,
  } = productsByIdsRead(metafields);
  const products: ShopifyProduct[] = [];
  const missing: string[] = [];
  for (let start = 0; start < productIds.length; start += idsPerQuery) {
    const ids = productIds.slice(start, start + idsPerQuery);
    const read = await readByIds(admin, query, ids, {
      ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
      ...variables,
    });
    missing.push(...read.missing);
    for (const product of read.products) {
      if (!product.truncated) {
        products.push(product);
        continue;
      }
      const again = await readByIds(admin, query, [product.legacyResourceId], {
        ...PRODUCT_NODES_LARGE_PAGE_SIZES,
        ...(largeVariantsFirst ? { variantsFirst: largeVariantsFirst } : {}),
        ...variables,
      });
      const whole = again.products[0];
      if (whole) {
        const { truncated: _truncated, ...rest } = whole;
        products.push(rest);
      } else missing.push(product.legacyResourceId);
    }
  }
  return { products, missing };
}

async function readByIds(
  admin: AdminGraphql,
  query: string,
  productIds: readonly string[],
  sizes: Record<string, unknown>,
): Promise<RereadProducts> {
  const gids = productIds.map((id) => toGid("Product", id));
  const data = await queryAdmin<ProductsByIdsData>(admin, query, {
    ids: gids,
    ...sizes,
  });
  const read = productsFromNodesResponse(gids, data);
  return {
    products: read.products,
    missing: read.missing.map((gid) => numericId(gid)),
  };
}
