import { LineSplitter, type BulkSource } from "../shopify/bulk-source";
import { VARIANT_METAFIELD_ALIAS } from "./queries";

/**
 * A storefront in another language, field by field: each product or page line of a translated
 * export (`translatedBulkQuery`) carries `translations [{key value outdated}]`; the translated
 * value replaces the primary language's where there is one that is not empty and not outdated
 * (its source changed since: Shopify marks it so), and the primary language's stays otherwise.
 * Everything else in the export passes as it is, so the usual reader and mapper take it; a
 * line that is not JSON passes untouched, for the reader to refuse with its line number.
 */

/** Shopify's translation keys → the export's fields, by the line's type. */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Product: {
    title: "title",
    body_html: "descriptionHtml",
    handle: "handle",
    product_type: "productType",
  },
  Page: { title: "title", body_html: "body", handle: "handle" },
  Article: { title: "title", body_html: "body", summary_html: "summary", handle: "handle" },
  // An article's blog (an object in the article's line): its URL's handle and its title.
  Blog: { title: "title", handle: "handle" },
  // A chosen product metafield's text (a connection of the product: a line of its own).
  Metafield: { value: "value" },
};

export interface TranslationLine {
  key?: unknown;
  value?: unknown;
  outdated?: unknown;
}

/** The translated text to use, or null: missing, empty or outdated keep the primary language's. */
export function usableTranslation(translation: TranslationLine): string | null {
  if (translation.outdated === true) return null;
  if (typeof translation.value !== "string" || translation.value.trim() === "") return null;
  return translation.value;
}

/** A variant's chosen metafields are objects under aliases: each carries its own translations. */
function translatedNested(object: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(object)) {
    if (!key.startsWith(VARIANT_METAFIELD_ALIAS) || typeof value !== "object" || value === null)
      continue;
    object[key] = applyTranslations(value as Record<string, unknown>);
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

/** The usable translation of a `name` (an option's or an option value's), or null. */
function translatedName(translations: unknown): string | null {
  const name = Array.isArray(translations)
    ? (translations as TranslationLine[]).find((translation) => translation.key === "name")
    : undefined;
  return name ? usableTranslation(name) : null;
}

/** An option's name and values in a storefront's language, as its translations say (null: none). */
interface OptionWords {
  name: string | null;
  values: Map<unknown, string | null>;
}

/** Read from an option with `translations` and `optionValues { name translations }`. */
function wordsOf(option: Json): OptionWords {
  const values = Array.isArray(option.optionValues) ? option.optionValues.filter(isObject) : [];
  return {
    name: translatedName(option.translations),
    values: new Map(values.map((value) => [value.name, translatedName(value.translations)])),
  };
}

/** An option `{name, values}` in the storefront's language: the primary language's where none. */
function inLanguage(option: Json, words: OptionWords | undefined): Json {
  const { translations: _translations, optionValues: _optionValues, ...rest } = option;
  return {
    ...rest,
    name: words?.name ?? rest.name,
    values: Array.isArray(rest.values)
      ? rest.values.map((value: unknown) => words?.values.get(value) ?? value)
      : rest.values,
  };
}

/**
 * A product's options in the storefront's language (`translatedOptions` asks for them): each
 * option's name and each value by its option value's translation.
 */
function translatedProductOptions(options: unknown[]): unknown[] {
  return options.map((option) => (isObject(option) ? inLanguage(option, wordsOf(option)) : option));
}

/** A variant's selected values in the storefront's language, by their `optionValue`'s translation. */
function translatedSelectedOptions(selected: unknown[]): unknown[] {
  return selected.map((raw) => {
    if (!isObject(raw)) return raw;
    const { optionValue, ...option } = raw;
    return {
      ...option,
      value: (isObject(optionValue) && translatedName(optionValue.translations)) || option.value,
    };
  });
}

/**
 * A product read in the primary language, its options and its variants' selected values in a
 * storefront's language from its options' translations read apart (`options { name translations
 * optionValues { name translations } }`, the live re-read's query): what the translated export
 * gives.
 */
export function withTranslatedOptions<
  P extends {
    options?: unknown;
    variants?: { selectedOptions: { name: string; value: string }[] }[];
  },
>(product: P, read: readonly unknown[]): P {
  const words = new Map(read.filter(isObject).map((option) => [option.name, wordsOf(option)]));
  if (words.size === 0) return product;
  return {
    ...product,
    options: Array.isArray(product.options)
      ? product.options.map((option: unknown) =>
          isObject(option) ? inLanguage(option, words.get(option.name)) : option,
        )
      : product.options,
    ...(product.variants && {
      variants: product.variants.map((variant) => ({
        ...variant,
        selectedOptions: variant.selectedOptions.map((option) => ({
          ...option,
          value: words.get(option.name)?.values.get(option.value) ?? option.value,
        })),
      })),
    }),
  };
}

/** What a translated export's line becomes: the line with the usable translations applied. */
export function applyTranslations(line: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(line.options)) {
    line = { ...line, options: translatedProductOptions(line.options) };
  }
  if (Array.isArray(line.selectedOptions)) {
    line = { ...line, selectedOptions: translatedSelectedOptions(line.selectedOptions) };
  }
  if (isObject(line.blog) && Array.isArray(line.blog.translations)) {
    line = { ...line, blog: applyTranslations(line.blog) };
  }
  const translations = line.translations;
  if (!Array.isArray(translations)) {
    if (typeof line.id === "string" && line.id.startsWith("gid://shopify/ProductVariant/"))
      translatedNested(line);
    return line;
  }
  const { translations: _translations, ...object } = line;
  const type =
    typeof object.id === "string" ? /^gid:\/\/shopify\/(\w+)\//.exec(object.id)?.[1] : undefined;
  const fields = (type && FIELDS[type]) || {};
  for (const translation of translations as TranslationLine[]) {
    const field = typeof translation.key === "string" ? fields[translation.key] : undefined;
    const value = usableTranslation(translation);
    if (!field || value === null) continue;
    object[field] = value;
    // Shopify's page summary is cut from the primary language's body: the translated body's own
    // beginning is the excerpt instead.
    if (type === "Page" && field === "body") object.bodySummary = null;
  }
  return object;
}

/** The source with every line's translations applied (read afresh each time, like the source). */
export function translatedSource(source: BulkSource): BulkSource {
  return mappedSource(source, applyTranslations);
}

/**
 * The source with `map` applied to every line that is a JSON object (read afresh each time,
 * like the source); any other line passes untouched, for the reader to refuse with its number.
 */
export function mappedSource(
  source: BulkSource,
  map: (line: Record<string, unknown>) => Record<string, unknown>,
): BulkSource {
  return async function* mapped() {
    const splitter = new LineSplitter();
    let out: string[] = [];
    const onLine = (text: string) => {
      let object: unknown;
      try {
        object = JSON.parse(text);
      } catch {
        out.push(text);
        return;
      }
      out.push(
        typeof object === "object" && object !== null && !Array.isArray(object)
          ? JSON.stringify(map(object as Record<string, unknown>))
          : text,
      );
    };
    for await (const chunk of await source()) {
      splitter.push(chunk, onLine);
      if (out.length > 0) {
        yield Buffer.from(`${out.join("\n")}\n`);
        out = [];
      }
    }
    splitter.end(onLine);
    if (out.length > 0) yield Buffer.from(`${out.join("\n")}\n`);
  };
}
