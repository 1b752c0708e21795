/**
 * The shop's catalogue in memory, in the Admin GraphQL shapes the bulk JSONL carries: a product's
 * own fields plus its variants, collections and media; pages; articles. Loaded from bulk-format
 * JSONL (files, or the sample-store generator) and changed by the control API.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { catalogueLines, type CatalogueOptions } from "../sample-store/catalogue-generator";
import { gid, gidType, toGid } from "./gid";

export type Json = Record<string, unknown>;

export type ProductStatus = "ACTIVE" | "ARCHIVED" | "DRAFT" | "UNLISTED";
export type ProductConnection = "variants" | "collections" | "media";

export interface ProductRecord {
  /** The product's own fields (a bulk product line). */
  product: Json;
  variants: Json[];
  collections: Json[];
  media: Json[];
}

/** A product as tests see it: its fields with the connections as arrays (a copy). */
export type ProductSnapshot = Json & {
  id: string;
  variants: Json[];
  collections: Json[];
  media: Json[];
};

const CHILD_CONNECTION: Readonly<Record<string, ProductConnection>> = {
  ProductVariant: "variants",
  Collection: "collections",
  MediaImage: "media",
  Video: "media",
  ExternalVideo: "media",
  Model3d: "media",
};

export interface VariantChanges {
  /** Which variant: its gid or numeric id, else its position (0-based) in `index`. */
  id?: string;
  index?: number;
  price?: string | number;
  compareAtPrice?: string | number | null;
  inventoryQuantity?: number;
  inventoryPolicy?: "CONTINUE" | "DENY";
  sku?: string | null;
  tracked?: boolean;
}

export interface CollectionInput {
  id?: string;
  title: string;
  handle?: string;
}

export interface MediaInput {
  url: string;
  alt?: string | null;
  mediaContentType?: "IMAGE" | "VIDEO";
}

export interface ProductChanges {
  title?: string;
  handle?: string;
  descriptionHtml?: string;
  productType?: string;
  vendor?: string;
  tags?: string[];
  status?: ProductStatus;
  /** Publishes to (or withdraws from) the Online Store: sets publishedAt and onlineStoreUrl. */
  published?: boolean;
  onlineStoreUrl?: string | null;
  publishedAt?: string | null;
  variants?: VariantChanges[];
  /** Replaces the product's collections. */
  collections?: CollectionInput[];
  /** Replaces the product's media (the first becomes featuredMedia). */
  media?: MediaInput[];
}

export interface NewVariant {
  price: string | number;
  compareAtPrice?: string | number | null;
  sku?: string | null;
  inventoryQuantity?: number;
  inventoryPolicy?: "CONTINUE" | "DENY";
  tracked?: boolean;
  selectedOptions?: { name: string; value: string }[];
}

export interface NewProduct {
  title: string;
  handle?: string;
  descriptionHtml?: string;
  productType?: string;
  vendor?: string;
  tags?: string[];
  status?: ProductStatus;
  /** Published to the Online Store (default true). */
  published?: boolean;
  variants?: NewVariant[];
  collections?: CollectionInput[];
  media?: MediaInput[];
}

function money(value: string | number): string {
  return typeof value === "number" ? value.toFixed(2) : value;
}

function slug(text: string): string {
  const value = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return value.length > 0 ? value : "product";
}

export class CatalogueStore {
  readonly products = new Map<string, ProductRecord>();
  readonly pages = new Map<string, Json>();
  readonly articles = new Map<string, Json>();
  /** Gids of deleted products, latest last. */
  readonly deletedProducts: string[] = [];
  #productList: ProductRecord[] | null = null;
  #nextId = 9_100_000_000_000;

  /** Adds one bulk JSONL object; a later object with the same id replaces the earlier one. */
  addLine(object: Json): void {
    const id = typeof object.id === "string" ? object.id : null;
    const type = gidType(id);
    if (!id || !type) return;
    const parentId = object.__parentId;
    if (typeof parentId === "string") {
      const parent = this.products.get(parentId);
      const connection = CHILD_CONNECTION[type];
      if (!parent || !connection) return;
      const { __parentId: _parent, ...child } = object;
      parent[connection].push(child);
      return;
    }
    if (type === "Product") {
      this.products.set(id, { product: object, variants: [], collections: [], media: [] });
      this.#productList = null;
    } else if (type === "Page") this.pages.set(id, object);
    else if (type === "Article") this.articles.set(id, object);
  }

  async loadFile(path: string): Promise<void> {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() !== "") this.addLine(JSON.parse(line) as Json);
    }
  }

  loadGenerated(options: CatalogueOptions): void {
    for (const line of catalogueLines(options)) this.addLine(JSON.parse(line) as Json);
  }

  /** Products in store order (the order they were loaded or created). */
  productList(): ProductRecord[] {
    this.#productList ??= [...this.products.values()];
    return this.#productList;
  }

  product(idOrGid: string | number): ProductRecord | undefined {
    return this.products.get(toGid("Product", idOrGid));
  }

  /** A variant, collection or media node of some product, by gid. */
  productChild(childGid: string): { record: ProductRecord; node: Json } | undefined {
    const connection = CHILD_CONNECTION[gidType(childGid) ?? ""];
    if (!connection) return undefined;
    for (const record of this.products.values()) {
      const node = record[connection].find((candidate) => candidate.id === childGid);
      if (node) return { record, node };
    }
    return undefined;
  }

  snapshot(record: ProductRecord): ProductSnapshot {
    return structuredClone({
      ...record.product,
      variants: record.variants,
      collections: record.collections,
      media: record.media,
    }) as ProductSnapshot;
  }

  #newId(): number {
    return this.#nextId++;
  }

  createProduct(input: NewProduct, context: { domain: string; now: string }): ProductRecord {
    const number = this.#newId();
    const id = gid("Product", number);
    const handle = input.handle ?? `${slug(input.title)}-${number}`;
    const published = input.published ?? true;
    const status = input.status ?? "ACTIVE";
    const record: ProductRecord = {
      product: {
        id,
        legacyResourceId: String(number),
        title: input.title,
        handle,
        descriptionHtml: input.descriptionHtml ?? "",
        productType: input.productType ?? "",
        vendor: input.vendor ?? "",
        tags: input.tags ?? [],
        status,
        onlineStoreUrl: null,
        createdAt: context.now,
        updatedAt: context.now,
        publishedAt: published ? context.now : null,
        totalInventory: 0,
        tracksInventory: false,
        options: [],
        featuredMedia: null,
      },
      variants: [],
      collections: [],
      media: [],
    };
    const variants = input.variants ?? [{ price: "0.00" }];
    record.variants = variants.map((variant) => this.#newVariant(variant));
    record.product.options = optionsOf(record.variants);
    if (input.collections) record.collections = this.#collections(input.collections);
    if (input.media) this.#setMedia(record, input.media);
    updateDerived(record, context.domain);
    this.products.set(id, record);
    this.#productList = null;
    return record;
  }

  #newVariant(input: NewVariant): Json {
    const tracked = input.tracked ?? true;
    return {
      id: gid("ProductVariant", this.#newId()),
      sku: input.sku ?? null,
      price: money(input.price),
      compareAtPrice:
        input.compareAtPrice === undefined || input.compareAtPrice === null
          ? null
          : money(input.compareAtPrice),
      inventoryQuantity: tracked ? (input.inventoryQuantity ?? 0) : 0,
      inventoryPolicy: input.inventoryPolicy ?? "DENY",
      availableForSale: false,
      selectedOptions: input.selectedOptions ?? [{ name: "Title", value: "Default Title" }],
      inventoryItem: { tracked },
    };
  }

  #collections(inputs: CollectionInput[]): Json[] {
    return inputs.map((input) => ({
      id: input.id ?? gid("Collection", this.#newId()),
      title: input.title,
      handle: input.handle ?? slug(input.title),
    }));
  }

  #setMedia(record: ProductRecord, inputs: MediaInput[]): void {
    record.media = inputs.map((input) => {
      const video = input.mediaContentType === "VIDEO";
      return {
        id: gid(video ? "Video" : "MediaImage", this.#newId()),
        mediaContentType: video ? "VIDEO" : "IMAGE",
        alt: input.alt ?? "",
        preview: { image: { url: input.url } },
      };
    });
    const first = record.media[0];
    record.product.featuredMedia = first ? structuredClone(first) : null;
  }

  /** Applies changes and bumps updatedAt. Throws for an unknown product or variant. */
  updateProduct(
    idOrGid: string | number,
    changes: ProductChanges,
    context: { domain: string; now: string },
  ): ProductRecord {
    const record = this.product(idOrGid);
    if (!record) throw new Error(`No product ${idOrGid}`);
    const product = record.product;
    for (const key of [
      "title",
      "handle",
      "descriptionHtml",
      "productType",
      "vendor",
      "tags",
      "status",
      "publishedAt",
    ] as const) {
      if (changes[key] !== undefined) product[key] = changes[key];
    }
    if (changes.handle !== undefined && typeof product.onlineStoreUrl === "string") {
      product.onlineStoreUrl = product.onlineStoreUrl.replace(
        /\/products\/[^/?#]+/,
        `/products/${changes.handle}`,
      );
    }
    if (changes.published === true) product.publishedAt ??= context.now;
    if (changes.published === false) product.publishedAt = null;
    for (const change of changes.variants ?? []) this.#changeVariant(record, change);
    if (changes.collections) record.collections = this.#collections(changes.collections);
    if (changes.media) this.#setMedia(record, changes.media);
    updateDerived(record, context.domain, changes.onlineStoreUrl);
    product.updatedAt = context.now;
    return record;
  }

  #changeVariant(record: ProductRecord, change: VariantChanges): void {
    const wanted = change.id === undefined ? undefined : toGid("ProductVariant", change.id);
    const variant =
      wanted !== undefined
        ? record.variants.find((candidate) => candidate.id === wanted)
        : record.variants[change.index ?? -1];
    if (!variant)
      throw new Error(`No variant ${change.id ?? change.index} in ${record.product.id}`);
    if (change.price !== undefined) variant.price = money(change.price);
    if (change.compareAtPrice !== undefined) {
      variant.compareAtPrice = change.compareAtPrice === null ? null : money(change.compareAtPrice);
    }
    if (change.inventoryQuantity !== undefined)
      variant.inventoryQuantity = change.inventoryQuantity;
    if (change.inventoryPolicy !== undefined) variant.inventoryPolicy = change.inventoryPolicy;
    if (change.sku !== undefined) variant.sku = change.sku;
    if (change.tracked !== undefined) variant.inventoryItem = { tracked: change.tracked };
  }

  deleteProduct(idOrGid: string | number): boolean {
    const id = toGid("Product", idOrGid);
    if (!this.products.delete(id)) return false;
    this.deletedProducts.push(id);
    this.#productList = null;
    return true;
  }

  /** The primary domain changed: storefront URLs follow it, as on Shopify. */
  replaceDomain(oldHost: string, newHost: string): void {
    const prefix = `https://${oldHost}/`;
    for (const { product } of this.products.values()) {
      const url = product.onlineStoreUrl;
      if (typeof url === "string" && url.startsWith(prefix)) {
        product.onlineStoreUrl = `https://${newHost}/${url.slice(prefix.length)}`;
      }
    }
  }
}

function optionsOf(variants: Json[]): { name: string; values: string[] }[] {
  const options = new Map<string, string[]>();
  for (const variant of variants) {
    for (const { name, value } of variant.selectedOptions as { name: string; value: string }[]) {
      const values = options.get(name) ?? [];
      if (!values.includes(value)) values.push(value);
      options.set(name, values);
    }
  }
  return [...options].map(([name, values]) => ({ name, values }));
}

/** Fields Shopify derives: availability, inventory totals, the storefront URL. */
export function updateDerived(
  record: ProductRecord,
  domain: string,
  onlineStoreUrl?: string | null,
) {
  const product = record.product;
  let total = 0;
  let tracks = false;
  for (const variant of record.variants) {
    const tracked = (variant.inventoryItem as { tracked?: boolean } | null)?.tracked ?? false;
    const quantity = typeof variant.inventoryQuantity === "number" ? variant.inventoryQuantity : 0;
    tracks ||= tracked;
    total += quantity;
    variant.availableForSale = !tracked || quantity > 0 || variant.inventoryPolicy === "CONTINUE";
  }
  product.totalInventory = total;
  product.tracksInventory = tracks;
  const visible = product.status === "ACTIVE" || product.status === "UNLISTED";
  if (onlineStoreUrl !== undefined) product.onlineStoreUrl = onlineStoreUrl;
  else if (!visible || product.publishedAt === null) product.onlineStoreUrl = null;
  else if (product.onlineStoreUrl === null || product.onlineStoreUrl === undefined) {
    product.onlineStoreUrl = `https://${domain}/products/${String(product.handle)}`;
  }
}
