/**
 * Metaobject definitions a merchant keeps, with entries: an FAQ whose entries have pages on the
 * online store (`/pages/faq/<handle>`), a size chart without pages, referenced from snowboards
 * by a product metafield (`specs.size_chart`, `metaobject_reference`), a "Supplier contacts"
 * definition the storefront may not read (`access.storefront` NONE), and one of another app
 * (`app--4242--loyalty_tier`), which the app never offers. Values are in Shopify's stored form
 * (a string; JSON for measurements), as metafields' are.
 */

export interface SampleMetaobjectField {
  key: string;
  name: string;
  type: string;
  required?: boolean;
}

export interface SampleMetaobjectDefinition {
  type: string;
  name: string;
  /** The field whose value names an entry (`displayNameKey`). */
  displayNameKey: string;
  /** The online store's URL segment of its entries' pages; null: no `onlineStore` capability. */
  onlineStoreUrlHandle: string | null;
  /** `access.storefront`; default PUBLIC_READ. */
  storefrontAccess?: "NONE" | "PUBLIC_READ";
  /** The `translatable` capability: its entries' text fields can be translated. */
  translatable?: boolean;
  fields: readonly SampleMetaobjectField[];
}

export interface SampleMetaobjectEntry {
  type: string;
  handle: string;
  /** `DRAFT`: not published (the definition has the `publishable` capability). */
  status?: "ACTIVE" | "DRAFT";
  fields: Readonly<Record<string, string>>;
}

export const SAMPLE_METAOBJECT_DEFINITIONS: readonly SampleMetaobjectDefinition[] = [
  {
    type: "faq",
    name: "FAQ",
    displayNameKey: "question",
    onlineStoreUrlHandle: "faq",
    translatable: true,
    fields: [
      { key: "question", name: "Question", type: "single_line_text_field", required: true },
      { key: "answer", name: "Answer", type: "multi_line_text_field", required: true },
    ],
  },
  {
    type: "size_chart",
    name: "Size chart",
    displayNameKey: "title",
    onlineStoreUrlHandle: null,
    fields: [
      { key: "title", name: "Title", type: "single_line_text_field", required: true },
      { key: "board_length", name: "Board length", type: "dimension" },
      { key: "rider_weight", name: "Rider weight", type: "single_line_text_field" },
      { key: "waist_width", name: "Waist width", type: "dimension" },
      { key: "notes", name: "Notes", type: "multi_line_text_field" },
    ],
  },
  {
    type: "supplier_contact",
    name: "Supplier contacts",
    displayNameKey: "company",
    onlineStoreUrlHandle: null,
    storefrontAccess: "NONE",
    fields: [
      { key: "company", name: "Company", type: "single_line_text_field" },
      { key: "email", name: "Email", type: "single_line_text_field" },
    ],
  },
  {
    // Shopify's standard definition behind the "Color" category metafield (shopify.color-pattern).
    type: "shopify--color-pattern",
    name: "Color",
    displayNameKey: "label",
    onlineStoreUrlHandle: null,
    fields: [
      { key: "label", name: "Label", type: "single_line_text_field", required: true },
      { key: "color", name: "Color", type: "list.color" },
    ],
  },
  {
    type: "app--4242--loyalty_tier",
    name: "Loyalty tiers",
    displayNameKey: "tier",
    onlineStoreUrlHandle: null,
    fields: [{ key: "tier", name: "Tier", type: "single_line_text_field" }],
  },
];

export const SAMPLE_METAOBJECT_ENTRIES: readonly SampleMetaobjectEntry[] = [
  {
    type: "faq",
    handle: "can-i-return-a-sale-item",
    fields: {
      question: "Can I return a sale item?",
      answer:
        "Yes: sale items can be returned within 14 days of delivery for store credit. Full-price items have 30 days for a full refund. Gift cards and personalised items cannot be returned.",
    },
  },
  {
    type: "faq",
    handle: "how-long-does-shipping-to-germany-take",
    fields: {
      question: "How long does shipping to Germany take?",
      answer: "Orders to Germany arrive in 3 to 5 business days with tracking.",
    },
  },
  {
    type: "faq",
    handle: "how-do-i-wax-my-snowboard",
    fields: {
      question: "How do I wax my snowboard?",
      answer:
        "Clean the base, melt all-temperature wax onto it with an iron, let it cool for 30 minutes, then scrape and brush from tip to tail.",
    },
  },
  {
    type: "faq",
    handle: "do-you-sell-gift-cards",
    status: "DRAFT",
    fields: {
      question: "Do you sell gift cards?",
      answer: "Not yet: gift cards are coming this winter.",
    },
  },
  {
    type: "size_chart",
    handle: "burton-custom-151",
    fields: {
      title: "Burton Custom 151 size chart",
      board_length: JSON.stringify({ value: 151, unit: "cm" }),
      rider_weight: "45–68 kg",
      waist_width: JSON.stringify({ value: 24.8, unit: "cm" }),
      notes: "Between sizes? Choose the shorter board for park riding.",
    },
  },
  {
    type: "size_chart",
    handle: "burton-custom-158",
    fields: {
      title: "Burton Custom 158 size chart",
      board_length: JSON.stringify({ value: 158, unit: "cm" }),
      rider_weight: "68–91 kg",
      waist_width: JSON.stringify({ value: 25.6, unit: "cm" }),
    },
  },
  {
    type: "supplier_contact",
    handle: "boards-ltd",
    fields: { company: "Boards Ltd", email: "orders@boards-ltd.example" },
  },
  {
    type: "shopify--color-pattern",
    handle: "pink",
    fields: { label: "Pink", color: '["#ffc0cb"]' },
  },
  { type: "shopify--color-pattern", handle: "red", fields: { label: "Red", color: '["#ff0000"]' } },
  {
    type: "shopify--color-pattern",
    handle: "green",
    fields: { label: "Green", color: '["#008000"]' },
  },
  {
    type: "shopify--color-pattern",
    handle: "black",
    fields: { label: "Black", color: '["#000000"]' },
  },
  {
    type: "app--4242--loyalty_tier",
    handle: "gold",
    fields: { tier: "Gold" },
  },
];

/**
 * Product handle → the `shopify--color-pattern` entries (handles) its standard "Color" category
 * metafield (`shopify.color-pattern`, `list.metaobject_reference`) lists, as Shopify's category
 * fields keep them.
 */
export const SAMPLE_COLOR_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  "ipod-nano": ["pink", "red", "green", "black"],
  "ipod-touch": ["black"],
};

/** Product handle → the size chart entry (its handle) its `specs.size_chart` metafield references. */
export const SAMPLE_SIZE_CHART_REFERENCES: Readonly<Record<string, string>> = {
  // A draft in Shopify's documentation shop; the demo keeps only this one of the 151s.
  "burton-custom-freestyle-151": "burton-custom-151",
  "burton-custom-freestyle-151-1": "burton-custom-151",
  "burton-custom-freestyle-151-2": "burton-custom-151",
};

/**
 * Product handle → the product (its handle) its `custom.pairs_well_with` product reference names:
 * what a merchant sells beside it.
 */
export const SAMPLE_PAIRS_WELL_WITH: Readonly<Record<string, string>> = {
  "burton-custom-freestyle-151": "ipod-nano",
  "burton-custom-freestyle-151-1": "ipod-nano",
  "burton-custom-freestyle-151-2": "ipod-nano",
  "ipod-touch": "ipod-nano",
};
