/**
 * The demo's sample store, as one bulk-export JSONL file: Shopify's documentation shop and a
 * generated catalogue, made presentable for a person looking at it. The raw files are test data
 * on purpose (nine "Burton Custom Freestyle 151" products priced 0.00, titles drawn from small
 * pools); the demo keeps the first product of each title, gives free variants a plausible price,
 * and points every picture at the storefront preview's local images, so cards show pictures
 * offline.
 */
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { catalogueLines, type CatalogueOptions } from "../sample-store/catalogue-generator";

type Line = Record<string, unknown>;

export interface DemoStoreOptions {
  /** Shopify's documentation shop (bulk JSONL). */
  docsShopFile: string;
  generated: CatalogueOptions;
  /** Keep every generated product, titles repeated (a bench's large store); default: one a title. */
  keepRepeatedTitles?: boolean;
  /** Where pictures are served: `<imagesBase>/<name>.svg`. */
  imagesBase: string;
  out: string;
}

const CDN = /^https:\/\/cdn\.shopify\.com\/\S*?\/([^/?#]+?)(?:\.[a-z]+)?(?:\?[^"]*)?$/i;

/** Prices for variants the raw data sells for nothing, by product type (else the default). */
const PRICE_BY_TYPE: Record<string, string> = { Snowboard: "449.00" };
const DEFAULT_PRICE = "29.00";

export async function writeDemoStore(options: DemoStoreOptions): Promise<{ products: number }> {
  const seenTitles = new Set<string>();
  const dropped = new Set<string>();
  const productTypes = new Map<string, string>();
  const kept: string[] = [];
  let productCount = 0;

  const take = (raw: string) => {
    if (raw.trim() === "") return;
    const line = JSON.parse(raw) as Line;
    const parent = typeof line.__parentId === "string" ? line.__parentId : null;
    const id = typeof line.id === "string" ? line.id : "";
    if (parent && dropped.has(parent)) return;
    if (!parent && id.startsWith("gid://shopify/Product/")) {
      const title = String(line.title ?? "")
        .trim()
        .toLowerCase();
      if (seenTitles.has(title) && !options.keepRepeatedTitles) {
        dropped.add(id);
        return;
      }
      seenTitles.add(title);
      productCount += 1;
      productTypes.set(id, String(line.productType ?? ""));
    }
    if (parent && id.startsWith("gid://shopify/ProductVariant/") && Number(line.price) === 0) {
      line.price = PRICE_BY_TYPE[productTypes.get(parent) ?? ""] ?? DEFAULT_PRICE;
    }
    kept.push(JSON.stringify(localPictures(line, options.imagesBase)));
  };

  const docs = createInterface({
    input: createReadStream(options.docsShopFile),
    crlfDelay: Infinity,
  });
  for await (const raw of docs) take(raw);
  for (const raw of catalogueLines(options.generated)) take(raw);
  await writeFile(options.out, `${kept.join("\n")}\n`);
  return { products: productCount };
}

/** Every Shopify CDN picture URL in the line, anywhere in it, pointed at the local images. */
function localPictures(value: Line, imagesBase: string): Line {
  const visit = (node: unknown): unknown => {
    if (typeof node === "string") {
      const match = CDN.exec(node);
      return match ? `${imagesBase}/${encodeURIComponent(match[1]!)}.svg` : node;
    }
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, visit(inner)]));
    }
    return node;
  };
  return visit(value) as Line;
}
