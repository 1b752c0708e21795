/** Shopify data turned into index documents: what sync/ imports. Nothing here knows the service's client. */
export * from "./queries";
export * from "./shopify-types";
export * from "./index-types";
export * from "./gid";
export * from "./bulk-jsonl";
export * from "./product-nodes";
export * from "./html-text";
export * from "./map-product";
export * from "./map-post";
export * from "./map-policy";
export * from "./map-metaobject";
export * from "./map-item";
export * from "./content-hash";
export * from "./priority";
export * from "./storefront-url";
export * from "./product-payload";
export * from "./metafield-text";
