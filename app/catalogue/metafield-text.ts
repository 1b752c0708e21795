import { collapseWhitespace, htmlToPlainText } from "./html-text";

/**
 * A product metafield's value turned into readable text by its type, for the product document's
 * `attributes` (docs/catalogue.md, "Metafields"). Every value comes out as plain text of bounded
 * size: HTML and JSON are reduced to their words, never passed on raw; a value that fails its own
 * type gives nothing (null), never an error.
 */

/** A metafield the merchant chose in Settings: its definition's name names the attribute. */
export interface ChosenMetafield {
  namespace: string;
  key: string;
  name: string;
  type: string;
  /** `PRODUCTVARIANT`: a variant's metafield (docs/decisions/0033); absent: the product's. */
  owner?: "PRODUCTVARIANT";
}

/** The chosen metafields of products (not of variants). */
export function productMetafieldsOf<T extends { owner?: string }>(chosen: readonly T[]): T[] {
  return chosen.filter((metafield) => metafield.owner !== "PRODUCTVARIANT");
}

/** The chosen metafields of variants. */
export function variantMetafieldsOf<T extends { owner?: string }>(chosen: readonly T[]): T[] {
  return chosen.filter((metafield) => metafield.owner === "PRODUCTVARIANT");
}

/** A product's metafield as the export reads it. */
export interface ShopifyMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
  /**
   * What a `metaobject_reference` names, when asked for (METAFIELD_REFERENCE_SELECTION): the
   * entry's display name and fields. Null when the entry was deleted.
   */
  reference?: ReferencedEntry | null;
}

/**
 * What a single reference names, as the export reads it (`reference { __typename … }`): a
 * metaobject entry (a size chart) with its name and fields, a product, variant, collection or
 * page with its title, a file with its alt text and URL or file name.
 */
export interface ReferencedEntry {
  __typename?: string;
  displayName?: string;
  fields?: { key: string; type: string; value: string | null; definition?: { name: string } }[];
  title?: string;
  product?: { title?: string } | null;
  alt?: string | null;
  image?: { url?: string } | null;
  url?: string | null;
  filename?: string | null;
}

/** A metaobject entry, by its name and fields. */
export const METAOBJECT_REFERENCE_TYPE = "metaobject_reference";
/** Single references read with the product (`reference`) and turned into what they name. */
export const SINGLE_REFERENCE_TYPES: ReadonlySet<string> = new Set([
  METAOBJECT_REFERENCE_TYPE,
  "product_reference",
  "variant_reference",
  "collection_reference",
  "page_reference",
  "file_reference",
]);
/**
 * A product's single reference that names something by a title, alt text or file name (read
 * with the product, decision 0045): not a metaobject entry's, which is sent with its fields.
 */
export function isNamedSingleReference(metafield: { type: string }): boolean {
  return SINGLE_REFERENCE_TYPES.has(metafield.type) && metafield.type !== METAOBJECT_REFERENCE_TYPE;
}

/**
 * Lists of references: their values are ids alone, named by a separate read of what they name
 * (MapContext.referenceNames, docs/decisions/0046).
 */
export const REFERENCE_LIST_TYPES: ReadonlySet<string> = new Set(
  [...SINGLE_REFERENCE_TYPES].map((type) => `list.${type}`),
);

/**
 * Whether a chosen metafield's value is ids named by a separate read: a list of references, or a
 * variant's single reference (the variant selection reads values alone, decision 0033).
 */
export function isNamedApart(metafield: { type?: string; owner?: string }): boolean {
  const type = metafield.type ?? "";
  return (
    REFERENCE_LIST_TYPES.has(type) ||
    (metafield.owner === "PRODUCTVARIANT" && SINGLE_REFERENCE_TYPES.has(type))
  );
}

/**
 * The ids a metafield's value names when it is a reference read as ids (isNamedApart's types):
 * a list's first METAFIELD_LIST_MAX, a single reference's one; anything else, or a value that is
 * not an id, names none.
 */
export function referencedIdsOf(metafield: ShopifyMetafield): string[] {
  // Shopify's whole query fails on an id it cannot parse: only well-formed ones are asked for.
  const isId = (id: unknown): id is string =>
    typeof id === "string" && /^gid:\/\/shopify\/[A-Za-z]+\/\d+$/.test(id);
  if (REFERENCE_LIST_TYPES.has(metafield.type)) {
    let ids: unknown;
    try {
      ids = JSON.parse(metafield.value);
    } catch {
      return [];
    }
    return Array.isArray(ids) ? ids.slice(0, METAFIELD_LIST_MAX).filter(isId) : [];
  }
  return SINGLE_REFERENCE_TYPES.has(metafield.type) && isId(metafield.value)
    ? [metafield.value]
    : [];
}

/** At most this many characters a value (a list's each item), the cut note included. */
export const METAFIELD_TEXT_MAX = 500;
/** At most this many items of a list are kept. */
export const METAFIELD_LIST_MAX = 20;
/** Long text types are also appended to `content`, up to this many characters. */
export const METAFIELD_CONTENT_MAX = 4_000;
/** Ends a value that was cut to its bound. */
export const CUT_NOTE = "…(cut)";

/** Types whose text also goes into the product's `content`, under the definition's name. */
export const LONG_TEXT_TYPES: ReadonlySet<string> = new Set([
  "multi_line_text_field",
  "rich_text_field",
]);

/** The types turned into text (a list of each too); references are not resolved yet. */
const SCALAR_TYPES = new Set([
  "single_line_text_field",
  "multi_line_text_field",
  "rich_text_field",
  "number_integer",
  "number_decimal",
  "dimension",
  "weight",
  "volume",
  "boolean",
  "rating",
  "date",
  "date_time",
  "url",
  "color",
  "money",
  "link",
  "json",
]);

export function isIndexableMetafieldType(type: string): boolean {
  if (SINGLE_REFERENCE_TYPES.has(type) || REFERENCE_LIST_TYPES.has(type)) return true;
  return SCALAR_TYPES.has(type.startsWith("list.") ? type.slice(5) : type);
}

/** Whether reading these metafields must resolve single references (a heavier read). */
export function hasReference(chosen: readonly { type?: string }[]): boolean {
  return chosen.some((metafield) => SINGLE_REFERENCE_TYPES.has(metafield.type ?? ""));
}

/**
 * A metafield's value as text: a metaobject reference as the entry it names ("Burton Custom 151
 * size chart: Board length 151 cm; Rider weight 45–68 kg"), every other type by metafieldText.
 * A reference to a deleted entry (null), or not resolved, gives nothing.
 */
export function metafieldValueText(
  metafield: ShopifyMetafield,
  /** Id → name of what references read as ids name (MapContext.referenceNames). */
  names?: ReadonlyMap<string, string>,
): string[] | null {
  if (REFERENCE_LIST_TYPES.has(metafield.type)) return referenceListText(metafield, names);
  if (!SINGLE_REFERENCE_TYPES.has(metafield.type)) {
    return metafieldText(metafield.type, metafield.value);
  }
  // A variant's reference: its value alone was read, its name apart.
  if (metafield.reference === undefined) return referenceListText(metafield, names);
  const entry = metafield.reference;
  if (!entry) return null;
  if (metafield.type !== METAOBJECT_REFERENCE_TYPE) {
    // A name learnt apart is the storefront language's (a domain workspace's); else the read one.
    const name = collapseWhitespace(names?.get(metafield.value) ?? "") || namedReference(entry);
    return name ? [bounded(name)] : null;
  }
  const name = typeof entry.displayName === "string" ? collapseWhitespace(entry.displayName) : "";
  const facts = (Array.isArray(entry.fields) ? entry.fields : []).flatMap((field) => {
    if (typeof field.value !== "string" || typeof field.type !== "string") return [];
    const text = metafieldText(field.type, field.value)?.join(", ");
    // The field the entry is named by says nothing more.
    if (!text || text === name) return [];
    return [`${field.definition?.name?.trim() || field.key} ${text}`];
  });
  const text = [name, facts.join("; ")].filter(Boolean).join(": ");
  return text ? [bounded(text)] : null;
}

/** The last path segment of a URL, without its query: a file's name ("care-guide.pdf"). */
function fileNameOf(url: unknown): string {
  if (typeof url !== "string") return "";
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    return "";
  }
}

/**
 * What a product, variant, collection, page, file or metaobject reference names, as a shopper
 * would call it: its title ("Burton Custom 151 - Small" for a variant), a file's alt text, else
 * its file name, an entry's display name; "" for anything else.
 */
export function namedReference(entry: ReferencedEntry): string {
  const text = (value: unknown) => (typeof value === "string" ? collapseWhitespace(value) : "");
  switch (entry.__typename) {
    case "Product":
    case "Collection":
    case "Page":
      return text(entry.title);
    case "ProductVariant": {
      const product = text(entry.product?.title);
      const variant = text(entry.title);
      return variant && variant !== "Default Title"
        ? [product, variant].filter(Boolean).join(" - ")
        : product;
    }
    case "MediaImage":
      return text(entry.alt) || fileNameOf(entry.image?.url);
    case "GenericFile":
      return text(entry.alt) || fileNameOf(entry.url);
    case "Video":
      return text(entry.alt) || text(entry.filename);
    case "Metaobject":
      return text(entry.displayName);
    default:
      return "";
  }
}

/**
 * References read as ids, as the names of what they name ("Pink", "Red"), in their order: a list
 * cut to METAFIELD_LIST_MAX with a visible note; what was deleted since, or is unnamed, is left
 * out; none named: nothing.
 */
function referenceListText(
  metafield: ShopifyMetafield,
  names: ReadonlyMap<string, string> | undefined,
): string[] | null {
  if (!names) return null;
  const texts = referencedIdsOf(metafield).flatMap((id) => {
    const text = collapseWhitespace(names.get(id) ?? "");
    return text ? [bounded(text)] : [];
  });
  const unique = [...new Set(texts)];
  if (unique.length === 0) return null;
  return listLength(metafield.value) > METAFIELD_LIST_MAX ? [...unique, CUT_NOTE] : unique;
}

/** How many items a list value holds (0 for anything else). */
function listLength(value: string): number {
  const items = parseJson(value);
  return Array.isArray(items) ? items.length : 0;
}

/** `text` cut to `max` characters, the cut visible. */
export function bounded(text: string, max: number = METAFIELD_TEXT_MAX): string {
  if (text.length <= max) return text;
  return `${[...text]
    .slice(0, max - CUT_NOTE.length)
    .join("")
    .trimEnd()}${CUT_NOTE}`;
}

/**
 * The value as text: one string, or one per item of a list type. Null when there is nothing to
 * say: an empty value, a value that fails its type, or a type not turned into text.
 */
export function metafieldText(type: string, value: string): string[] | null {
  if (type.startsWith("list.")) {
    const items = parseJson(value);
    if (!Array.isArray(items)) return null;
    const inner = type.slice(5);
    const texts = items
      .slice(0, METAFIELD_LIST_MAX)
      .map((item) => scalarText(inner, item, true))
      .filter((text): text is string => text !== null && text !== "")
      .map((text) => bounded(text));
    if (items.length > METAFIELD_LIST_MAX && texts.length > 0) texts.push(CUT_NOTE);
    return texts.length > 0 ? texts : null;
  }
  const text = scalarText(type, value, false);
  return text ? [bounded(text)] : null;
}

/** The long-text form of a value for `content`, or null. */
export function metafieldLongText(type: string, value: string): string | null {
  if (!LONG_TEXT_TYPES.has(type)) return null;
  const text = scalarText(type, value, false);
  return text ? bounded(text, METAFIELD_CONTENT_MAX) : null;
}

/**
 * One value of `type`: `raw` is the stored string, or (in a list) the item already parsed, which
 * is a string for text types and an object for measurements, ratings, money and links.
 */
function scalarText(type: string, raw: unknown, parsed: boolean): string | null {
  const string = typeof raw === "string" ? raw : null;
  const object = parsed ? raw : string === null ? null : parseJson(string);
  switch (type) {
    case "single_line_text_field":
    case "multi_line_text_field":
      return string === null ? null : plain(string);
    case "rich_text_field":
      return richText(object);
    case "number_integer":
      return string !== null && /^-?\d+$/.test(string.trim()) ? String(Number(string)) : null;
    case "number_decimal": {
      const text = typeof raw === "number" ? String(raw) : string?.trim();
      return text !== undefined && text !== null && /^-?\d+(\.\d+)?$/.test(text)
        ? String(Number(text))
        : null;
    }
    case "dimension":
    case "weight":
    case "volume":
      return measurement(object);
    case "boolean":
      return string === "true" ? "Yes" : string === "false" ? "No" : null;
    case "rating":
      return rating(object);
    case "date":
      return string !== null && /^\d{4}-\d{2}-\d{2}$/.test(string) && validDate(string)
        ? string
        : null;
    case "date_time":
      return string !== null && validDate(string)
        ? new Date(string).toISOString().slice(0, 16).replace("T", " ") + " UTC"
        : null;
    case "url":
      return string !== null && isWebUrl(string) ? string.trim() : null;
    case "color":
      return string !== null && /^#[0-9a-f]{6}$/i.test(string) ? string.toLowerCase() : null;
    case "money":
      return money(object);
    case "link":
      return link(object);
    case "json":
      return object === null || object === undefined ? null : plain(jsonWords(object));
    default:
      return null;
  }
}

/** Text, with any HTML in it reduced to its words, on one line. */
function plain(text: string): string {
  const words = /<[a-z!/]/i.test(text) ? htmlToPlainText(text) : text;
  return collapseWhitespace(words);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A number from a JSON number or numeric string. */
function numberOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/** Shopify's unit names (stored values use the short ones; the enum names are accepted too). */
const UNITS: Readonly<Record<string, string>> = {
  mm: "mm",
  cm: "cm",
  m: "m",
  in: "in",
  ft: "ft",
  yd: "yd",
  millimeters: "mm",
  centimeters: "cm",
  meters: "m",
  inches: "in",
  feet: "ft",
  yards: "yd",
  g: "g",
  kg: "kg",
  oz: "oz",
  lb: "lb",
  grams: "g",
  kilograms: "kg",
  ounces: "oz",
  pounds: "lb",
  ml: "ml",
  cl: "cl",
  l: "l",
  m3: "m³",
  us_fl_oz: "US fl oz",
  us_pt: "US pt",
  us_qt: "US qt",
  us_gal: "US gal",
  imp_fl_oz: "imp fl oz",
  imp_pt: "imp pt",
  imp_qt: "imp qt",
  imp_gal: "imp gal",
  milliliters: "ml",
  centiliters: "cl",
  liters: "l",
  cubic_meters: "m³",
};

/** `{"value": 9, "unit": "cm"}` → "9 cm". */
function measurement(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const amount = numberOf(value.value);
  const unit = typeof value.unit === "string" ? UNITS[value.unit.toLowerCase()] : undefined;
  return amount === null || !unit ? null : `${amount} ${unit}`;
}

/** `{"value": "4.5", "scale_min": "1.0", "scale_max": "5.0"}` → "4.5 of 5". */
function rating(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const amount = numberOf(value.value);
  const min = numberOf(value.scale_min) ?? 0;
  const max = numberOf(value.scale_max);
  if (amount === null || max === null || amount < min || amount > max) return null;
  return `${amount} of ${max}`;
}

/** `{"amount": "12.50", "currency_code": "EUR"}` → "12.50 EUR". */
function money(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const amount = typeof value.amount === "string" ? value.amount.trim() : null;
  const currency = value.currency_code;
  if (!amount || !/^-?\d+(\.\d+)?$/.test(amount)) return null;
  return typeof currency === "string" && /^[A-Z]{3}$/.test(currency)
    ? `${amount} ${currency}`
    : null;
}

/** `{"text": "Size guide", "url": "https://…"}` → "Size guide (https://…)". */
function link(value: unknown): string | null {
  if (!isRecord(value) || typeof value.url !== "string" || !isWebUrl(value.url)) return null;
  const text = typeof value.text === "string" ? plain(value.text) : "";
  return text ? `${text} (${value.url.trim()})` : value.url.trim();
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function validDate(text: string): boolean {
  return !Number.isNaN(Date.parse(text));
}

/**
 * Shopify's rich text JSON (a `root` of paragraphs, headings and lists of `text` and `link`
 * nodes) as its words: blocks separated by a space, list items by "; ".
 */
function richText(value: unknown): string | null {
  if (!isRecord(value) || value.type !== "root" || !Array.isArray(value.children)) return null;
  const blocks: string[] = [];
  const inline = (node: unknown): string => {
    if (!isRecord(node)) return "";
    if (node.type === "text") return typeof node.value === "string" ? node.value : "";
    return Array.isArray(node.children) ? node.children.map(inline).join("") : "";
  };
  const block = (node: unknown) => {
    if (!isRecord(node)) return;
    if (node.type === "list" && Array.isArray(node.children)) {
      blocks.push(node.children.map(inline).map(collapseWhitespace).filter(Boolean).join("; "));
    } else blocks.push(inline(node));
  };
  value.children.forEach(block);
  const text = plain(blocks.filter((b) => b.trim() !== "").join(" "));
  return text || null;
}

/** A JSON value's scalar leaves, with the key each sits under: "size: M; colour: red". */
function jsonWords(value: unknown, under = ""): string {
  if (Array.isArray(value)) return value.map((item) => jsonWords(item, under)).join("; ");
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([key, inner]) => jsonWords(inner, key))
      .filter(Boolean)
      .join("; ");
  }
  if (value === null || value === undefined || value === "") return "";
  return under ? `${under}: ${String(value)}` : String(value);
}
