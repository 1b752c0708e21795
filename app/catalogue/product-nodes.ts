import type {
  ShopifyCollection,
  ShopifyMedia,
  ShopifyProduct,
  ShopifyProductFields,
  ShopifyVariant,
} from "./shopify-types";
import type { ShopifyMetafield } from "./metafield-text";

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean };
}

/** One entry of `nodes(ids:)` as PRODUCTS_BY_IDS_QUERY selects it. */
export type ProductNodeResponse = ShopifyProductFields & {
  __typename: "Product";
  variants: Page<ShopifyVariant>;
  collections: Page<ShopifyCollection>;
  media: Page<ShopifyMedia>;
  /** Only when the chosen metafields were asked for. */
  metafields?: { nodes: ShopifyMetafield[] };
};

export interface ProductsByIdsData {
  nodes: (ProductNodeResponse | { __typename: string } | null)[];
}

export interface ProductsByIds {
  /** Products found, as the bulk export assembles them. */
  products: ShopifyProduct[];
  /** Requested gids Shopify no longer knows (deleted): remove them from the index. */
  missing: string[];
}

/**
 * Turns a PRODUCTS_BY_IDS_QUERY response into the same ShopifyProduct objects the bulk export
 * yields. `ids` are the gids that were asked for, in the order sent (`nodes` answers in that order,
 * with null for an id that does not exist).
 */
export function productsFromNodesResponse(ids: string[], data: ProductsByIdsData): ProductsByIds {
  const products: ShopifyProduct[] = [];
  const missing: string[] = [];
  ids.forEach((id, index) => {
    const node = data.nodes[index];
    if (node && isProductNode(node)) products.push(productFromNode(node));
    else missing.push(id);
  });
  return { products, missing };
}

function isProductNode(node: { __typename: string }): node is ProductNodeResponse {
  return node.__typename === "Product";
}

function productFromNode(node: ProductNodeResponse): ShopifyProduct {
  const { __typename: _typename, variants, collections, media, metafields, ...fields } = node;
  const truncated: NonNullable<ShopifyProduct["truncated"]> = [];
  if (variants.pageInfo.hasNextPage) truncated.push("variants");
  if (collections.pageInfo.hasNextPage) truncated.push("collections");
  if (media.pageInfo.hasNextPage) truncated.push("media");
  return {
    ...fields,
    variants: variants.nodes,
    collections: collections.nodes,
    media: media.nodes,
    ...(metafields ? { metafields: metafields.nodes } : {}),
    ...(truncated.length > 0 ? { truncated } : {}),
  };
}
