import { describe, expect, it } from "vitest";
import type { IndexProduct, ProductMapResult } from "../../app/catalogue/index-types";
import { isIndexableProduct, mapProduct } from "../../app/catalogue/map-product";
import type { ShopifyProduct, ShopifyVariant } from "../../app/catalogue/shopify-types";

const SHOP = { primaryDomain: "shop.example.com" };

let variantNumber = 0;
function variant(overrides: Partial<ShopifyVariant> = {}): ShopifyVariant {
  variantNumber += 1;
  return {
    id: `gid://shopify/ProductVariant/${variantNumber}`,
    sku: `SKU-${variantNumber}`,
    price: "10.00",
    compareAtPrice: null,
    inventoryQuantity: 5,
    inventoryPolicy: "DENY",
    availableForSale: true,
    selectedOptions: [{ name: "Title", value: "Default Title" }],
    inventoryItem: { tracked: true },
    ...overrides,
  };
}

function product(overrides: Partial<ShopifyProduct> = {}): ShopifyProduct {
  return {
    id: "gid://shopify/Product/632910392",
    legacyResourceId: "632910392",
    title: "IPod Nano - 8GB",
    handle: "ipod-nano",
    descriptionHtml: "<p>It's the small iPod with one very big idea: Video.</p>",
    productType: "Cult Products",
    vendor: "Apple",
    tags: ["Emotive", "Flash Memory"],
    status: "ACTIVE",
    onlineStoreUrl: "https://shop.example.com/products/ipod-nano",
    createdAt: "2025-04-02T16:29:59Z",
    updatedAt: "2025-04-03T10:00:00Z",
    publishedAt: "2008-01-01T00:00:00Z",
    totalInventory: 5,
    tracksInventory: true,
    options: [{ name: "Title", values: ["Default Title"] }],
    featuredMedia: null,
    variants: [variant()],
    collections: [],
    media: [],
    ...overrides,
  };
}

function item(result: ProductMapResult): IndexProduct {
  if (!result.indexable) throw new Error(`not indexable: ${result.reason}`);
  return result.item;
}

function mapped(overrides: Partial<ShopifyProduct> = {}): IndexProduct {
  return item(mapProduct(product(overrides), SHOP));
}

describe("product identity and links", () => {
  it("uses the numeric part of the gid as the id and builds the URL on the primary domain", () => {
    const result = mapped({ handle: "ipod-nano" });
    expect(result.id).toBe("632910392");
    expect(result.url).toBe("https://shop.example.com/products/ipod-nano");
    expect(result.name).toBe("IPod Nano - 8GB");
    expect(result.source).toBe("shopify");
  });

  it("takes the primary domain as a URL too, and never the myshopify.com address", () => {
    const result = item(
      mapProduct(
        product({ onlineStoreUrl: "https://john.myshopify.com/products/x", handle: "x" }),
        { primaryDomain: "https://www.example.shop/" },
      ),
    );
    expect(result.url).toBe("https://www.example.shop/products/x");
  });

  it("escapes unusual characters of a handle in the URL", () => {
    expect(mapped({ handle: "thé-vert" }).url).toBe(
      "https://shop.example.com/products/th%C3%A9-vert",
    );
  });
});

describe("prices", () => {
  it("sends the lowest price of all variants", () => {
    const result = mapped({
      variants: [variant({ price: "25.00" }), variant({ price: "9.99" }), variant({ price: "12" })],
    });
    expect(result.price).toBe(9.99);
    expect(result.regular_price).toBe(9.99);
    expect(result.on_sale).toBe(false);
    expect(result).not.toHaveProperty("sale_price");
  });

  it("marks a sale when the cheapest variant has a higher compare-at price", () => {
    const result = mapped({
      variants: [
        variant({ price: "30.00", compareAtPrice: "50.00" }),
        variant({ price: "20.00", compareAtPrice: "25.00" }),
      ],
    });
    expect(result).toMatchObject({ price: 20, sale_price: 20, regular_price: 25, on_sale: true });
  });

  it("does not call it a sale when only a dearer variant is discounted", () => {
    const result = mapped({
      variants: [variant({ price: "30.00", compareAtPrice: "50.00" }), variant({ price: "20.00" })],
    });
    expect(result).toMatchObject({ price: 20, regular_price: 20, on_sale: false });
  });

  it("ignores a compare-at price that is not above the price", () => {
    const result = mapped({ variants: [variant({ price: "20.00", compareAtPrice: "20.00" })] });
    expect(result.on_sale).toBe(false);
  });

  it("keeps a zero price (a free product) as 0", () => {
    const result = mapped({ variants: [variant({ price: "0.00" })] });
    expect(result.price).toBe(0);
    expect(result.regular_price).toBe(0);
  });

  it("leaves the price out when no variant has one", () => {
    const result = mapped({ variants: [] });
    expect(result).not.toHaveProperty("price");
    expect(result.stock_status).toBe("outofstock");
  });
});

describe("stock", () => {
  it("is in stock when any variant has stock, and sums tracked quantities", () => {
    const result = mapped({
      variants: [
        variant({ inventoryQuantity: 0, availableForSale: false }),
        variant({ inventoryQuantity: 7 }),
      ],
    });
    expect(result.stock_status).toBe("instock");
    expect(result.stock_quantity).toBe(7);
  });

  it("is on backorder when tracked stock is gone but customers may keep buying", () => {
    // Shopify reports availableForSale true for such a variant.
    const result = mapped({
      variants: [
        variant({ inventoryQuantity: 0, inventoryPolicy: "CONTINUE", availableForSale: true }),
        variant({ inventoryQuantity: -2, inventoryPolicy: "DENY", availableForSale: false }),
      ],
    });
    expect(result.stock_status).toBe("onbackorder");
    expect(result.stock_quantity).toBe(0);
  });

  it("is out of stock when tracked stock is gone and overselling is denied", () => {
    const result = mapped({
      variants: [
        variant({ inventoryQuantity: 0, inventoryPolicy: "DENY", availableForSale: false }),
      ],
    });
    expect(result.stock_status).toBe("outofstock");
  });

  it("is in stock when Shopify does not track the inventory, with no quantity sent", () => {
    const result = mapped({
      tracksInventory: false,
      variants: [variant({ inventoryQuantity: 0, inventoryItem: { tracked: false } })],
    });
    expect(result.stock_status).toBe("instock");
    expect(result).not.toHaveProperty("stock_quantity");
  });

  it("falls back on availableForSale when the quantity is unknown", () => {
    expect(
      mapped({ variants: [variant({ inventoryQuantity: null, availableForSale: true })] })
        .stock_status,
    ).toBe("instock");
    expect(
      mapped({ variants: [variant({ inventoryQuantity: null, availableForSale: false })] })
        .stock_status,
    ).toBe("outofstock");
  });
});

describe("descriptive fields", () => {
  it("turns the description into plain text with an excerpt", () => {
    const long = "Lorem ipsum dolor sit amet. ".repeat(20);
    const result = mapped({
      descriptionHtml: `<style>p{}</style><p>Caf&eacute; &amp; cr&egrave;me</p><script>x()</script><p>${long}</p>`,
    });
    expect(result.content.startsWith("Café & crème Lorem ipsum")).toBe(true);
    expect(result.content).not.toMatch(/<|x\(\)|p\{\}/);
    expect(result.excerpt.length).toBeLessThanOrEqual(160);
    expect(result.excerpt.endsWith("…")).toBe(true);
  });

  it("categorises by product type and collections, without blanks or repeats", () => {
    const result = mapped({
      productType: "Cult Products",
      collections: [
        { id: "gid://shopify/Collection/1", title: "IPods", handle: "ipods" },
        { id: "gid://shopify/Collection/2", title: "cult products", handle: "cult" },
        { id: "gid://shopify/Collection/3", title: "  ", handle: "blank" },
        { id: "gid://shopify/Collection/4", title: "Smart iPods", handle: "smart" },
      ],
    });
    expect(result.categories).toEqual(["Cult Products", "IPods", "Smart iPods"]);
    expect(result.type).toBe("Cult Products");
  });

  it("has no type and only collections as categories when the product type is empty", () => {
    const result = mapped({
      productType: "",
      collections: [{ id: "gid://shopify/Collection/1", title: "Sale", handle: "sale" }],
    });
    expect(result.categories).toEqual(["Sale"]);
    expect(result).not.toHaveProperty("type");
  });

  it("lists options as attributes, but not the default 'Title' of single-variant products", () => {
    expect(mapped().attributes).toEqual({});
    const result = mapped({
      options: [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Rouge", "Bleu ciel"] },
      ],
    });
    expect(result.attributes).toEqual({ Size: ["S", "M"], Colour: ["Rouge", "Bleu ciel"] });
  });

  it("sends the vendor as the brand, the tags, and the first SKU a variant has", () => {
    const result = mapped({
      vendor: "Apple",
      tags: ["Music", " ", "MP3"],
      variants: [
        variant({ sku: "" }),
        variant({ sku: null }),
        variant({ sku: "IPOD-RED" }),
        variant({ sku: "IPOD-BLUE" }),
      ],
    });
    expect(result.brands).toEqual(["Apple"]);
    expect(result.tags).toEqual(["Music", "MP3"]);
    expect(result.sku).toBe("IPOD-RED");
  });

  it("leaves the SKU and brand out when there are none", () => {
    const result = mapped({ vendor: "", variants: [variant({ sku: null })] });
    expect(result).not.toHaveProperty("sku");
    expect(result.brands).toEqual([]);
  });

  it("uses the featured image, else the first image, else a video's poster, else none", () => {
    const image = (id: number, url: string, type = "IMAGE") => ({
      id: `gid://shopify/${type === "IMAGE" ? "MediaImage" : "Video"}/${id}`,
      mediaContentType: type,
      alt: null,
      preview: { image: { url } },
    });
    expect(
      mapped({
        featuredMedia: image(1, "https://cdn/f.jpg"),
        media: [image(2, "https://cdn/a.jpg")],
      }).image,
    ).toBe("https://cdn/f.jpg");
    expect(
      mapped({
        media: [image(3, "https://cdn/poster.jpg", "VIDEO"), image(2, "https://cdn/a.jpg")],
      }).image,
    ).toBe("https://cdn/a.jpg");
    expect(mapped({ media: [image(3, "https://cdn/poster.jpg", "VIDEO")] }).image).toBe(
      "https://cdn/poster.jpg",
    );
    expect(mapped({ media: [] })).not.toHaveProperty("image");
  });

  it("passes Shopify's dates through", () => {
    const result = mapped();
    expect(result.created_at).toBe("2025-04-02T16:29:59Z");
    expect(result.updated_at).toBe("2025-04-03T10:00:00Z");
  });
});

describe("which products may be indexed", () => {
  it.each([
    ["DRAFT", "https://shop.example.com/products/x", "draft"],
    ["ARCHIVED", null, "archived"],
    ["UNLISTED", "https://shop.example.com/products/x", "unlisted"],
    ["ACTIVE", null, "unpublished"],
  ] as const)(
    "a %s product with onlineStoreUrl %s is not indexable (%s)",
    (status, url, reason) => {
      const input = product({ status, onlineStoreUrl: url });
      expect(isIndexableProduct(input)).toBe(false);
      expect(mapProduct(input, SHOP)).toEqual({
        kind: "product",
        id: "632910392",
        indexable: false,
        reason,
      });
    },
  );

  it("an active product on the Online Store is indexable", () => {
    const input = product();
    expect(isIndexableProduct(input)).toBe(true);
    expect(mapProduct(input, SHOP)).toMatchObject({
      kind: "product",
      id: "632910392",
      indexable: true,
    });
  });
});

describe("variants for the storefront's cart", () => {
  it("sends each variant's numeric id, title, price and whether it can be bought", () => {
    const result = mapped({
      variants: [
        variant({
          id: "gid://shopify/ProductVariant/808950810",
          price: "19.50",
          selectedOptions: [
            { name: "Colour", value: "Pink" },
            { name: "Size", value: "M" },
          ],
        }),
        variant({
          id: "gid://shopify/ProductVariant/808950811",
          price: "21.00",
          inventoryQuantity: 0,
          selectedOptions: [
            { name: "Colour", value: "Red" },
            { name: "Size", value: "M" },
          ],
        }),
      ],
    });
    expect(result.variants).toEqual([
      { id: "808950810", title: "Pink / M", price: 19.5, available: true },
      { id: "808950811", title: "Red / M", price: 21, available: false },
    ]);
    // Nothing but what the product page shows: no SKU, stock count or policy per variant.
    expect(Object.keys(result.variants![0]!).sort()).toEqual(["available", "id", "price", "title"]);
  });

  it("leaves the title of a single default variant empty", () => {
    expect(mapped().variants).toEqual([
      { id: expect.stringMatching(/^\d+$/), title: "", price: 10, available: true },
    ]);
  });
});
