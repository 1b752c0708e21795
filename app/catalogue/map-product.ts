import { numericId, productServiceId } from "./gid";
import { htmlToPlainText, makeExcerpt } from "./html-text";
import {
  isNamedApart,
  isNamedSingleReference,
  metafieldLongText,
  metafieldValueText,
  productMetafieldsOf,
  referencedIdsOf,
  variantMetafieldsOf,
  type ChosenMetafield,
  type ShopifyMetafield,
} from "./metafield-text";
import { VARIANT_METAFIELD_ALIAS } from "./queries";
import type {
  IndexProduct,
  IndexVariant,
  MapContext,
  ProductMapResult,
  ProductNotIndexableReason,
  StockStatus,
} from "./index-types";
import type {
  ShopifyMedia,
  ShopifyProduct,
  ShopifyProductFields,
  ShopifyProductOption,
  ShopifyVariant,
} from "./shopify-types";
import { productUrl } from "./storefront-url";

/** The `status` sent for every indexed product (only active products are indexed). */
export const INDEXED_PRODUCT_STATUS = "active";

/**
 * Why a product must not be in the index, or null when it may be. Only ACTIVE products published
 * to the Online Store (`onlineStoreUrl` set) are indexable; UNLISTED is Shopify's status for
 * products reachable by link but hidden from search and recommendations.
 */
export function productNotIndexableReason(
  product: Pick<ShopifyProductFields, "status" | "onlineStoreUrl">,
): ProductNotIndexableReason | null {
  switch (product.status) {
    case "ACTIVE":
      return product.onlineStoreUrl ? null : "unpublished";
    case "DRAFT":
      return "draft";
    case "ARCHIVED":
      return "archived";
    case "UNLISTED":
      return "unlisted";
    default:
      return "unpublished";
  }
}

export function isIndexableProduct(
  product: Pick<ShopifyProductFields, "status" | "onlineStoreUrl">,
): boolean {
  return productNotIndexableReason(product) === null;
}

export function mapProduct(product: ShopifyProduct, context: MapContext): ProductMapResult {
  const id = productServiceId(product.id);
  const reason = productNotIndexableReason(product);
  if (reason) return { kind: "product", id, indexable: false, reason };
  return { kind: "product", id, indexable: true, item: toIndexProduct(id, product, context) };
}

function toIndexProduct(id: string, product: ShopifyProduct, context: MapContext): IndexProduct {
  const variants = product.variants ?? [];
  const content = htmlToPlainText(product.descriptionHtml);
  const { currency } = context;
  const pricing = documentPricingOf(variants, currency);
  const item: IndexProduct = {
    id,
    name: product.title.trim(),
    content,
    excerpt: makeExcerpt(content),
    url: productUrl(context.primaryDomain, product.handle),
    on_sale: pricing.onSale,
    stock_status: stockStatusOf(variants),
    brands: nonEmpty([product.vendor]),
    tags: nonEmpty(product.tags ?? []),
    categories: dedupe(
      nonEmpty([product.productType, ...(product.collections ?? []).map((c) => c.title)]),
    ),
    attributes: attributesOf(product.options ?? []),
    status: INDEXED_PRODUCT_STATUS,
    created_at: product.createdAt,
    updated_at: product.updatedAt,
    source: "shopify",
  };
  addMetafields(item, product, productMetafieldsOf(context.metafields ?? []), context);
  const image = imageOf(product.featuredMedia, product.media ?? []);
  if (image) item.image = image;
  Object.assign(item, priceFieldsOf(pricing));
  if (currency) item.currency = currency;
  const quantity = stockQuantityOf(variants);
  if (quantity !== undefined) item.stock_quantity = quantity;
  const sku = firstSku(variants);
  if (sku) item.sku = sku;
  const type = product.productType?.trim();
  if (type) item.type = type;
  const cartVariants = variantsOf(
    variants,
    variantMetafieldsOf(context.metafields ?? []),
    currency,
    context.referenceNames?.names,
  );
  if (cartVariants.length > 0) item.variants = cartVariants;
  addVariantAttributes(item, cartVariants);
  return item;
}

/**
 * The chosen metafields the product has a readable value of, as attributes named by their
 * definitions (after the options; a name both have gets both's values); long text also goes to
 * `content` under its name. A metafield not chosen is never sent, even if the export had it.
 */
function addMetafields(
  item: IndexProduct,
  product: ShopifyProduct,
  chosen: readonly ChosenMetafield[],
  context: MapContext,
): void {
  for (const choice of chosen) {
    const metafield = metafieldFor(product.metafields ?? [], choice);
    if (!metafield) continue;
    const texts = metafieldValueText(metafield, context.referenceNames?.names);
    if (!texts) continue;
    const name = choice.name.trim() || `${choice.namespace}.${choice.key}`;
    const values = item.attributes[name] ?? [];
    item.attributes[name] = [...values, ...texts.filter((text) => !values.includes(text))];
    const long = metafieldLongText(metafield.type, metafield.value);
    if (long)
      item.content = item.content ? `${item.content}\n\n${name}: ${long}` : `${name}: ${long}`;
  }
}

/** At most this many variants are sent (the widget offers them in a list). */
export const MAX_INDEXED_VARIANTS = 100;

/**
 * The variants as the widget's "Add to cart" needs them. The title is Shopify's own variant title
 * (the option values joined by " / "), empty for the single "Default Title" variant.
 */
function variantsOf(
  variants: ShopifyVariant[],
  chosen: readonly ChosenMetafield[],
  currency: string | undefined,
  names: ReadonlyMap<string, string> | undefined,
): IndexVariant[] {
  return variants.slice(0, MAX_INDEXED_VARIANTS).map((variant) => {
    const values = variant.selectedOptions.map((option) => option.value.trim());
    const entry: IndexVariant = {
      id: numericId(variant.id),
      title: values.join(" / ") === "Default Title" ? "" : values.join(" / "),
      available: variantStockStatus(variant) !== "outofstock",
    };
    Object.assign(entry, variantPriceOf(variant, currency));
    const attributes = variantAttributesOf(variant, chosen, names);
    if (attributes) entry.attributes = attributes;
    return entry;
  });
}

/** The chosen metafield among those read, by its namespace and key. */
function metafieldFor(
  metafields: readonly ShopifyMetafield[],
  choice: { namespace: string; key: string },
): ShopifyMetafield | undefined {
  return metafields.find((m) => m.namespace === choice.namespace && m.key === choice.key);
}

/** The variant's metafields as the export read them (under their aliases). */
export function variantMetafields(variant: ShopifyVariant): ShopifyMetafield[] {
  return Object.entries(variant).flatMap(([field, value]) =>
    field.startsWith(VARIANT_METAFIELD_ALIAS) && value && typeof value === "object"
      ? [value as ShopifyMetafield]
      : [],
  );
}

/** The chosen variant metafields with a readable value, named by their definitions; or none. */
function variantAttributesOf(
  variant: ShopifyVariant,
  chosen: readonly ChosenMetafield[],
  names: ReadonlyMap<string, string> | undefined,
): Record<string, string[]> | undefined {
  if (chosen.length === 0) return undefined;
  const read = variantMetafields(variant);
  const attributes: Record<string, string[]> = {};
  for (const choice of chosen) {
    const metafield = metafieldFor(read, choice);
    const texts = metafield ? metafieldValueText(metafield, names) : null;
    if (!texts) continue;
    attributes[choice.name.trim() || `${choice.namespace}.${choice.key}`] = texts;
  }
  return Object.keys(attributes).length > 0 ? attributes : undefined;
}

/**
 * The variants' metafields on the product's own attributes too, which the service searches and
 * the assistant reads (it knows nothing of variants): one value when every variant with a value
 * has the same, else each as "variant title: value" ("S: 71 cm").
 */
function addVariantAttributes(item: IndexProduct, variants: readonly IndexVariant[]): void {
  const names = [...new Set(variants.flatMap((variant) => Object.keys(variant.attributes ?? {})))];
  for (const name of names) {
    const having = variants.filter((variant) => variant.attributes?.[name]);
    const texts = having.map((variant) => variant.attributes![name]!.join(", "));
    const labelled =
      new Set(texts).size === 1 && having.length === variants.length
        ? [texts[0]!]
        : having.map((variant, index) =>
            variant.title ? `${variant.title}: ${texts[index]}` : texts[index]!,
          );
    const values = item.attributes[name] ?? [];
    item.attributes[name] = [...values, ...labelled.filter((text) => !values.includes(text))];
  }
}

function money(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

export interface Pricing {
  price?: number;
  regularPrice?: number;
  onSale: boolean;
}

type PricedVariant = Pick<ShopifyVariant, "price" | "compareAtPrice" | "currency">;

/**
 * The document's own price (`pricingOf`) in its `currency`: a variant priced in another currency
 * (a market's price the app could not use) is left out of it.
 */
export function documentPricingOf(
  variants: readonly PricedVariant[],
  currency: string | undefined,
): Pricing {
  const inCurrency = variants.filter((v) => !v.currency || !currency || v.currency === currency);
  return pricingOf(inCurrency.length > 0 ? inCurrency : variants);
}

/**
 * The document's price fields for its pricing, none when no variant has a price: `price`,
 * `regular_price` and, on sale, `sale_price` (the same variant's figures: `pricingOf`).
 */
export function priceFieldsOf(
  pricing: Pricing,
): Pick<IndexProduct, "price" | "regular_price" | "sale_price"> {
  if (pricing.price === undefined) return {};
  return {
    price: pricing.price,
    regular_price: pricing.regularPrice,
    ...(pricing.onSale ? { sale_price: pricing.price } : {}),
  };
}

/** A cart variant's `price`, and its `currency` when it is not the document's. */
export function variantPriceOf(
  variant: PricedVariant,
  currency: string | undefined,
): Pick<IndexVariant, "price" | "currency"> {
  const price = money(variant.price);
  if (price === undefined) return {};
  return variant.currency && variant.currency !== currency
    ? { price, currency: variant.currency }
    : { price };
}

/**
 * `price` is the lowest price of any variant. The product is on sale when a variant at that
 * lowest price has a compare-at price above it; `regular_price` is then that compare-at price (the
 * highest one among the lowest-priced variants), otherwise the price itself. This keeps the three
 * figures about the same variant, so "from $X, was $Y" never mixes two variants.
 */
function pricingOf(variants: readonly PricedVariant[]): Pricing {
  let lowest: number | undefined;
  let compareAt: number | undefined;
  for (const variant of variants) {
    const price = money(variant.price);
    if (price === undefined) continue;
    const compare = money(variant.compareAtPrice);
    const onSaleAt = compare !== undefined && compare > price ? compare : undefined;
    if (lowest === undefined || price < lowest) {
      lowest = price;
      compareAt = onSaleAt;
    } else if (price === lowest && onSaleAt !== undefined) {
      compareAt = compareAt === undefined ? onSaleAt : Math.max(compareAt, onSaleAt);
    }
  }
  if (lowest === undefined) return { onSale: false };
  return { price: lowest, regularPrice: compareAt ?? lowest, onSale: compareAt !== undefined };
}

const STOCK_RANK: Record<StockStatus, number> = { instock: 2, onbackorder: 1, outofstock: 0 };

/** What a variant's stock status and quantity are derived from. */
export type VariantStock = Pick<
  ShopifyVariant,
  "id" | "inventoryQuantity" | "inventoryPolicy" | "availableForSale" | "inventoryItem"
>;

/**
 * The document without what stock decides (stock status and quantity, each variant's
 * availability, and `updated_at`, which a purchase moves): two documents whose stockless forms
 * hash alike differ in stock alone.
 */
export function stocklessProduct(item: IndexProduct) {
  const {
    stock_status: _status,
    stock_quantity: _quantity,
    updated_at: _updated,
    variants,
    ...rest
  } = item;
  if (!variants) return rest;
  return { ...rest, variants: variants.map(({ available: _available, ...variant }) => variant) };
}

/**
 * The document `item` (as mapProduct made it) with the stock of `variants` (all of the product's,
 * in position order) and the product's `updatedAt`: the very document mapProduct would make of
 * the product if nothing but its stock changed. Null when the variants are no longer those the
 * document lists (added, removed, reordered): the product must be mapped whole.
 */
export function restockProduct(
  item: IndexProduct,
  variants: readonly VariantStock[],
  updatedAt: string,
): IndexProduct | null {
  const listed = item.variants ?? [];
  const kept = variants.slice(0, MAX_INDEXED_VARIANTS);
  if (listed.length !== kept.length) return null;
  if (listed.some((variant, index) => variant.id !== numericId(kept[index]!.id))) return null;
  const next: IndexProduct = {
    ...item,
    stock_status: stockStatusOf(variants),
    updated_at: updatedAt,
  };
  delete next.stock_quantity;
  const quantity = stockQuantityOf(variants);
  if (quantity !== undefined) next.stock_quantity = quantity;
  if (item.variants) {
    next.variants = listed.map((variant, index) => ({
      ...variant,
      available: variantStockStatus(kept[index]!) !== "outofstock",
    }));
  }
  return next;
}

/**
 * A variant is in stock when Shopify does not track its inventory or has some; at zero or below
 * it is on backorder when its policy lets customers keep buying (CONTINUE), else out of stock.
 * `availableForSale` decides only when the quantity is unknown: Shopify also reports it true for
 * a CONTINUE variant without stock, which is a backorder, not stock. The product takes the best
 * state of its variants.
 */
export function variantStockStatus(variant: VariantStock): StockStatus {
  const tracked = variant.inventoryItem?.tracked;
  if (tracked === false) return "instock";
  const quantity = variant.inventoryQuantity;
  if (tracked === undefined || quantity === null || quantity === undefined) {
    return variant.availableForSale ? "instock" : "outofstock";
  }
  if (quantity > 0) return "instock";
  return variant.inventoryPolicy === "CONTINUE" ? "onbackorder" : "outofstock";
}

function stockStatusOf(variants: readonly VariantStock[]): StockStatus {
  let best: StockStatus = "outofstock";
  for (const variant of variants) {
    const status = variantStockStatus(variant);
    if (STOCK_RANK[status] > STOCK_RANK[best]) best = status;
    if (best === "instock") break;
  }
  return best;
}

/** Sum of the tracked variants' quantities (oversold negatives count as 0). */
function stockQuantityOf(variants: readonly VariantStock[]): number | undefined {
  let sum: number | undefined;
  for (const variant of variants) {
    if (variant.inventoryItem?.tracked !== true) continue;
    const quantity = variant.inventoryQuantity;
    if (quantity === null || quantity === undefined) continue;
    sum = (sum ?? 0) + Math.max(0, quantity);
  }
  return sum;
}

/** The SKU of the first variant (in position order) that has one. */
function firstSku(variants: ShopifyVariant[]): string | undefined {
  for (const variant of variants) {
    const sku = variant.sku?.trim();
    if (sku) return sku;
  }
  return undefined;
}

/**
 * The featured media's image, else the first image among the product's media, else the first
 * video or 3D model poster.
 */
function imageOf(featured: ShopifyMedia | null, media: ShopifyMedia[]): string | undefined {
  const featuredUrl = featured?.preview?.image?.url;
  if (featuredUrl) return featuredUrl;
  let poster: string | undefined;
  for (const item of media) {
    const url = item.preview?.image?.url;
    if (!url) continue;
    if (item.mediaContentType === "IMAGE") return url;
    poster ??= url;
  }
  return poster;
}

/** Option name → values, leaving out the "Title: Default Title" option of single-variant products. */
function attributesOf(options: ShopifyProductOption[]): Record<string, string[]> {
  const entries = options
    .filter((option) => !isDefaultOption(option))
    .map((option) => [option.name.trim(), nonEmpty(option.values)] as const)
    .filter(([name, values]) => name !== "" && values.length > 0);
  return Object.fromEntries(entries);
}

function isDefaultOption(option: ShopifyProductOption): boolean {
  return (
    option.name === "Title" && option.values.length === 1 && option.values[0] === "Default Title"
  );
}

function nonEmpty(values: (string | null | undefined)[]): string[] {
  const result: string[] = [];
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed) result.push(trimmed);
  }
  return result;
}

/** Drops repeats, ignoring case; the first spelling wins. */
function dedupe(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The ids the product's chosen references read as ids hold (isNamedApart: lists of references,
 * its variants' references), whose names mapping it needs (MapContext.referenceNames).
 */
export function idsNamedApartOf(
  product: ShopifyProduct,
  chosen: readonly ChosenMetafield[],
): string[] {
  const apart = chosen.filter(isNamedApart);
  if (apart.length === 0) return [];
  const held = (metafields: readonly ShopifyMetafield[], own: readonly ChosenMetafield[]) =>
    own.flatMap((choice) => {
      const metafield = metafieldFor(metafields, choice);
      return metafield ? referencedIdsOf(metafield) : [];
    });
  const variantChoices = variantMetafieldsOf(apart);
  return [
    ...held(product.metafields ?? [], productMetafieldsOf(apart)),
    ...(variantChoices.length > 0
      ? product.variants
          .slice(0, MAX_INDEXED_VARIANTS)
          .flatMap((variant) => held(variantMetafields(variant), variantChoices))
      : []),
  ];
}

/**
 * The ids the product's chosen single references name (to a product, variant, collection, page or
 * file, read with the product: decision 0045), whose names a storefront domain's language may
 * translate. A metaobject entry's is left out: it is sent with its fields, as read.
 */
export function singleReferenceIdsOf(
  product: ShopifyProduct,
  chosen: readonly ChosenMetafield[],
): string[] {
  return productMetafieldsOf(chosen)
    .filter(isNamedSingleReference)
    .flatMap((choice) => {
      const metafield = metafieldFor(product.metafields ?? [], choice);
      return metafield?.reference ? referencedIdsOf(metafield) : [];
    });
}
