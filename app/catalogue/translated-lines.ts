import { LineSplitter, type BulkSource } from "../shopify/bulk-source";

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
};

interface TranslationLine {
  key?: unknown;
  value?: unknown;
  outdated?: unknown;
}

/** What a translated export's line becomes: the line with the usable translations applied. */
export function applyTranslations(line: Record<string, unknown>): Record<string, unknown> {
  const translations = line.translations;
  if (!Array.isArray(translations)) return line;
  const { translations: _translations, ...object } = line;
  const type =
    typeof object.id === "string" ? /^gid:\/\/shopify\/(\w+)\//.exec(object.id)?.[1] : undefined;
  const fields = (type && FIELDS[type]) || {};
  for (const translation of translations as TranslationLine[]) {
    const field = typeof translation.key === "string" ? fields[translation.key] : undefined;
    if (!field || translation.outdated === true) continue;
    if (typeof translation.value !== "string" || translation.value.trim() === "") continue;
    object[field] = translation.value;
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
