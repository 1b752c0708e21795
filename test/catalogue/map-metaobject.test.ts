import { describe, expect, it } from "vitest";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import {
  mapMetaobject,
  METAOBJECT_CUT_NOTE,
  METAOBJECT_TEXT_LIMIT,
} from "../../app/catalogue/map-metaobject";
import type { ShopifyMetaobject, ShopifyMetaobjectField } from "../../app/catalogue/shopify-types";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";

const SHOP = { primaryDomain: "shop.example.com" };

function field(
  key: string,
  name: string,
  type: string,
  value: string | null,
): ShopifyMetaobjectField {
  return { key, type, value, definition: { name } };
}

// Shaped as METAOBJECTS_QUERY answers in Admin API 2026-10 (Metaobject: displayName String!,
// fields [MetaobjectField!]! with every field of the definition, value String (null when empty),
// capabilities.publishable null when the definition is not publishable).
function entry(overrides: Partial<ShopifyMetaobject> = {}): ShopifyMetaobject {
  return {
    id: "gid://shopify/Metaobject/3200000001",
    handle: "can-i-return-a-sale-item",
    type: "faq",
    displayName: "Can I return a sale item?",
    updatedAt: "2026-11-20T10:00:00Z",
    capabilities: { publishable: { status: "ACTIVE" } },
    definition: {
      name: "FAQ",
      capabilities: { onlineStore: { enabled: true, data: { urlHandle: "faq" } } },
    },
    fields: [
      field("question", "Question", "single_line_text_field", "Can I return a sale item?"),
      field("answer", "Answer", "multi_line_text_field", "Yes, within 14 days\nfor store credit."),
    ],
    ...overrides,
  };
}

const NO_PAGES = { name: "Size chart", capabilities: { onlineStore: null } };

describe("a metaobject entry in the index", () => {
  it("is a page post titled by its display name, its fields as named text, at its online store page", () => {
    expect(mapCatalogueItem({ type: "Metaobject", value: entry() }, SHOP)).toEqual({
      kind: "post",
      id: "metaobject-3200000001",
      indexable: true,
      item: {
        id: "metaobject-3200000001",
        title: "Can I return a sale item?",
        content:
          "Question: Can I return a sale item?\nAnswer: Yes, within 14 days for store credit.",
        excerpt:
          "Question: Can I return a sale item? Answer: Yes, within 14 days for store credit.",
        url: "https://shop.example.com/pages/faq/can-i-return-a-sale-item",
        post_type: "page",
        status: "published",
        tags: [],
        categories: ["FAQ"],
        updated_at: "2026-11-20T10:00:00Z",
        source: "shopify",
      },
    });
  });

  it("has no URL when its definition gives entries no online store page, and values read by type", () => {
    const result = mapMetaobject(
      entry({
        handle: "burton-custom-151",
        displayName: "Burton Custom 151 size chart",
        definition: NO_PAGES,
        capabilities: null,
        fields: [
          field("board_length", "Board length", "dimension", '{"value":151,"unit":"cm"}'),
          field("waterproof", "Waterproof", "boolean", "true"),
          field("sizes", "Sizes", "list.single_line_text_field", '["S","M","L"]'),
          field(
            "care",
            "Care",
            "rich_text_field",
            JSON.stringify({
              type: "root",
              children: [
                { type: "paragraph", children: [{ type: "text", value: "Wax monthly." }] },
              ],
            }),
          ),
        ],
      }),
      SHOP,
    );
    expect(result.indexable).toBe(true);
    if (!result.indexable) return;
    expect(result.item).not.toHaveProperty("url");
    expect(result.item.categories).toEqual(["Size chart"]);
    expect(result.item.content).toBe(
      "Board length: 151 cm\nWaterproof: Yes\nSizes: S; M; L\nCare: Wax monthly.",
    );
  });

  it("reduces HTML in a text field to its words, never passing markup on", () => {
    const result = mapMetaobject(
      entry({
        fields: [
          field(
            "answer",
            "Answer",
            "multi_line_text_field",
            "<p>Yes <script>alert(1)</script><b>within 14 days</b></p>",
          ),
        ],
      }),
      SHOP,
    );
    expect(result.indexable && result.item.content).toBe("Answer: Yes within 14 days");
  });

  it("an oversized entry is cut with a visible note and never exceeds the bound", () => {
    const huge = "Clause 7: liability is limited. ".repeat(4_000);
    const result = mapMetaobject(
      entry({
        fields: Array.from({ length: 6 }, (_, i) =>
          field(`part_${i}`, `Part ${i}`, "multi_line_text_field", huge),
        ),
      }),
      SHOP,
    );
    expect(result.indexable).toBe(true);
    if (!result.indexable) return;
    expect(result.item.content.length).toBeLessThanOrEqual(METAOBJECT_TEXT_LIMIT);
    expect(result.item.content.endsWith(METAOBJECT_CUT_NOTE)).toBe(true);
    expect(result.item.content).toMatch(/^Part 0: Clause 7: liability is limited\./);
    // Each value is bounded on its own first (a field's long text, with its own cut).
    expect(result.item.content).toContain("…(cut)\nPart 1: Clause 7");
  });

  it("an entry with no value in any field, or only blank ones, is not indexable", () => {
    for (const fields of [
      [],
      [field("question", "Question", "single_line_text_field", null)],
      [field("question", "Question", "single_line_text_field", "   ")],
      [field("answer", "Answer", "multi_line_text_field", "<p> </p>")],
    ]) {
      expect(mapMetaobject(entry({ fields }), SHOP)).toEqual({
        kind: "post",
        id: "metaobject-3200000001",
        indexable: false,
        reason: "empty",
      });
    }
  });

  it("a field whose value fails its type is left out; an entry of only such fields is not indexable", () => {
    const failing = [
      field("waterproof", "Waterproof", "boolean", "yes"),
      field("rating", "Rating", "rating", '{"value":"9","scale_min":"1","scale_max":"5"}'),
      field("guide", "Guide", "url", "javascript:alert(1)"),
      field("specs", "Specs", "json", "{not json"),
      field("length", "Length", "dimension", '{"value":"long"}'),
    ];
    expect(mapMetaobject(entry({ fields: failing }), SHOP)).toMatchObject({
      indexable: false,
      reason: "empty",
    });
    const mixed = mapMetaobject(
      entry({
        fields: [...failing, field("question", "Question", "single_line_text_field", "Why?")],
      }),
      SHOP,
    );
    expect(mixed.indexable && mixed.item.content).toBe("Question: Why?");
  });

  it("a draft entry is not published: not indexable", () => {
    expect(
      mapMetaobject(entry({ capabilities: { publishable: { status: "DRAFT" } } }), SHOP),
    ).toMatchObject({ indexable: false, reason: "unpublished" });
  });

  it("without a display name it is titled by its handle; a field without a name by its key", () => {
    const result = mapMetaobject(
      entry({
        displayName: " ",
        fields: [
          { key: "answer", type: "single_line_text_field", value: "Yes", definition: { name: "" } },
        ],
      }),
      SHOP,
    );
    expect(result.indexable && [result.item.title, result.item.content]).toEqual([
      "can-i-return-a-sale-item",
      "answer: Yes",
    ]);
  });

  it("entries read as bulk lines are assembled like pages", async () => {
    const lines = [entry(), entry({ id: "gid://shopify/Metaobject/3200000002", handle: "two" })]
      .map((value) => JSON.stringify(value))
      .join("\n");
    const bulk = await readBulkExport(async function* () {
      yield lines;
    });
    expect(bulk.scan.items.Metaobject).toBe(2);
    const ids: string[] = [];
    for await (const item of bulk.items()) ids.push(`${item.type}:${item.value.id}`);
    expect(ids).toEqual([
      "Metaobject:gid://shopify/Metaobject/3200000001",
      "Metaobject:gid://shopify/Metaobject/3200000002",
    ]);
  });
});
