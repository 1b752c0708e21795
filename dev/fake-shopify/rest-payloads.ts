/**
 * Webhook bodies in the REST Admin shapes Shopify delivers them in (products/*: the REST Product
 * resource; shop/update and app/uninstalled: the REST Shop resource), built from the store.
 */
import { numericPart } from "./gid";
import type { Json, ProductRecord } from "./store";

export interface ShopInfo {
  id: number;
  name: string;
  email: string;
  myshopifyDomain: string;
  primaryDomain: string;
  currencyCode: string;
  createdAt: string;
  updatedAt: string;
}

function restNumber(gidOrId: unknown): number {
  return Number(numericPart(String(gidOrId)));
}

function lower(value: unknown): string | null {
  return typeof value === "string" ? value.toLowerCase() : null;
}

/** The REST Product resource, as products/create and products/update carry it. */
export function productPayload(record: ProductRecord): Json {
  const product = record.product;
  const id = restNumber(product.id);
  const options = (product.options as { name: string; values: string[] }[] | undefined) ?? [];
  const optionNames = options.map((option) => option.name);
  const variants = record.variants.map((variant, index) => {
    const selected = (variant.selectedOptions as { name: string; value: string }[]) ?? [];
    const valueOf = (position: number) => {
      const name = optionNames[position];
      return selected.find((option) => option.name === name)?.value ?? null;
    };
    const tracked = (variant.inventoryItem as { tracked?: boolean } | null)?.tracked ?? false;
    return {
      id: restNumber(variant.id),
      product_id: id,
      title: selected.map((option) => option.value).join(" / ") || "Default Title",
      price: variant.price,
      position: index + 1,
      inventory_policy: lower(variant.inventoryPolicy),
      compare_at_price: variant.compareAtPrice ?? null,
      option1: valueOf(0),
      option2: valueOf(1),
      option3: valueOf(2),
      created_at: product.createdAt,
      updated_at: product.updatedAt,
      taxable: true,
      barcode: null,
      sku: variant.sku ?? null,
      inventory_management: tracked ? "shopify" : null,
      inventory_quantity: variant.inventoryQuantity ?? 0,
      admin_graphql_api_id: variant.id,
      image_id: null,
    };
  });
  // Shopify's featured media is the one at position 1 (the fake's store keeps it where the
  // export's lines put it, a late child last).
  const featuredId = (product.featuredMedia as { id?: string } | null)?.id;
  const media = [
    ...record.media.filter((entry) => entry.id === featuredId),
    ...record.media.filter((entry) => entry.id !== featuredId),
  ];
  const images = media
    .filter((media) => media.mediaContentType === "IMAGE")
    .map((media, index) => ({
      id: restNumber(media.id),
      alt: media.alt ?? null,
      position: index + 1,
      product_id: id,
      created_at: product.createdAt,
      updated_at: product.updatedAt,
      admin_graphql_api_id: media.id,
      width: 1024,
      height: 1024,
      src: (media.preview as { image?: { url?: string } } | null)?.image?.url ?? null,
      variant_ids: [],
    }));
  return {
    admin_graphql_api_id: product.id,
    body_html: product.descriptionHtml ?? null,
    created_at: product.createdAt,
    handle: product.handle,
    id,
    product_type: product.productType ?? "",
    published_at: product.publishedAt ?? null,
    template_suffix: null,
    title: product.title,
    updated_at: product.updatedAt,
    vendor: product.vendor ?? "",
    status: lower(product.status),
    published_scope: "web",
    tags: ((product.tags as string[] | undefined) ?? []).join(", "),
    variants,
    options: options.map((option, index) => ({
      name: option.name,
      id: id * 10 + index + 1,
      product_id: id,
      position: index + 1,
      values: option.values,
    })),
    images,
    image: images[0] ?? null,
    media: media.map((media, index) => ({
      id: restNumber(media.id),
      product_id: id,
      position: index + 1,
      created_at: product.createdAt,
      updated_at: product.updatedAt,
      alt: media.alt ?? null,
      status: "READY",
      media_content_type: media.mediaContentType,
      preview_image: {
        src: (media.preview as { image?: { url?: string } } | null)?.image?.url ?? null,
        status: "READY",
      },
      admin_graphql_api_id: media.id,
    })),
    variant_gids: record.variants.map((variant) => ({
      admin_graphql_api_id: variant.id,
      updated_at: product.updatedAt,
    })),
    has_variants_that_requires_components: false,
    category: null,
  };
}

/** products/delete carries only the id. */
export function productDeletePayload(productGid: string): Json {
  return { id: restNumber(productGid) };
}

/** The REST Shop resource, as shop/update and app/uninstalled carry it. */
export function shopPayload(shop: ShopInfo): Json {
  return {
    id: shop.id,
    name: shop.name,
    email: shop.email,
    domain: shop.primaryDomain,
    province: null,
    country: "DE",
    address1: null,
    zip: null,
    city: null,
    source: null,
    phone: null,
    latitude: null,
    longitude: null,
    primary_locale: "en",
    address2: null,
    created_at: shop.createdAt,
    updated_at: shop.updatedAt,
    country_code: "DE",
    country_name: "Germany",
    currency: shop.currencyCode,
    customer_email: shop.email,
    timezone: "(GMT+00:00) UTC",
    iana_timezone: "UTC",
    shop_owner: "Fake Shop Owner",
    money_format: "{{amount}}",
    money_with_currency_format: `{{amount}} ${shop.currencyCode}`,
    weight_unit: "kg",
    plan_display_name: "Development",
    plan_name: "partner_test",
    myshopify_domain: shop.myshopifyDomain,
    password_enabled: false,
    has_storefront: true,
    enabled_presentment_currencies: [shop.currencyCode],
  };
}
