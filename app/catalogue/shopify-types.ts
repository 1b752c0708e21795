import type { ShopifyMetafield } from "./metafield-text";

/**
 * The Admin GraphQL shapes the app's own documents (queries.ts) select, as they arrive in a bulk
 * export line or a `nodes(ids:)` response. Connections are already flattened to arrays here: the
 * bulk assembly and the nodes-response reader both produce these same objects.
 */

/** Decimal string, e.g. "19.99" (GraphQL `Money`). */
export type Money = string;
/** ISO 8601 date-time (GraphQL `DateTime`). */
export type DateTime = string;

export type ProductStatus = "ACTIVE" | "ARCHIVED" | "DRAFT" | "UNLISTED";
export type InventoryPolicy = "CONTINUE" | "DENY";

export interface ShopifyImage {
  url: string;
  altText: string | null;
}

/** A product's image, video or 3D model; `preview.image` is the image itself or the poster. */
export interface ShopifyMedia {
  id: string;
  mediaContentType: string;
  alt: string | null;
  preview: { image: { url: string } | null } | null;
}

export interface ShopifyProductOption {
  name: string;
  values: string[];
}

/** The product's own fields: everything selected on Product except its connections. */
export interface ShopifyProductFields {
  id: string;
  legacyResourceId: string;
  title: string;
  handle: string;
  descriptionHtml: string;
  productType: string;
  vendor: string;
  tags: string[];
  status: ProductStatus;
  onlineStoreUrl: string | null;
  createdAt: DateTime;
  updatedAt: DateTime;
  publishedAt: DateTime | null;
  totalInventory: number | null;
  tracksInventory: boolean;
  options: ShopifyProductOption[];
  featuredMedia: ShopifyMedia | null;
}

export interface ShopifyVariant {
  id: string;
  sku: string | null;
  price: Money;
  compareAtPrice: Money | null;
  inventoryQuantity: number | null;
  inventoryPolicy: InventoryPolicy;
  availableForSale: boolean;
  selectedOptions: { name: string; value: string }[];
  inventoryItem: { tracked: boolean } | null;
  /**
   * The ISO 4217 code of `price` when a market's export set it (market-lines.ts); absent: the
   * document's currency.
   */
  currency?: string;
  /**
   * A chosen variant metafield, asked for under an alias (`variantMetafield0: metafield(...)`,
   * VARIANT_METAFIELD_ALIAS); null when the variant has no value.
   */
  [alias: `variantMetafield${number}`]: ShopifyMetafield | null | undefined;
}

export interface ShopifyCollection {
  id: string;
  title: string;
  handle: string;
}

export interface ShopifyProduct extends ShopifyProductFields {
  variants: ShopifyVariant[];
  collections: ShopifyCollection[];
  media: ShopifyMedia[];
  /** The chosen metafields that have a value (absent when none were asked for). */
  metafields?: ShopifyMetafield[];
  /** Connections cut short by `first:` in a `nodes(ids:)` read (never set by the bulk path). */
  truncated?: ("variants" | "collections" | "media")[];
}

export interface ShopifyPage {
  id: string;
  title: string;
  handle: string;
  body: string;
  bodySummary: string;
  isPublished: boolean;
  createdAt: DateTime;
  updatedAt: DateTime;
  publishedAt: DateTime | null;
}

export interface ShopifyArticle {
  id: string;
  title: string;
  handle: string;
  body: string;
  summary: string | null;
  isPublished: boolean;
  createdAt: DateTime;
  updatedAt: DateTime | null;
  publishedAt: DateTime | null;
  tags: string[];
  author: { name: string } | null;
  image: ShopifyImage | null;
  blog: { id: string; handle: string; title: string };
}

/** Shopify's `ShopPolicyType` (Admin API 2026-10). */
export type ShopPolicyType =
  | "CONTACT_INFORMATION"
  | "LEGAL_NOTICE"
  | "PRIVACY_POLICY"
  | "REFUND_POLICY"
  | "SHIPPING_POLICY"
  | "SUBSCRIPTION_POLICY"
  | "TERMS_OF_SALE"
  | "TERMS_OF_SERVICE";

/** One of `shop.shopPolicies`: a legal policy the storefront shows at `url`. */
export interface ShopifyShopPolicy {
  id: string;
  type: ShopPolicyType;
  /** The translated title ("Refund policy"). */
  title: string;
  /** HTML, at most 512 kB. */
  body: string;
  /** The policy's public URL. */
  url: string;
  createdAt: DateTime;
  updatedAt: DateTime;
}

/** One field of a metaobject entry: its type and stored value, as a metafield's. */
export interface ShopifyMetaobjectField {
  key: string;
  type: string;
  /** Null when the entry has no value for the field. */
  value: string | null;
  definition: { name: string };
}

/**
 * One entry of a metaobject definition (an FAQ question, a size chart), with what it needs to be
 * mapped alone: its definition's name and whether its entries have online store pages.
 */
export interface ShopifyMetaobject {
  id: string;
  handle: string;
  type: string;
  displayName: string;
  updatedAt: DateTime;
  /** Null when the definition is not publishable (its entries are then always shown). */
  capabilities: { publishable: { status: "ACTIVE" | "DRAFT" } | null } | null;
  definition: {
    name: string;
    capabilities: {
      onlineStore: { enabled: boolean; data: { urlHandle: string } | null } | null;
    };
  };
  fields: ShopifyMetaobjectField[];
}

/** One assembled object of a bulk export (or of the policies' read), named by its gid's `<Type>`. */
export type CatalogueItem =
  | { type: "Product"; value: ShopifyProduct }
  | { type: "Page"; value: ShopifyPage }
  | { type: "Article"; value: ShopifyArticle }
  | { type: "ShopPolicy"; value: ShopifyShopPolicy }
  | { type: "Metaobject"; value: ShopifyMetaobject };

export type CatalogueItemType = CatalogueItem["type"];
