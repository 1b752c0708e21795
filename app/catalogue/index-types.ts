import type { ChosenMetafield } from "./metafield-text";
import type { ShopifyProduct } from "./shopify-types";
/**
 * What the catalogue makes of a Shopify object: the service's item shapes (field names as the
 * service's SDK spells them, snake_case), stricter than the client's wire types in
 * index-service/types.ts (`IndexProduct`, `IndexPost`), which these are assignable to. Named
 * apart because catalogue/ knows nothing of the service's client. Optional fields are left out when
 * Shopify has no value, never sent as null.
 */

export type StockStatus = "instock" | "outofstock" | "onbackorder";

export interface IndexProduct {
  id: string;
  name: string;
  content: string;
  excerpt: string;
  url: string;
  image?: string;
  price?: number;
  regular_price?: number;
  sale_price?: number;
  /** ISO 4217 code of the prices (service-gaps: "Currency of prices"); left out when unknown. */
  currency?: string;
  on_sale: boolean;
  stock_status: StockStatus;
  /** Sum of tracked quantities; absent when no variant tracks inventory. */
  stock_quantity?: number;
  sku?: string;
  brands: string[];
  tags: string[];
  categories: string[];
  /** Option name → its values, e.g. {"Color": ["Red", "Blue"]}. */
  attributes: Record<string, string[]>;
  /**
   * What the storefront widget needs to add a product to the cart: each variant's numeric id
   * (the id Shopify's Ajax Cart API takes), its title ("Red / M"), price and whether it can be
   * bought. All of it is public on the product's own page.
   */
  variants?: IndexVariant[];
  status: string;
  type?: string;
  created_at: string;
  updated_at: string;
  source: "shopify";
}

export interface IndexVariant {
  id: string;
  title: string;
  price?: number;
  /** ISO 4217, only when this variant's price is in another currency than the product's. */
  currency?: string;
  available: boolean;
  /**
   * The chosen variant metafields this variant has a readable value of, named by their
   * definitions (docs/decisions/0033); left out when none.
   */
  attributes?: Record<string, string[]>;
}

export type PostType = "page" | "article";

export interface IndexPost {
  id: string;
  title: string;
  content: string;
  excerpt: string;
  /** Left out when the item has no storefront page (a metaobject entry without one). */
  url?: string;
  post_type: PostType;
  status: string;
  author_name?: string;
  tags: string[];
  categories: string[];
  featured_image?: string;
  published_at?: string;
  updated_at?: string;
  source: "shopify";
}

export type ProductNotIndexableReason = "draft" | "archived" | "unlisted" | "unpublished";
/** `empty`: a metaobject entry none of whose fields has a readable value. */
export type PostNotIndexableReason = "unpublished" | "empty";

/** What the mapper made of one Shopify object: an item to upsert, or an id to delete. */
export type MapResult =
  | { kind: "product"; id: string; indexable: true; item: IndexProduct }
  | { kind: "product"; id: string; indexable: false; reason: ProductNotIndexableReason }
  | { kind: "post"; id: string; indexable: true; item: IndexPost }
  | { kind: "post"; id: string; indexable: false; reason: PostNotIndexableReason };

export type ProductMapResult = Extract<MapResult, { kind: "product" }>;
export type PostMapResult = Extract<MapResult, { kind: "post" }>;

export interface MapContext {
  /** The shop's primary domain, as a host ("shop.example.com") or URL ("https://shop.example.com"). */
  primaryDomain: string;
  /**
   * The product and variant metafields the merchant chose in Settings, in their order (default:
   * none).
   */
  metafields?: readonly ChosenMetafield[];
  /**
   * The names of what chosen references read as ids name (lists of references, a variant's
   * references: isNamedApart), learnt from Shopify before the products that hold them are mapped
   * (app/sync/engine/reference-names.server.ts). None chosen: absent.
   */
  referenceNames?: ReferenceNames | undefined;
  /** The ISO 4217 code of the prices (`showableCurrency`): the document's `currency`; none: left out. */
  currency?: string;
}

/** Id → name of what references name, filled from Shopify for the products about to be mapped. */
export interface ReferenceNames {
  /** What was learnt: a deleted target is named "" (nothing is sent for it). */
  readonly names: ReadonlyMap<string, string>;
  /** Reads the names of the ids these products' chosen references hold that are not known yet. */
  learn(products: readonly ShopifyProduct[]): Promise<void>;
}
