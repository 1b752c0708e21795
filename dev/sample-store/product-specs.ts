/**
 * A product "specs" metafield definition set of several types, with values on a few of the
 * documentation shop's products (by handle), as a merchant would keep material, care, size and
 * ratings. Values are in Shopify's stored form (`value`, a string; JSON for measurements, ratings
 * and lists). Also two definitions of apps (`app--…` namespaces), which the app never offers, and
 * one the storefront may not read (a supplier's name), which it does not offer either.
 */

export interface SampleDefinition {
  name: string;
  namespace: string;
  key: string;
  type: string;
  description?: string;
  /** Shopify's `access.storefront`; PUBLIC_READ unless said. */
  storefrontAccess?: "NONE" | "PUBLIC_READ";
  /** Shopify's `pinnedPosition`: pinned on every product's page in the admin. */
  pinnedPosition?: number;
}

export const SAMPLE_PRODUCT_DEFINITIONS: readonly SampleDefinition[] = [
  { name: "Material", namespace: "specs", key: "material", type: "single_line_text_field" },
  { name: "Care instructions", namespace: "specs", key: "care", type: "multi_line_text_field" },
  { name: "Height", namespace: "specs", key: "height", type: "dimension" },
  { name: "Weight", namespace: "specs", key: "weight", type: "weight" },
  { name: "Waterproof", namespace: "specs", key: "waterproof", type: "boolean" },
  { name: "Rating", namespace: "reviews", key: "rating", type: "rating" },
  {
    name: "Features",
    namespace: "specs",
    key: "features",
    type: "list.single_line_text_field",
    pinnedPosition: 1,
  },
  { name: "In the box", namespace: "specs", key: "in_the_box", type: "rich_text_field" },
  {
    name: "Supplier",
    namespace: "internal",
    key: "supplier",
    type: "single_line_text_field",
    storefrontAccess: "NONE",
  },
  {
    name: "Loyalty points multiplier",
    namespace: "app--4242--loyalty",
    key: "points_multiplier",
    type: "number_decimal",
  },
];

/** Handle → `namespace.key` → stored value. */
export const SAMPLE_PRODUCT_SPECS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "ipod-nano": {
    "internal.supplier": "Foxconn, Shenzhen",
    "specs.material": "Anodised aluminium",
    "specs.care": "Wipe with a soft, dry cloth.\nKeep away from water and heat.",
    "specs.height": JSON.stringify({ value: 9.0, unit: "cm" }),
    "specs.weight": JSON.stringify({ value: 32, unit: "g" }),
    "specs.waterproof": "false",
    "reviews.rating": JSON.stringify({ value: "4.5", scale_min: "1.0", scale_max: "5.0" }),
    "specs.features": JSON.stringify(["Video playback", "Six colours", "4GB and 8GB models"]),
    "specs.in_the_box": JSON.stringify({
      type: "root",
      children: [
        {
          type: "paragraph",
          children: [
            { type: "text", value: "iPod nano, earphones and a " },
            { type: "text", value: "USB cable", bold: true },
            { type: "text", value: "." },
          ],
        },
      ],
    }),
    "app--4242--loyalty.points_multiplier": "1.5",
  },
  "ipod-touch": {
    "specs.material": "Stainless steel and glass",
    "specs.weight": JSON.stringify({ value: 115, unit: "g" }),
    "specs.waterproof": "false",
    "reviews.rating": JSON.stringify({ value: "4.2", scale_min: "1.0", scale_max: "5.0" }),
    "specs.features": JSON.stringify(["Wi-Fi", "Multi-touch screen"]),
  },
  "burton-custom-freestyle-151": {
    "specs.material": "Poplar wood core, fibreglass",
    "specs.waterproof": "true",
  },
};

/**
 * Variant metafield definitions (`ownerType` PRODUCTVARIANT): a per-colour finish and a per-size
 * board length, as a merchant keeps what differs between variants of one product.
 */
export const SAMPLE_VARIANT_DEFINITIONS: readonly SampleDefinition[] = [
  { name: "Colour finish", namespace: "specs", key: "finish", type: "single_line_text_field" },
  { name: "Board length", namespace: "specs", key: "board_length", type: "dimension" },
];

/** Handle → variant title (its option values joined by " / ") → `namespace.key` → stored value. */
export const SAMPLE_VARIANT_SPECS: Readonly<
  Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>
> = {
  "ipod-nano": {
    Pink: { "specs.finish": "Satin anodised pink" },
    Red: { "specs.finish": "Gloss (PRODUCT)RED" },
    Green: { "specs.finish": "Satin anodised green" },
    Black: { "specs.finish": "Matte black" },
  },
  "burton-custom-freestyle-151-2": {
    "Blue / 155": { "specs.board_length": JSON.stringify({ value: 155, unit: "cm" }) },
    "Black / 159": { "specs.board_length": JSON.stringify({ value: 159, unit: "cm" }) },
  },
};
