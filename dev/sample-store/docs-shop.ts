import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlToPlainText } from "../../app/catalogue/html-text";
import type {
  ShopifyArticle,
  ShopifyCollection,
  ShopifyMedia,
  ShopifyPage,
  ShopifyProductFields,
  ShopifyVariant,
} from "../../app/catalogue/shopify-types";

/**
 * Converts Shopify's documentation test shop ("John Smith Test Store", the REST Admin fixtures of
 * Shopify's JS library tests) into the bulk-export JSONL of the app's own queries, so the demo and
 * tests run on a real shop's data.
 *
 * The fixtures are independent mock responses, not one consistent history, so each object is
 * taken from the first GET response that lists it (else the first POST that created it); PUT and
 * DELETE responses (edits made by single tests) are left out. REST → GraphQL: `status` upper-cased;
 * `published_at` null → `onlineStoreUrl` null (not on the Online Store) and, for pages and
 * articles, `isPublished` false; `inventory_management: "shopify"` → `inventoryItem.tracked`;
 * `option1..3` → `selectedOptions`; `tags` split on commas; dates in UTC; `image`/`images` →
 * `featuredMedia`/`media` (MediaImage); collects and collection product lists → `collections`.
 * Several tests created products, pages and articles with the same handle; Shopify would have
 * made those unique, so repeats get "-1", "-2", … as Shopify does.
 */

interface FixtureEntry {
  test: string;
  request: { method: string; path: string; query: string };
  response: Record<string, unknown>;
}

interface RestVariant {
  id: number;
  price: string;
  compare_at_price: string | null;
  sku: string | null;
  inventory_policy: string;
  inventory_management: string | null;
  inventory_quantity: number;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  admin_graphql_api_id: string;
}

interface RestImage {
  alt: string | null;
  src: string;
  admin_graphql_api_id: string;
}

interface RestProduct {
  id: number;
  title: string;
  body_html: string | null;
  vendor: string;
  product_type: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  handle: string;
  tags: string;
  status: string;
  admin_graphql_api_id: string;
  variants?: RestVariant[];
  options?: { name: string; values: string[] }[];
  images?: RestImage[];
  image?: RestImage | null;
}

interface RestCollection {
  id: number;
  handle: string;
  title: string;
  admin_graphql_api_id: string;
}

interface RestPage {
  id: number;
  title: string;
  handle: string;
  body_html: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  admin_graphql_api_id: string;
}

interface RestBlog {
  id: number;
  title: string;
  handle: string;
  admin_graphql_api_id: string;
}

interface RestArticle {
  id: number;
  title: string;
  handle: string;
  body_html: string | null;
  summary_html: string | null;
  blog_id: number;
  author: string | null;
  tags: string;
  created_at: string;
  updated_at: string | null;
  published_at: string | null;
  image?: { alt: string | null; src: string } | null;
  admin_graphql_api_id: string;
}

export type DocsShopFixtures = Record<
  | "product"
  | "custom_collection"
  | "smart_collection"
  | "collection"
  | "collect"
  | "page"
  | "blog"
  | "article"
  | "shop",
  FixtureEntry[]
>;

export function loadDocsShopFixtures(directory: string): DocsShopFixtures {
  const read = (name: string) =>
    JSON.parse(readFileSync(join(directory, `${name}.json`), "utf8")) as FixtureEntry[];
  return {
    product: read("product"),
    custom_collection: read("custom_collection"),
    smart_collection: read("smart_collection"),
    collection: read("collection"),
    collect: read("collect"),
    page: read("page"),
    blog: read("blog"),
    article: read("article"),
    shop: read("shop"),
  };
}

/** Objects under `singular` / `plural` keys of GET responses first, then of POST responses. */
function canonical<T extends { id: number }>(
  entries: FixtureEntry[],
  singular: string,
  plural: string,
  accept: (value: T) => boolean = () => true,
): T[] {
  const byId = new Map<number, T>();
  for (const method of ["GET", "POST"]) {
    for (const entry of entries) {
      if (entry.request.method !== method) continue;
      const one = entry.response[singular] as T | undefined;
      const many = (entry.response[plural] as T[] | undefined) ?? (one ? [one] : []);
      for (const value of many) {
        if (typeof value?.id === "number" && !byId.has(value.id) && accept(value)) {
          byId.set(value.id, value);
        }
      }
    }
  }
  return [...byId.values()];
}

function utc(date: string): string;
function utc(date: string | null): string | null;
function utc(date: string | null): string | null {
  return date === null ? null : new Date(date).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function splitTags(tags: string | null | undefined): string[] {
  return (tags ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

/** Shopify's way with a taken handle: append -1, -2, … */
function uniqueHandles(): (handle: string) => string {
  const seen = new Map<string, number>();
  return (handle) => {
    const count = seen.get(handle) ?? 0;
    seen.set(handle, count + 1);
    return count === 0 ? handle : `${handle}-${count}`;
  };
}

function media(image: RestImage): ShopifyMedia {
  return {
    id: image.admin_graphql_api_id,
    mediaContentType: "IMAGE",
    alt: image.alt,
    preview: { image: { url: image.src } },
  };
}

/** The JSONL lines (without line ends): products with their children, then pages, then articles. */
export function docsShopLines(fixtures: DocsShopFixtures): string[] {
  const shop = canonical<{ id: number; domain: string }>(fixtures.shop, "shop", "shops")[0];
  const domain = shop?.domain ?? "shop.apple.com";
  const lines: string[] = [];

  const collections = new Map<number, ShopifyCollection>();
  for (const collection of [
    ...canonical<RestCollection>(
      fixtures.custom_collection,
      "custom_collection",
      "custom_collections",
    ),
    ...canonical<RestCollection>(
      fixtures.smart_collection,
      "smart_collection",
      "smart_collections",
    ),
    ...canonical<RestCollection>(fixtures.collection, "collection", "collections"),
  ]) {
    if (collections.has(collection.id)) continue;
    collections.set(collection.id, {
      id: collection.admin_graphql_api_id,
      title: collection.title,
      handle: collection.handle,
    });
  }
  const membership = new Map<number, Set<number>>();
  const addMember = (productId: number, collectionId: number) => {
    const set = membership.get(productId) ?? new Set<number>();
    set.add(collectionId);
    membership.set(productId, set);
  };
  for (const collect of canonical<{ id: number; product_id: number; collection_id: number }>(
    fixtures.collect,
    "collect",
    "collects",
  )) {
    addMember(collect.product_id, collect.collection_id);
  }
  for (const entry of fixtures.collection) {
    const match = /\/collections\/(\d+)\/products\.json$/.exec(entry.request.path);
    const products = entry.response.products as { id: number }[] | undefined;
    if (entry.request.method === "GET" && match && products) {
      for (const product of products) addMember(product.id, Number(match[1]));
    }
  }

  const productHandle = uniqueHandles();
  const products = canonical<RestProduct>(
    fixtures.product,
    "product",
    "products",
    (product) => Array.isArray(product.variants) && product.variants.length > 0,
  );
  for (const product of products) {
    const id = product.admin_graphql_api_id;
    const handle = productHandle(product.handle);
    const status = product.status.toUpperCase() as ShopifyProductFields["status"];
    const onlineStore = status === "ACTIVE" && product.published_at !== null;
    const variants = product.variants ?? [];
    const options = product.options ?? [];
    const fields: ShopifyProductFields = {
      id,
      legacyResourceId: String(product.id),
      title: product.title,
      handle,
      descriptionHtml: product.body_html ?? "",
      productType: product.product_type ?? "",
      vendor: product.vendor,
      tags: splitTags(product.tags),
      status,
      onlineStoreUrl: onlineStore ? `https://${domain}/products/${handle}` : null,
      createdAt: utc(product.created_at),
      updatedAt: utc(product.updated_at),
      publishedAt: utc(product.published_at),
      totalInventory: variants.reduce((sum, variant) => sum + variant.inventory_quantity, 0),
      tracksInventory: variants.some((variant) => variant.inventory_management === "shopify"),
      options: options.map((option) => ({ name: option.name, values: option.values })),
      featuredMedia: product.image ? media(product.image) : null,
    };
    lines.push(JSON.stringify(fields));
    for (const variant of variants) {
      const tracked = variant.inventory_management === "shopify";
      const policy = variant.inventory_policy.toUpperCase() as ShopifyVariant["inventoryPolicy"];
      const values = [variant.option1, variant.option2, variant.option3];
      const line: ShopifyVariant & { __parentId: string } = {
        id: variant.admin_graphql_api_id,
        sku: variant.sku,
        price: variant.price,
        compareAtPrice: variant.compare_at_price,
        inventoryQuantity: variant.inventory_quantity,
        inventoryPolicy: policy,
        availableForSale: !tracked || variant.inventory_quantity > 0 || policy === "CONTINUE",
        selectedOptions: options.flatMap((option, index) => {
          const value = values[index];
          return value === null || value === undefined ? [] : [{ name: option.name, value }];
        }),
        inventoryItem: { tracked },
        __parentId: id,
      };
      lines.push(JSON.stringify(line));
    }
    for (const collectionId of membership.get(product.id) ?? []) {
      const collection = collections.get(collectionId);
      if (collection) lines.push(JSON.stringify({ ...collection, __parentId: id }));
    }
    for (const image of product.images ?? []) {
      lines.push(JSON.stringify({ ...media(image), __parentId: id }));
    }
  }

  const pageHandle = uniqueHandles();
  for (const page of canonical<RestPage>(fixtures.page, "page", "pages")) {
    const body = page.body_html ?? "";
    const value: ShopifyPage = {
      id: page.admin_graphql_api_id,
      title: page.title,
      handle: pageHandle(page.handle),
      body,
      bodySummary: htmlToPlainText(body).slice(0, 150),
      isPublished: page.published_at !== null,
      createdAt: utc(page.created_at),
      updatedAt: utc(page.updated_at),
      publishedAt: utc(page.published_at),
    };
    lines.push(JSON.stringify(value));
  }

  const blogs = new Map(
    canonical<RestBlog>(fixtures.blog, "blog", "blogs").map((blog) => [blog.id, blog] as const),
  );
  const articleHandle = uniqueHandles();
  for (const article of canonical<RestArticle>(fixtures.article, "article", "articles")) {
    const blog = blogs.get(article.blog_id);
    const value: ShopifyArticle = {
      id: article.admin_graphql_api_id,
      title: article.title,
      handle: articleHandle(article.handle),
      body: article.body_html ?? "",
      summary: article.summary_html,
      isPublished: article.published_at !== null,
      createdAt: utc(article.created_at),
      updatedAt: utc(article.updated_at),
      publishedAt: utc(article.published_at),
      tags: splitTags(article.tags),
      author: article.author ? { name: article.author } : null,
      image: article.image ? { url: article.image.src, altText: article.image.alt } : null,
      blog: {
        id: blog?.admin_graphql_api_id ?? `gid://shopify/Blog/${article.blog_id}`,
        handle: blog?.handle ?? "news",
        title: blog?.title ?? "News",
      },
    };
    lines.push(JSON.stringify(value));
  }
  return lines;
}
