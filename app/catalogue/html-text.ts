import { compile, type SelectorDefinition } from "html-to-text";

/** Elements whose content never reaches the index. */
const DROPPED_ELEMENTS = [
  "script",
  "style",
  "iframe",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "object",
  "embed",
  "video",
  "audio",
  "head",
  "title",
  "img",
  "button",
  "select",
  "input",
  "textarea",
];

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];

/** Elements that separate words; everything else is inline (`dol<b>or</b>` stays one word). */
const BLOCK_ELEMENTS = [
  "address",
  "article",
  "aside",
  "blockquote",
  "caption",
  "center",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  ...HEADINGS,
  "header",
  "hr",
  "legend",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
];

const selectors: SelectorDefinition[] = [
  ...DROPPED_ELEMENTS.map((selector) => ({ selector, format: "skip" })),
  // Lists, tables, headings and quotes become plain blocks: no bullets, numbers, upper-casing,
  // "> " prefixes or column padding, which mean nothing once whitespace is collapsed.
  ...BLOCK_ELEMENTS.map((selector) => ({
    selector,
    format: "block",
    options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
  })),
  { selector: "a", options: { ignoreHref: true } },
];

const convert = compile({ wordwrap: false, decodeEntities: true, selectors });

/**
 * Plain text of merchant HTML for the index: entities decoded, scripts, styles, embeds and
 * images dropped, links reduced to their text, all whitespace (line breaks included) collapsed to
 * single spaces. html-to-text does the conversion (a direct path for plain markup was removed:
 * docs/decisions/0006).
 */
export function htmlToPlainText(html: string | null | undefined): string {
  if (!html) return "";
  return collapseWhitespace(convert(html));
}

export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u200b]+/g, " ").trim();
}

export const EXCERPT_LENGTH = 160;
const ELLIPSIS = "…";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * At most `maxLength` characters of `text` (whitespace collapsed). A longer text is cut at the
 * last word boundary and ends with "…"; text without spaces near the limit (Chinese, Japanese) is
 * cut between characters, never inside an emoji or accented letter.
 */
export function makeExcerpt(text: string, maxLength: number = EXCERPT_LENGTH): string {
  const clean = collapseWhitespace(text);
  if (clean.length <= maxLength) return clean;
  const budget = maxLength - ELLIPSIS.length;
  // One character past the budget: a space there means the text breaks cleanly at the budget.
  const lastSpace = clean.lastIndexOf(" ", budget);
  const cut = lastSpace >= budget * 0.6 ? lastSpace : graphemeBoundaryAtOrBefore(clean, budget);
  return clean.slice(0, cut).replace(/[\s,;:.\-–—]+$/u, "") + ELLIPSIS;
}

/** The last grapheme boundary at or before `index` (segmenting only a small window around it). */
function graphemeBoundaryAtOrBefore(text: string, index: number): number {
  const start = Math.max(0, index - 32);
  let boundary = start;
  for (const { index: offset } of graphemes.segment(text.slice(start, index + 32))) {
    if (start + offset > index) break;
    boundary = start + offset;
  }
  return boundary;
}
