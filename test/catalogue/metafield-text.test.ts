/**
 * A chosen product metafield reaches the index as readable text by its type, bounded; a value
 * that fails its own type gives no attribute, never an error (issue 25, items 2 and 5).
 */
import { describe, expect, it } from "vitest";
import {
  CUT_NOTE,
  METAFIELD_CONTENT_MAX,
  METAFIELD_LIST_MAX,
  METAFIELD_TEXT_MAX,
  metafieldText,
  metafieldValueText,
  isNamedApart,
  REFERENCE_LIST_TYPES,
  referencedIdsOf,
} from "../../app/catalogue/metafield-text";
import { mapProduct } from "../../app/catalogue/map-product";
import type { IndexProduct } from "../../app/catalogue/index-types";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";

const richText = (text: string) =>
  JSON.stringify({
    type: "root",
    children: [
      { type: "heading", level: 2, children: [{ type: "text", value: "In the box" }] },
      {
        type: "paragraph",
        children: [
          { type: "text", value: "Player and " },
          { type: "text", value: text, bold: true },
        ],
      },
      {
        type: "list",
        listType: "unordered",
        children: [
          { type: "list-item", children: [{ type: "text", value: "Earphones" }] },
          { type: "list-item", children: [{ type: "text", value: "USB cable" }] },
        ],
      },
    ],
  });

describe("a metafield's value as text, by type", () => {
  it.each([
    ["single_line_text_field", "Anodised aluminium", ["Anodised aluminium"]],
    ["multi_line_text_field", "Wipe dry.\n\nKeep from heat.", ["Wipe dry. Keep from heat."]],
    ["single_line_text_field", "<b>Cotton</b> &amp; linen", ["Cotton & linen"]],
    ["rich_text_field", richText("a case"), ["In the box Player and a case Earphones; USB cable"]],
    ["number_integer", "42", ["42"]],
    ["number_decimal", "1.50", ["1.5"]],
    ["dimension", '{"value": 9.0, "unit": "cm"}', ["9 cm"]],
    ["weight", '{"value": 2.5, "unit": "KILOGRAMS"}', ["2.5 kg"]],
    ["volume", '{"value": 500, "unit": "ml"}', ["500 ml"]],
    ["boolean", "true", ["Yes"]],
    ["boolean", "false", ["No"]],
    ["rating", '{"value": "4.5", "scale_min": "1.0", "scale_max": "5.0"}', ["4.5 of 5"]],
    ["date", "2026-11-26", ["2026-11-26"]],
    ["date_time", "2026-11-26T14:30:00Z", ["2026-11-26 14:30 UTC"]],
    ["url", "https://example.com/size-guide", ["https://example.com/size-guide"]],
    ["color", "#FF0000", ["#ff0000"]],
    ["money", '{"amount": "12.50", "currency_code": "EUR"}', ["12.50 EUR"]],
    [
      "link",
      '{"text": "Size guide", "url": "https://example.com/sizes"}',
      ["Size guide (https://example.com/sizes)"],
    ],
    ["json", '{"fit": "regular", "sizes": ["S", "M"]}', ["fit: regular; sizes: S; sizes: M"]],
    ["list.single_line_text_field", '["Wi-Fi", "Multi-touch"]', ["Wi-Fi", "Multi-touch"]],
    ["list.weight", '[{"value": 1, "unit": "kg"}, {"value": 2, "unit": "lb"}]', ["1 kg", "2 lb"]],
    [
      "list.rating",
      '[{"value": "3", "scale_min": "1", "scale_max": "5"}, {"value": "9", "scale_max": "5"}]',
      ["3 of 5"],
    ],
  ])("%s %j reads %j", (type, value, expected) => {
    expect(metafieldText(type, value)).toEqual(expected);
  });

  it.each([
    ["rich_text_field", "not json"],
    ["rich_text_field", '{"type": "paragraph"}'],
    ["number_integer", "4.5"],
    ["number_decimal", "about three"],
    ["dimension", '{"value": "tall", "unit": "cm"}'],
    ["weight", '{"value": 3, "unit": "stones"}'],
    ["boolean", "yes"],
    ["rating", '{"value": "7", "scale_min": "1", "scale_max": "5"}'],
    ["rating", "4.5"],
    ["date", "26/11/2026"],
    ["date_time", "soon"],
    ["url", "javascript:alert(1)"],
    ["color", "red"],
    ["money", '{"amount": "ten"}'],
    ["list.single_line_text_field", "Wi-Fi, Bluetooth"],
    ["list.boolean", '["maybe"]'],
    ["single_line_text_field", "   "],
    ["product_reference", "gid://shopify/Product/1"],
  ])("%s %j fails its type: no text, no error", (type, value) => {
    expect(metafieldText(type, value)).toBeNull();
  });

  it("cuts a huge value with a visible note, and a long list after its first items", () => {
    const [text] = metafieldText("multi_line_text_field", "word ".repeat(50_000))!;
    expect(text!.length).toBeLessThanOrEqual(METAFIELD_TEXT_MAX);
    expect(text!.endsWith(CUT_NOTE)).toBe(true);
    const items = Array.from({ length: 100 }, (_, i) => `item ${i}`);
    const list = metafieldText("list.single_line_text_field", JSON.stringify(items))!;
    expect(list).toHaveLength(METAFIELD_LIST_MAX + 1);
    expect(list.at(-1)).toBe(CUT_NOTE);
  });
});

function product(metafields: ShopifyProduct["metafields"]): ShopifyProduct {
  return {
    id: "gid://shopify/Product/7",
    legacyResourceId: "7",
    title: "Rain jacket",
    handle: "rain-jacket",
    descriptionHtml: "<p>A light jacket.</p>",
    productType: "Jacket",
    vendor: "Acme",
    tags: [],
    status: "ACTIVE",
    onlineStoreUrl: "https://shop.example.com/products/rain-jacket",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-02T00:00:00Z",
    publishedAt: "2026-01-01T00:00:00Z",
    totalInventory: 3,
    tracksInventory: true,
    options: [{ name: "Material", values: ["Nylon"] }],
    featuredMedia: null,
    variants: [],
    collections: [],
    media: [],
    ...(metafields ? { metafields } : {}),
  };
}

const CHOSEN = [
  { namespace: "specs", key: "waterproof", name: "Waterproof", type: "boolean" },
  { namespace: "specs", key: "care", name: "Care instructions", type: "multi_line_text_field" },
  { namespace: "specs", key: "material", name: "Material", type: "single_line_text_field" },
  { namespace: "reviews", key: "rating", name: "Rating", type: "rating" },
];

function mapped(metafields: ShopifyProduct["metafields"], chosen = CHOSEN): IndexProduct {
  const result = mapProduct(product(metafields), {
    primaryDomain: "shop.example.com",
    metafields: chosen,
  });
  if (!result.indexable) throw new Error("not indexable");
  return result.item;
}

describe("chosen metafields on the product document", () => {
  const values = [
    { namespace: "specs", key: "waterproof", type: "boolean", value: "true" },
    { namespace: "specs", key: "care", type: "multi_line_text_field", value: "Hang to dry." },
    {
      namespace: "specs",
      key: "material",
      type: "single_line_text_field",
      value: "Recycled nylon",
    },
    { namespace: "reviews", key: "rating", type: "rating", value: "not a rating" },
    { namespace: "specs", key: "secret", type: "single_line_text_field", value: "Supplier X" },
  ];

  it("sends each as an attribute named by its definition, long text also in the content", () => {
    const item = mapped(values);
    expect(item.attributes).toEqual({
      Material: ["Nylon", "Recycled nylon"],
      Waterproof: ["Yes"],
      "Care instructions": ["Hang to dry."],
    });
    expect(item.content).toBe("A light jacket.\n\nCare instructions: Hang to dry.");
    // A value failing its type (the rating) and a metafield not chosen are not sent.
    expect(JSON.stringify(item)).not.toContain("Supplier X");
    expect(item.attributes).not.toHaveProperty("Rating");
  });

  it("sends nothing of a metafield no longer chosen", () => {
    const item = mapped(values, CHOSEN.slice(0, 1));
    expect(item.attributes).toEqual({ Material: ["Nylon"], Waterproof: ["Yes"] });
    expect(item.content).toBe("A light jacket.");
  });

  it("bounds a huge rich text in the content too", () => {
    const huge = richText("x".repeat(100_000));
    const item = mapped(
      [{ namespace: "specs", key: "care", type: "rich_text_field", value: huge }],
      [{ namespace: "specs", key: "care", name: "Care", type: "rich_text_field" }],
    );
    expect(item.attributes.Care![0]!.endsWith(CUT_NOTE)).toBe(true);
    expect(item.content.length).toBeLessThan(METAFIELD_CONTENT_MAX + 100);
    expect(item.content.endsWith(CUT_NOTE)).toBe(true);
  });
});

describe("a metafield referencing a metaobject entry (a size chart)", () => {
  const CHART = {
    namespace: "specs",
    key: "size_chart",
    name: "Size chart",
    type: "metaobject_reference",
  };
  const reference = {
    displayName: "Burton Custom 151 size chart",
    fields: [
      {
        key: "title",
        type: "single_line_text_field",
        value: "Burton Custom 151 size chart",
        definition: { name: "Title" },
      },
      {
        key: "board_length",
        type: "dimension",
        value: '{"value":151,"unit":"cm"}',
        definition: { name: "Board length" },
      },
      {
        key: "rider_weight",
        type: "single_line_text_field",
        value: "45–68 kg",
        definition: { name: "Rider weight" },
      },
      { key: "stiffness", type: "rating", value: "stiff", definition: { name: "Stiffness" } },
      { key: "notes", type: "multi_line_text_field", value: null, definition: { name: "Notes" } },
    ],
  };
  const metafield = (ref: typeof reference | null | undefined) => ({
    namespace: "specs",
    key: "size_chart",
    type: "metaobject_reference",
    value: "gid://shopify/Metaobject/3200000005",
    ...(ref === undefined ? {} : { reference: ref }),
  });

  it("is the entry's name and its fields' text, the field it is named by, empty ones and failing ones left out", () => {
    expect(mapped([metafield(reference)], [CHART]).attributes["Size chart"]).toEqual([
      "Burton Custom 151 size chart: Board length 151 cm; Rider weight 45–68 kg",
    ]);
  });

  it("gives nothing for a reference to a deleted entry or one not resolved, and is bounded", () => {
    expect(mapped([metafield(null)], [CHART]).attributes).not.toHaveProperty("Size chart");
    expect(mapped([metafield(undefined)], [CHART]).attributes).not.toHaveProperty("Size chart");
    const huge = {
      ...reference,
      fields: [
        {
          key: "notes",
          type: "multi_line_text_field",
          value: "wax ".repeat(5_000),
          definition: { name: "Notes" },
        },
      ],
    };
    const [text] = mapped([metafield(huge)], [CHART]).attributes["Size chart"]!;
    expect(text!.length).toBeLessThanOrEqual(METAFIELD_TEXT_MAX);
    expect(text!.endsWith(CUT_NOTE)).toBe(true);
  });
});

describe("a metafield referencing a product, variant, collection, page or file", () => {
  const text = (type: string, reference: unknown) =>
    metafieldValueText({
      namespace: "custom",
      key: "ref",
      type,
      value: "gid://shopify/X/1",
      reference: reference as never,
    });

  it("is what it names as a shopper would call it: a title, a variant after its product, a file's alt text or name", () => {
    const cases: [type: string, reference: unknown, text: string][] = [
      ["product_reference", { __typename: "Product", title: " Ski  wax " }, "Ski wax"],
      [
        "variant_reference",
        { __typename: "ProductVariant", title: "Small", product: { title: "Crème brûlée dish" } },
        "Crème brûlée dish - Small",
      ],
      [
        "variant_reference",
        { __typename: "ProductVariant", title: "Default Title", product: { title: "Teapot" } },
        "Teapot",
      ],
      ["collection_reference", { __typename: "Collection", title: "Winter" }, "Winter"],
      ["page_reference", { __typename: "Page", title: "Size guide" }, "Size guide"],
      [
        "file_reference",
        {
          __typename: "MediaImage",
          alt: "",
          image: { url: "https://cdn.shopify.com/s/files/1/care%20guide.png?v=3" },
        },
        "care guide.png",
      ],
      [
        "file_reference",
        {
          __typename: "GenericFile",
          alt: "Care guide (PDF)",
          url: "https://cdn.shopify.com/care.pdf",
        },
        "Care guide (PDF)",
      ],
      ["file_reference", { __typename: "Video", alt: null, filename: "fit.mp4" }, "fit.mp4"],
    ];
    for (const [type, reference, expected] of cases) {
      expect(text(type, reference)).toEqual([expected]);
    }
  });

  it("gives nothing for something deleted, unnamed, of a type it cannot name, or a file URL that is none, and is bounded", () => {
    expect(text("product_reference", null)).toBeNull();
    expect(text("product_reference", undefined)).toBeNull();
    expect(text("product_reference", { __typename: "Product", title: "  " })).toBeNull();
    expect(text("product_reference", { __typename: "Customer", title: "Jane" })).toBeNull();
    expect(text("file_reference", { __typename: "GenericFile", url: "not a url" })).toBeNull();
    const [long] = text("page_reference", { __typename: "Page", title: "x".repeat(5_000) })!;
    expect(long!.length).toBeLessThanOrEqual(METAFIELD_TEXT_MAX);
    expect(long!.endsWith(CUT_NOTE)).toBe(true);
  });
});

describe("a list of metaobject references (a standard category metafield)", () => {
  const PINK = "gid://shopify/Metaobject/1";
  const RED = "gid://shopify/Metaobject/2";
  const names = new Map([
    [PINK, "  Pink "],
    [RED, "Red"],
  ]);
  const text = (value: string, known: ReadonlyMap<string, string> | null = names) =>
    metafieldValueText(
      { namespace: "shopify", key: "color-pattern", type: "list.metaobject_reference", value },
      known ?? undefined,
    );

  it("is the named entries, in order, once each; an entry not named (deleted) left out", () => {
    expect(text(JSON.stringify([RED, PINK, RED, "gid://shopify/Metaobject/9"]))).toEqual([
      "Red",
      "Pink",
    ]);
  });

  it("gives nothing for a value that is no list of ids, none named, or no names read", () => {
    expect(text("not json")).toBeNull();
    expect(text(JSON.stringify({ id: PINK }))).toBeNull();
    expect(text(JSON.stringify(["gid://shopify/Metaobject/9"]))).toBeNull();
    expect(text(JSON.stringify([PINK]), null)).toBeNull();
  });

  it("keeps at most the list's bound of names, the cut visible", () => {
    const many = new Map(
      Array.from({ length: METAFIELD_LIST_MAX + 5 }, (_, i) => [
        `gid://shopify/Metaobject/${i}`,
        `Colour ${i}`,
      ]),
    );
    const value = JSON.stringify([...many.keys()]);
    const texts = text(value, many)!;
    expect(texts).toHaveLength(METAFIELD_LIST_MAX + 1);
    expect(texts.at(-1)).toBe(CUT_NOTE);
  });
});

describe("references read as ids: lists of references and a variant's references", () => {
  const TOUCH = "gid://shopify/Product/1";
  const BOARD = "gid://shopify/Product/2";
  const GONE = "gid://shopify/Product/3";
  const names = new Map([
    [TOUCH, "IPod Touch 8GB"],
    [BOARD, "Burton Custom Freestyle 151"],
    [GONE, ""],
  ]);

  it("is named for every kind a list can hold, what was deleted since left out", () => {
    for (const type of REFERENCE_LIST_TYPES) {
      const value = JSON.stringify([TOUCH, GONE, BOARD]);
      expect(metafieldValueText({ namespace: "custom", key: "k", type, value }, names)).toEqual([
        "IPod Touch 8GB",
        "Burton Custom Freestyle 151",
      ]);
    }
  });

  it("names a variant's single reference (its value alone was read) by the same names", () => {
    const metafield = { namespace: "custom", key: "k", type: "product_reference", value: BOARD };
    expect(metafieldValueText(metafield, names)).toEqual(["Burton Custom Freestyle 151"]);
    expect(metafieldValueText({ ...metafield, value: GONE }, names)).toBeNull();
    // Read with its `reference` (a product's), that is what names it, deleted or not.
    expect(metafieldValueText({ ...metafield, reference: null }, names)).toBeNull();
  });

  it("holds ids only: what is not an id of Shopify's is never asked for or named", () => {
    const list = (value: unknown) => ({
      namespace: "custom",
      key: "k",
      type: "list.product_reference",
      value: JSON.stringify(value),
    });
    expect(
      referencedIdsOf(
        list([TOUCH, 7, "https://evil.example/", null, "gid://shopify/Product/1 OR 1", BOARD]),
      ),
    ).toEqual([TOUCH, BOARD]);
    expect(referencedIdsOf(list({ id: TOUCH }))).toEqual([]);
    expect(referencedIdsOf({ ...list([]), value: "not json" })).toEqual([]);
    expect(
      referencedIdsOf({ namespace: "c", key: "k", type: "single_line_text_field", value: TOUCH }),
    ).toEqual([]);
    // A list's first METAFIELD_LIST_MAX only: the text keeps no more.
    const many = Array.from({ length: 50 }, (_, n) => `gid://shopify/Product/${n}`);
    expect(referencedIdsOf(list(many))).toEqual(many.slice(0, METAFIELD_LIST_MAX));
  });

  it("is read apart only for lists and a variant's references", () => {
    expect(isNamedApart({ type: "list.collection_reference" })).toBe(true);
    expect(isNamedApart({ type: "variant_reference", owner: "PRODUCTVARIANT" })).toBe(true);
    expect(isNamedApart({ type: "variant_reference" })).toBe(false);
    expect(isNamedApart({ type: "list.single_line_text_field" })).toBe(false);
  });
});
