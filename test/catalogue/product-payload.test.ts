/**
 * products/update payloads cut to the subscription's include_fields: the app still gets every
 * field it reads (the fingerprint of the cut payload is the whole payload's), an order (stock
 * only) is told from an edit, and the bytes per delivery before and after, on Shopify's own
 * sample product (test/fixtures/shopify/rest-admin/product.json, test_15: a PUT of product
 * 632910392 answered with the whole REST Product; provenance in test/fixtures/shopify/PROVENANCE.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "@iarna/toml";
import { describe, expect, it } from "vitest";
import {
  documentFingerprint,
  mapProduct,
  payloadFingerprint,
  PRODUCT_WEBHOOK_FIELDS,
  type ShopifyProduct,
} from "../../app/catalogue";
import { productChangeOf } from "../../app/sync/live/intake.server";
import { applyIncludeFields, DEFAULT_INCLUDE_FIELDS } from "../../dev/fake-shopify/webhooks";

const ROOT = join(import.meta.dirname, "..", "..");
const toml = parse(readFileSync(join(ROOT, "shopify.app.toml"), "utf8")) as unknown as {
  webhooks: { subscriptions: { topics?: string[]; include_fields?: string[] }[] };
};
const fixture = JSON.parse(
  readFileSync(join(ROOT, "test/fixtures/shopify/rest-admin/product.json"), "utf8"),
) as { test: string; response: { product?: Record<string, unknown> } }[];
const sample = fixture.find((entry) => entry.test === "test_15")!.response.product!;

const productFields = () =>
  toml.webhooks.subscriptions.find((s) => s.topics?.includes("products/update"))?.include_fields;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const productIntakeSignal = (payload: unknown) =>
  productChangeOf({ topic: "products/update", payload, receivedAt: new Date(0) });

describe("products/update include_fields", () => {
  it("subscribes with the fields the app reads, and the fake Shopify cuts payloads to the same", () => {
    expect(productFields()).toEqual([...PRODUCT_WEBHOOK_FIELDS]);
    expect(DEFAULT_INCLUDE_FIELDS["products/update"]).toEqual([...PRODUCT_WEBHOOK_FIELDS]);
    expect(DEFAULT_INCLUDE_FIELDS["products/create"]).toEqual([...PRODUCT_WEBHOOK_FIELDS]);
  });

  it("a cut payload tells the app all it reads: the same id, time and fingerprint as the whole one", () => {
    const cut = applyIncludeFields(sample, productFields()!) as Record<string, unknown>;
    const before = bytes(sample);
    const after = bytes(cut);
    console.log(
      `products/update, Shopify's sample product 632910392: ${before} bytes whole, ${after} with include_fields`,
    );
    expect(after).toBeLessThan(before / 3);
    expect(payloadFingerprint(cut)).not.toBeNull();
    expect(payloadFingerprint(cut)).toBe(payloadFingerprint(sample));
    expect(productIntakeSignal(cut)).toEqual(productIntakeSignal(sample));
  });

  it("an order (stock and time only) keeps the fingerprint; an edit of an indexed field changes it", () => {
    const cut = applyIncludeFields(sample, productFields()!) as Record<string, unknown>;
    const variants = sample.variants as Record<string, unknown>[];
    const ordered = {
      ...sample,
      updated_at: "2025-04-02T12:00:00-05:00",
      variants: variants.map((v) => ({ ...v, inventory_quantity: 0, old_inventory_quantity: 10 })),
    };
    expect(payloadFingerprint(applyIncludeFields(ordered, productFields()!))).toBe(
      payloadFingerprint(cut),
    );
    const edits: Record<string, unknown>[] = [
      { ...sample, title: "IPod Nano - 16GB" },
      { ...sample, body_html: "<p>New text</p>" },
      { ...sample, tags: "Emotive, MP3" },
      { ...sample, handle: "ipod-nano-2" },
      { ...sample, vendor: "Apple Inc." },
      { ...sample, variants: variants.map((v, i) => (i === 0 ? { ...v, price: "1.00" } : v)) },
      { ...sample, variants: variants.slice(1) },
      { ...sample, image: { src: "https://cdn.example.com/other.jpg" } },
    ];
    for (const edit of edits) {
      expect(payloadFingerprint(applyIncludeFields(edit, productFields()!))).not.toBe(
        payloadFingerprint(cut),
      );
    }
    // Taken off the Online Store, archived: no fingerprint, the product is re-read whole.
    expect(payloadFingerprint({ ...cut, published_at: null })).toBeNull();
    expect(payloadFingerprint({ ...cut, status: "archived" })).toBeNull();
    expect(payloadFingerprint({ id: 632910392 })).toBeNull();
    expect(payloadFingerprint("not an object")).toBeNull();
  });

  it("the fingerprint of a document mapped from the same product is the payload's", () => {
    const variants = sample.variants as Record<string, unknown>[];
    const options = sample.options as { name: string; values: string[] }[];
    const image = sample.image as { src: string };
    const product: ShopifyProduct = {
      id: "gid://shopify/Product/632910392",
      legacyResourceId: "632910392",
      title: sample.title as string,
      handle: sample.handle as string,
      descriptionHtml: sample.body_html as string,
      productType: sample.product_type as string,
      vendor: sample.vendor as string,
      tags: (sample.tags as string).split(", "),
      status: "ACTIVE",
      onlineStoreUrl: "https://shop.example.com/products/ipod-nano",
      createdAt: sample.created_at as string,
      updatedAt: sample.updated_at as string,
      publishedAt: sample.published_at as string,
      totalInventory: 10,
      tracksInventory: true,
      options: options.map(({ name, values }) => ({ name, values })),
      featuredMedia: {
        id: "gid://shopify/MediaImage/1",
        mediaContentType: "IMAGE",
        alt: null,
        preview: { image: { url: image.src } },
      },
      variants: variants.map((v) => ({
        id: `gid://shopify/ProductVariant/${String(v.id)}`,
        sku: v.sku as string,
        price: v.price as string,
        compareAtPrice: (v.compare_at_price as string | null) ?? null,
        inventoryQuantity: v.inventory_quantity as number,
        inventoryPolicy: "DENY",
        availableForSale: true,
        selectedOptions: [{ name: options[0]!.name, value: v.option1 as string }],
        inventoryItem: { tracked: true },
      })),
      collections: [{ id: "gid://shopify/Collection/1", title: "Home page", handle: "frontpage" }],
      media: [],
    };
    const mapped = mapProduct(product, { primaryDomain: "shop.example.com" });
    if (!mapped.indexable) throw new Error("the sample is indexable");
    const cut = applyIncludeFields(sample, productFields()!);
    expect(documentFingerprint(mapped.item)).toBe(payloadFingerprint(cut));

    // A video first among the media: the document's image is its poster, and so is the
    // payload's (its `media`, as Shopify's products/* payloads carry them), though `image` is the
    // first photo. Before, such a product's every order was re-read whole.
    const poster = "https://cdn.example.com/files/clip-poster.jpg";
    const video = {
      id: "gid://shopify/Video/7",
      mediaContentType: "VIDEO",
      alt: null,
      preview: { image: { url: poster } },
    };
    const photo = { ...product.featuredMedia!, id: "gid://shopify/MediaImage/1" };
    const withVideo = mapProduct(
      { ...product, featuredMedia: video, media: [video, photo] },
      { primaryDomain: "shop.example.com" },
    );
    if (!withVideo.indexable) throw new Error("the sample is indexable");
    const media = (first: string, second: string) => [
      { position: 2, media_content_type: "IMAGE", preview_image: { src: second }, alt: null },
      { position: 1, media_content_type: "VIDEO", preview_image: { src: first }, alt: null },
    ];
    const payload = { ...sample, media: media(poster, image.src) };
    expect(payloadFingerprint(applyIncludeFields(payload, productFields()!))).toBe(
      documentFingerprint(withVideo.item),
    );
    // Another poster is another document.
    expect(
      payloadFingerprint(
        applyIncludeFields(
          { ...payload, media: media("https://cdn.example.com/other.jpg", image.src) },
          productFields()!,
        ),
      ),
    ).not.toBe(documentFingerprint(withVideo.item));
  });
});
