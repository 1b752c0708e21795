import { contentHash } from "./content-hash";
import { toGid } from "./gid";
import type { IndexProduct } from "./index-types";
import { mapProduct } from "./map-product";
import type { ShopifyMedia, ShopifyProduct, ShopifyVariant } from "./shopify-types";

/**
 * What a products/update payload (the REST Product, cut to `PRODUCT_WEBHOOK_FIELDS`) says about
 * the fields of the index's document that do not depend on stock, collections or time, as a
 * hash; the same hash of a document the ledger kept (`documentFingerprint`). When they are equal,
 * nothing the index holds changed but, at most, stock: an order's products/update then costs no
 * re-read (docs/decisions/0021-stock-from-the-payload.md).
 *
 * Collections are not in the payload (collections/* webhooks and the hourly check carry them).
 * The image is the one the mapper picks from the payload's `media` (the featured one is the
 * first by position; a video's or 3D model's poster counts, as in the document), or the payload's
 * `image.src` when it carries no `media`.
 */

/** The top-level fields of the REST Product the app reads (shopify.app.toml's include_fields). */
export const PRODUCT_WEBHOOK_FIELDS = [
  "id",
  "admin_graphql_api_id",
  "updated_at",
  "title",
  "body_html",
  "handle",
  "vendor",
  "product_type",
  "tags",
  "status",
  "published_at",
  "options.name",
  "options.values",
  "variants.id",
  "variants.title",
  "variants.price",
  "variants.compare_at_price",
  "variants.sku",
  "variants.option1",
  "variants.option2",
  "variants.option3",
  "image.src",
  "media.position",
  "media.media_content_type",
  "media.preview_image.src",
] as const;

const ORIGIN = "https://fingerprint.invalid";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function restId(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d*$/.test(value)) return value;
  return null;
}

/** The fields that decide a document apart from stock, collections and time. */
function fingerprintOf(item: IndexProduct, image: string | null): string {
  const path = new URL(item.url).pathname;
  return contentHash({
    name: item.name,
    content: item.content,
    excerpt: item.excerpt,
    path,
    on_sale: item.on_sale,
    brands: item.brands,
    tags: item.tags,
    attributes: item.attributes,
    price: item.price,
    regular_price: item.regular_price,
    sale_price: item.sale_price,
    sku: item.sku,
    type: item.type,
    variants: item.variants?.map((variant) => ({
      id: variant.id,
      title: variant.title,
      price: variant.price,
    })),
    image,
  });
}

/** The fingerprint of a document the ledger kept. */
export function documentFingerprint(item: IndexProduct): string {
  return fingerprintOf(item, item.image ?? null);
}

/**
 * The fingerprint of a products/create|update payload; null when the payload does not carry
 * what it takes (a field left out, a product no longer active and published): the product is
 * then re-read whole.
 */
export function payloadFingerprint(payload: unknown): string | null {
  if (!isRecord(payload)) return null;
  const product = productOfPayload(payload);
  if (!product) return null;
  const mapped = mapProduct(product, { primaryDomain: ORIGIN });
  if (!mapped.indexable) return null;
  if (Array.isArray(payload.media)) return fingerprintOf(mapped.item, mapped.item.image ?? null);
  const image = payload.image;
  if (image !== null && !isRecord(image)) return null;
  return fingerprintOf(mapped.item, image ? text(image.src) : null);
}

/** The payload's media as the GraphQL product has them, in position order. */
function mediaOfPayload(media: unknown): ShopifyMedia[] {
  if (!Array.isArray(media)) return [];
  return media
    .filter(isRecord)
    .map((entry, index) => ({
      position: typeof entry.position === "number" ? entry.position : index + 1,
      media: {
        id: "",
        mediaContentType: text(entry.media_content_type) ?? "",
        alt: null,
        preview: isRecord(entry.preview_image)
          ? {
              image: text(entry.preview_image.src)
                ? { url: entry.preview_image.src as string }
                : null,
            }
          : null,
      },
    }))
    .sort((a, b) => a.position - b.position)
    .map((entry) => entry.media);
}

function productOfPayload(payload: Json): ShopifyProduct | null {
  const id = restId(payload.id);
  const title = text(payload.title);
  const handle = text(payload.handle);
  const status = text(payload.status);
  const tags = text(payload.tags);
  const options = payload.options;
  const variants = payload.variants;
  if (!id || title === null || handle === null || status === null || tags === null) return null;
  if (!("published_at" in payload) || !("body_html" in payload)) return null;
  if (!Array.isArray(options) || !Array.isArray(variants)) return null;
  const optionNames: string[] = [];
  const productOptions: ShopifyProduct["options"] = [];
  for (const option of options) {
    if (!isRecord(option) || text(option.name) === null || !Array.isArray(option.values)) {
      return null;
    }
    optionNames.push(option.name as string);
    productOptions.push({
      name: option.name as string,
      values: option.values.filter((value): value is string => typeof value === "string"),
    });
  }
  const media = mediaOfPayload(payload.media);
  const productVariants: ShopifyVariant[] = [];
  for (const variant of variants) {
    if (!isRecord(variant)) return null;
    const variantId = restId(variant.id);
    if (!variantId) return null;
    const selectedOptions: ShopifyVariant["selectedOptions"] = [];
    for (const [index, name] of optionNames.slice(0, 3).entries()) {
      const value = text(variant[`option${index + 1}`]);
      if (value !== null) selectedOptions.push({ name, value });
    }
    productVariants.push({
      id: `gid://shopify/ProductVariant/${variantId}`,
      sku: text(variant.sku),
      price: text(variant.price) ?? "",
      compareAtPrice: text(variant.compare_at_price),
      inventoryQuantity: null,
      inventoryPolicy: "DENY",
      availableForSale: true,
      selectedOptions,
      inventoryItem: null,
    });
  }
  return {
    id: toGid("Product", id),
    legacyResourceId: id,
    title,
    handle,
    descriptionHtml: text(payload.body_html) ?? "",
    productType: text(payload.product_type) ?? "",
    vendor: text(payload.vendor) ?? "",
    tags: tags
      .split(",")
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ""),
    status: status.toUpperCase() as ShopifyProduct["status"],
    onlineStoreUrl: text(payload.published_at) ? `${ORIGIN}/products/${handle}` : null,
    createdAt: "",
    updatedAt: "",
    publishedAt: text(payload.published_at),
    totalInventory: null,
    tracksInventory: false,
    options: productOptions,
    featuredMedia: media[0] ?? null,
    variants: productVariants,
    collections: [],
    media,
  };
}
