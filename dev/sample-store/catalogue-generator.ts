import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type {
  ShopifyArticle,
  ShopifyCollection,
  ShopifyMedia,
  ShopifyPage,
  ShopifyProductFields,
  ShopifyProductOption,
  ShopifyVariant,
} from "../../app/catalogue/shopify-types";
import { Prng } from "./prng";
import * as words from "./vocabulary";

/**
 * Generates a shop's bulk exports (products, then pages, then articles) as Shopify's Bulk
 * Operations API writes them for the app's own queries: one JSON object per line, the fields of
 * PRODUCTS_BULK_QUERY / PAGES_BULK_QUERY / ARTICLES_BULK_QUERY in their selection order, and each
 * variant, collection and media node on its own line with `__parentId`. A few children arrive
 * late, after later products began, as Shopify may write them. Deterministic for a seed, and
 * streamed: nothing but a handful of delayed lines is kept.
 */

export interface CatalogueOptions {
  products: number;
  pages?: number;
  articles?: number;
  seed?: number | string;
  /** Share of products that get one child line written late (default 0.02). */
  lateChildRate?: number;
  /** Most products a late child may trail its parent by (default 40). */
  maxLateDistance?: number;
  /** Storefront domain in `onlineStoreUrl`. */
  domain?: string;
}

type VariantLine = ShopifyVariant & { __parentId: string };
type CollectionLine = ShopifyCollection & { __parentId: string };
type MediaLine = ShopifyMedia & { __parentId: string };

/**
 * Products 0–14 are the edge cases, so even a small catalogue has each of them; the rest are
 * drawn at random.
 */
const EDGE_CASES = [
  "many-variants",
  "rich-html",
  "cjk",
  "emoji-accents",
  "draft",
  "unpublished",
  "archived",
  "no-images",
  "zero-price",
  "on-sale",
  "backorder",
  "untracked",
  "unlisted",
  "sold-out",
  "video-only",
] as const;
type Kind = (typeof EDGE_CASES)[number] | "random";

const PRODUCT_ID_BASE = 8_000_000_000_000;
const VARIANT_ID_BASE = 44_000_000_000_000;
const MEDIA_ID_BASE = 30_000_000_000_000;
const COLLECTION_ID_BASE = 400_000_000_000;
const PAGE_ID_BASE = 100_000_000;
const ARTICLE_ID_BASE = 500_000_000;
const EPOCH = Date.UTC(2020, 0, 1);
const LATEST = Date.UTC(2026, 8, 30);

const COLLECTIONS: ShopifyCollection[] = words.COLLECTION_TITLES.map((title, index) => ({
  id: `gid://shopify/Collection/${COLLECTION_ID_BASE + index}`,
  title,
  handle: slug(title, `collection-${index}`),
}));

export interface CatalogueSummary {
  lines: number;
  products: number;
  variants: number;
  pages: number;
  articles: number;
  lateChildren: number;
}

/** Yields the JSONL lines (without line ends) of a generated catalogue. */
export function* catalogueLines(
  options: CatalogueOptions,
  summary: CatalogueSummary = emptySummary(),
): Generator<string> {
  const rng = new Prng(options.seed ?? 1);
  const domain = options.domain ?? "sample-store.example";
  const lateRate = options.lateChildRate ?? 0.02;
  const maxLate = Math.max(1, options.maxLateDistance ?? 40);
  const counters = { variant: 0, media: 0 };
  let delayed: { after: number; line: string }[] = [];

  for (let index = 0; index < options.products; index++) {
    const kind: Kind = EDGE_CASES[index] ?? "random";
    const { product, children } = makeProduct(rng, index, kind, domain, counters);
    summary.products += 1;
    summary.variants += children.filter((child) => child.id.includes("/ProductVariant/")).length;
    yield line(product);
    const lines = children.map(line);
    // Product 1 always sends a child late (as in Shopify's own example); others by chance.
    const late =
      options.products > 3 && index === 1 ? 2 : rng.chance(lateRate) ? rng.int(1, maxLate) : 0;
    if (late > 0 && lines.length > 0) {
      const which = rng.int(0, lines.length - 1);
      delayed.push({ after: index + late, line: lines.splice(which, 1)[0] as string });
      summary.lateChildren += 1;
    }
    yield* lines;
    if (delayed.length > 0) {
      const due = delayed.filter((entry) => entry.after <= index);
      delayed = delayed.filter((entry) => entry.after > index);
      for (const entry of due) yield entry.line;
    }
  }
  for (const entry of delayed) yield entry.line;

  for (let index = 0; index < (options.pages ?? 0); index++) {
    summary.pages += 1;
    yield line(makePage(rng, index));
  }
  for (let index = 0; index < (options.articles ?? 0); index++) {
    summary.articles += 1;
    yield line(makeArticle(rng, index));
  }
}

function line(value: object): string {
  return JSON.stringify(value);
}

function emptySummary(): CatalogueSummary {
  return { lines: 0, products: 0, variants: 0, pages: 0, articles: 0, lateChildren: 0 };
}

/** Writes the catalogue to `path`, respecting the stream's back-pressure. */
export async function writeCatalogue(
  options: CatalogueOptions,
  path: string,
): Promise<CatalogueSummary> {
  const summary = emptySummary();
  const out = createWriteStream(path);
  let buffer = "";
  for (const text of catalogueLines(options, summary)) {
    summary.lines += 1;
    buffer += text + "\n";
    if (buffer.length >= 256 * 1024) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "finish");
  return summary;
}

function isoDate(time: number): string {
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function slug(text: string, fallback: string): string {
  const ascii = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return ascii.length >= 3 ? ascii : fallback;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A sentence as merchants' editors write it: sometimes with named or numeric entities. */
function htmlSentence(rng: Prng): string {
  let html = escapeHtml(rng.pick(words.SENTENCES));
  if (rng.chance(0.3)) html = html.replace("'", "&#8217;");
  if (rng.chance(0.3)) html = html.replace(" °C", "&nbsp;&deg;C");
  if (rng.chance(0.2)) html = html.replace("Naïve", "Na&iuml;ve");
  return html;
}

function description(rng: Prng, kind: Kind, title: string): string {
  const parts: string[] = [];
  if (kind === "rich-html") {
    parts.push(
      "<style>.product-note{color:#c00}</style>",
      '<script>window.dataLayer=window.dataLayer||[];dataLayer.push({"event":"view"});</script>',
      `<h2>${escapeHtml(title)} &mdash; details</h2>`,
    );
    for (let i = 0; i < 40; i++) parts.push(`<p>${htmlSentence(rng)} ${htmlSentence(rng)}</p>`);
    parts.push(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560"></iframe>',
      "<table><tr><th>Size</th><th>Chest</th></tr><tr><td>M</td><td>96&nbsp;cm</td></tr></table>",
      '<p>Questions? <a href="https://sample-store.example/pages/contact">Contact us</a> &amp; we&#39;ll help.</p>',
    );
    return parts.join("\n");
  }
  if (kind === "cjk") {
    return "<p>伝統的な技法で一つ一つ丁寧に作られています。</p><p>选用优质桑蚕丝，手感柔软顺滑。每一件都经过手工检验，适合日常使用与送礼。</p>";
  }
  if (kind === "emoji-accents") {
    return "<p>Crème brûlée &amp; café au lait 🍮☕ — naïve, délicieux, très doux.</p><p>Great gift 🎁 for Zoë &amp; Chloé.</p>";
  }
  if (rng.chance(0.05)) return "";
  parts.push(`<p>${htmlSentence(rng)} ${htmlSentence(rng)}</p>`);
  if (rng.chance(0.6)) {
    const items = rng.int(2, 4);
    const lis: string[] = [];
    for (let i = 0; i < items; i++) lis.push(`<li>${htmlSentence(rng)}</li>`);
    parts.push(`<ul>${lis.join("")}</ul>`);
  }
  if (rng.chance(0.4)) parts.push(`<p><strong>Note:</strong> ${htmlSentence(rng)}</p>`);
  return parts.join("");
}

function productTitle(rng: Prng, kind: Kind): string {
  if (kind === "cjk") return "抹茶 茶碗 (手作り)";
  if (kind === "emoji-accents") return "Crème brûlée Candle 🕯️ — Édition Noël";
  if (rng.chance(0.15)) return rng.pick(words.UNICODE_TITLES);
  return `${rng.pick(words.ADJECTIVES)} ${rng.pick(words.NOUNS)}`;
}

interface OptionPlan {
  options: ShopifyProductOption[];
  combos: { name: string; value: string }[][];
}

function optionPlan(rng: Prng, kind: Kind): OptionPlan {
  if (kind === "many-variants") {
    const options = [
      { name: "Size", values: words.SIZES.slice(0, 10) },
      { name: "Color", values: words.COLORS.slice(0, 10) },
    ];
    return { options, combos: combinations(options) };
  }
  const roll = rng.next();
  if (roll < 0.4 || kind === "zero-price" || kind === "backorder" || kind === "sold-out") {
    const options = [{ name: "Title", values: ["Default Title"] }];
    return { options, combos: [[{ name: "Title", value: "Default Title" }]] };
  }
  const sizes = rng.sample(words.SIZES.slice(0, 6), rng.int(2, 5));
  const options: ShopifyProductOption[] = [{ name: "Size", values: sizes }];
  if (roll > 0.75) options.push({ name: "Color", values: rng.sample(words.COLORS, rng.int(2, 4)) });
  if (roll > 0.95) {
    options.push({ name: "Material", values: rng.sample(words.MATERIALS, 2) });
  }
  return { options, combos: combinations(options) };
}

function combinations(options: ShopifyProductOption[]): { name: string; value: string }[][] {
  let combos: { name: string; value: string }[][] = [[]];
  for (const option of options) {
    combos = combos.flatMap((combo) =>
      option.values.map((value) => [...combo, { name: option.name, value }]),
    );
  }
  return combos;
}

function makeProduct(
  rng: Prng,
  index: number,
  kind: Kind,
  domain: string,
  counters: { variant: number; media: number },
): { product: ShopifyProductFields; children: (VariantLine | CollectionLine | MediaLine)[] } {
  const id = `gid://shopify/Product/${PRODUCT_ID_BASE + index}`;
  const title = productTitle(rng, kind);
  const handle = `${slug(title, "product")}-${index + 1}`;
  const created = EPOCH + Math.floor(rng.next() * (LATEST - EPOCH) * 0.9);
  const updated = Math.min(LATEST, created + Math.floor(rng.next() * 400 * 86_400_000));

  let status: ShopifyProductFields["status"] = "ACTIVE";
  let published = true;
  const roll = rng.next();
  if (kind === "draft" || (kind === "random" && roll < 0.05)) status = "DRAFT";
  else if (kind === "archived" || (kind === "random" && roll < 0.08)) status = "ARCHIVED";
  else if (kind === "unlisted" || (kind === "random" && roll < 0.1)) status = "UNLISTED";
  else if (kind === "unpublished" || (kind === "random" && roll < 0.14)) published = false;
  if (status === "DRAFT" || status === "ARCHIVED") published = false;

  // Variants
  const plan = optionPlan(rng, kind);
  const basePrice =
    kind === "zero-price" ? 0 : rng.pick([4.99, 9.5, 12, 19.99, 24, 39.9, 59, 89, 129, 249, 499]);
  const onSale = kind === "on-sale" || (kind === "random" && rng.chance(0.2));
  const untrackedProduct = kind === "untracked" || (kind === "random" && rng.chance(0.1));
  const continuePolicy = kind === "backorder" || (kind === "random" && rng.chance(0.08));
  const variants: VariantLine[] = plan.combos.map((combo, position) => {
    counters.variant += 1;
    const step = kind === "zero-price" ? 0 : rng.chance(0.3) ? rng.int(1, 3) * 5 : 0;
    const price = basePrice + step;
    const tracked = !untrackedProduct;
    let quantity = rng.chance(0.12) ? 0 : rng.int(1, 60);
    if (kind === "backorder" || kind === "sold-out") quantity = 0;
    if (!tracked) quantity = 0;
    const policy = continuePolicy ? "CONTINUE" : "DENY";
    const skuMissing = rng.chance(0.05);
    return {
      id: `gid://shopify/ProductVariant/${VARIANT_ID_BASE + counters.variant}`,
      sku: skuMissing ? (rng.chance(0.5) ? "" : null) : `SKU-${index + 1}-${position + 1}`,
      price: price.toFixed(2),
      compareAtPrice: onSale && price > 0 ? (price * 1.25).toFixed(2) : null,
      inventoryQuantity: quantity,
      inventoryPolicy: policy,
      availableForSale: !tracked || quantity > 0 || policy === "CONTINUE",
      selectedOptions: combo,
      inventoryItem: { tracked },
      __parentId: id,
    };
  });

  // Collections
  const collections: CollectionLine[] = rng
    .sample(COLLECTIONS, rng.int(0, 3))
    .map((collection) => ({ ...collection, __parentId: id }));

  // Media
  const media: MediaLine[] = [];
  const imageCount =
    kind === "no-images" || kind === "video-only" ? 0 : rng.chance(0.08) ? 0 : rng.int(1, 5);
  const withVideo = kind === "video-only" || (imageCount > 0 && rng.chance(0.05));
  for (let i = 0; i < imageCount + (withVideo ? 1 : 0); i++) {
    counters.media += 1;
    const mediaNumber = MEDIA_ID_BASE + counters.media;
    const isVideo = withVideo && i === imageCount;
    const alt = rng.chance(0.3) ? "" : `${title} – view ${i + 1}`;
    const url = `https://cdn.shopify.com/s/files/1/0000/0001/files/${handle}-${i + 1}.jpg?v=${Math.floor(updated / 1000)}`;
    media.push({
      id: `gid://shopify/${isVideo ? "Video" : "MediaImage"}/${mediaNumber}`,
      mediaContentType: isVideo ? "VIDEO" : "IMAGE",
      alt,
      preview: { image: { url: isVideo ? url.replace(".jpg", "-poster.jpg") : url } },
      __parentId: id,
    });
  }
  const first = media[0];
  let featuredMedia: ShopifyMedia | null = null;
  if (first) {
    const { __parentId: _parent, ...node } = first;
    featuredMedia = node;
  }

  const tracked = variants.filter((variant) => variant.inventoryItem?.tracked);
  const product: ShopifyProductFields = {
    id,
    legacyResourceId: String(PRODUCT_ID_BASE + index),
    title,
    handle,
    descriptionHtml: description(rng, kind, title),
    productType: kind === "cjk" ? "Tea" : rng.pick(words.PRODUCT_TYPES),
    vendor: rng.pick(words.VENDORS),
    tags: [...rng.sample(words.TAGS, rng.int(0, 5)), ...(onSale ? ["sale"] : [])].filter(
      (tag, position, all) => all.indexOf(tag) === position,
    ),
    status,
    onlineStoreUrl: published ? `https://${domain}/products/${handle}` : null,
    createdAt: isoDate(created),
    updatedAt: isoDate(updated),
    publishedAt: published ? isoDate(created + 3_600_000) : null,
    totalInventory: variants.reduce((sum, variant) => sum + (variant.inventoryQuantity ?? 0), 0),
    tracksInventory: tracked.length > 0,
    options: plan.options,
    featuredMedia,
  };
  return { product, children: [...variants, ...collections, ...media] };
}

function makePage(rng: Prng, index: number): ShopifyPage {
  const base = words.PAGE_TITLES[index % words.PAGE_TITLES.length] as string;
  const round = Math.floor(index / words.PAGE_TITLES.length);
  const title = round === 0 ? base : `${base} ${round + 1}`;
  const sentences = [rng.pick(words.SENTENCES), rng.pick(words.SENTENCES)];
  const published = index === 1 ? false : rng.chance(0.85);
  const created = EPOCH + Math.floor(rng.next() * (LATEST - EPOCH) * 0.9);
  const updated = Math.min(LATEST, created + Math.floor(rng.next() * 200 * 86_400_000));
  return {
    id: `gid://shopify/Page/${PAGE_ID_BASE + index}`,
    title,
    handle: `${slug(title, "page")}${round === 0 ? "" : `-${round + 1}`}`,
    body: `<h1>${escapeHtml(title)}</h1>${sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join("")}`,
    bodySummary: sentences.join(" ").slice(0, 150),
    isPublished: published,
    createdAt: isoDate(created),
    updatedAt: isoDate(updated),
    publishedAt: published ? isoDate(created + 60_000) : null,
  };
}

function makeArticle(rng: Prng, index: number): ShopifyArticle {
  const base = words.ARTICLE_TITLES[index % words.ARTICLE_TITLES.length] as string;
  const round = Math.floor(index / words.ARTICLE_TITLES.length);
  const title = round === 0 ? base : `${base} (part ${round + 1})`;
  const blog = words.BLOGS[index % words.BLOGS.length] as (typeof words.BLOGS)[number];
  const published = index === 1 ? false : rng.chance(0.8);
  const created = EPOCH + Math.floor(rng.next() * (LATEST - EPOCH) * 0.9);
  const updated = Math.min(LATEST, created + Math.floor(rng.next() * 100 * 86_400_000));
  const handle = `${slug(title, "article")}-${index + 1}`;
  const paragraphs: string[] = [];
  for (let i = 0; i < rng.int(2, 6); i++) paragraphs.push(`<p>${htmlSentence(rng)}</p>`);
  return {
    id: `gid://shopify/Article/${ARTICLE_ID_BASE + index}`,
    title,
    handle,
    body: paragraphs.join("\n"),
    summary: rng.chance(0.5) ? `<p>${htmlSentence(rng)}</p>` : null,
    isPublished: published,
    createdAt: isoDate(created),
    updatedAt: isoDate(updated),
    publishedAt: published ? isoDate(created + 60_000) : null,
    tags: rng.sample(words.TAGS, rng.int(0, 3)),
    author: rng.chance(0.9) ? { name: rng.pick(words.AUTHORS) } : null,
    image: rng.chance(0.7)
      ? {
          url: `https://cdn.shopify.com/s/files/1/0000/0001/articles/${handle}.jpg`,
          altText: rng.chance(0.5) ? title : null,
        }
      : null,
    blog,
  };
}
