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
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
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
 * single spaces.
 *
 * html-to-text does the conversion. It costs some 30 µs per call whatever the size, the largest
 * share of mapping a product, so plain markup (known formatting tags, well-formed attributes,
 * common entities) takes a direct path that gives the same text; the tests hold the two to
 * identical output. Anything else (scripts, comments, unknown tags or entities, a stray "<") goes
 * to html-to-text.
 */
export function htmlToPlainText(html: string | null | undefined): string {
  if (!html) return "";
  return simpleMarkupToText(html) ?? collapseWhitespace(convert(html));
}

/** html-to-text alone, configured as above (the reference for the direct path). */
export function htmlToPlainTextWithLibrary(html: string): string {
  return collapseWhitespace(convert(html));
}

const BLOCK_SET: ReadonlySet<string> = new Set([...BLOCK_ELEMENTS, "br"]);
/** Formatting elements the direct path may drop while keeping their text (img: it has none). */
const INLINE_SET: ReadonlySet<string> = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "big",
  "cite",
  "code",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "ins",
  "kbd",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "time",
  "tt",
  "u",
  "var",
]);

const TAG =
  /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ENTITY =
  /&(?:#(\d{1,7});|#[xX]([0-9a-fA-F]{1,6});|([A-Za-z][A-Za-z0-9]{0,31});|(?=[A-Za-z0-9#]))/g;

const VOID_ELEMENTS: ReadonlySet<string> = new Set(["br", "hr", "img", "wbr"]);

/**
 * Opening these closes the listed element when it is the innermost one open (htmlparser2's
 * rules, which html-to-text parses with). The direct path leaves such markup to the parser, as it
 * does a closing tag that does not match the innermost open element.
 */
const CLOSES_P = new Set(["p"]);
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["li", new Set(["li"])],
  ["dd", new Set(["dd", "dt"])],
  ["dt", new Set(["dd", "dt"])],
  ["tbody", new Set(["thead", "tbody"])],
  ["tfoot", new Set(["thead", "tbody"])],
  ...[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "pre",
    "section",
    "table",
    "ul",
  ].map((name) => [name, CLOSES_P] as const),
]);

/** The direct path: the text of simple markup, or null when html-to-text must handle it. */
export function simpleMarkupToText(html: string): string | null {
  if (html.length > 1_000_000 || html.includes("<!") || html.includes("<?")) return null;
  const open: string[] = [];
  let out = "";
  let last = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    const text = decodeText(html.slice(last, match.index));
    if (text === null) return null;
    last = TAG.lastIndex;
    const name = (match[2] as string).toLowerCase();
    const isBlock = BLOCK_SET.has(name);
    if (!isBlock && !INLINE_SET.has(name)) return null;
    const innermost = open[open.length - 1];
    if (match[1] === "/") {
      if (innermost !== name) return null;
      open.pop();
    } else {
      if (innermost !== undefined && OPEN_IMPLIES_CLOSE.get(name)?.has(innermost)) return null;
      if (!VOID_ELEMENTS.has(name)) open.push(name);
    }
    out += isBlock ? text + " " : text;
  }
  const tail = decodeText(html.slice(last));
  return tail === null ? null : collapseWhitespace(out + tail);
}

function decodeText(text: string): string | null {
  if (text.includes("<")) return null;
  if (!text.includes("&")) return text;
  let unknown = false;
  const decoded = text.replace(ENTITY, (whole, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined || hex !== undefined) {
      const code = decimal !== undefined ? Number(decimal) : parseInt(hex as string, 16);
      // 0, C1 controls and surrogates have special decoding rules: leave them to the parser.
      if (
        code === 0 ||
        (code >= 0x80 && code <= 0x9f) ||
        (code >= 0xd800 && code <= 0xdfff) ||
        code > 0x10ffff
      ) {
        unknown = true;
        return whole;
      }
      return String.fromCodePoint(code);
    }
    const value = name === undefined ? undefined : NAMED_ENTITIES.get(name);
    if (value === undefined) unknown = true;
    return value ?? whole;
  });
  return unknown ? null : decoded;
}

// HTML 4's Latin-1 entities, U+00A0 to U+00FF in order.
const LATIN1_NAMES =
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn " +
  "sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave " +
  "Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml " +
  "ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN " +
  "szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute " +
  "icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml " +
  "yacute thorn yuml";

const OTHER_ENTITIES: [string, number][] = [
  ["quot", 34],
  ["amp", 38],
  ["apos", 39],
  ["lt", 60],
  ["gt", 62],
  ["OElig", 338],
  ["oelig", 339],
  ["Scaron", 352],
  ["scaron", 353],
  ["Yuml", 376],
  ["fnof", 402],
  ["circ", 710],
  ["tilde", 732],
  ["ensp", 8194],
  ["emsp", 8195],
  ["thinsp", 8201],
  ["zwnj", 8204],
  ["zwj", 8205],
  ["lrm", 8206],
  ["rlm", 8207],
  ["ndash", 8211],
  ["mdash", 8212],
  ["lsquo", 8216],
  ["rsquo", 8217],
  ["sbquo", 8218],
  ["ldquo", 8220],
  ["rdquo", 8221],
  ["bdquo", 8222],
  ["dagger", 8224],
  ["Dagger", 8225],
  ["bull", 8226],
  ["hellip", 8230],
  ["permil", 8240],
  ["prime", 8242],
  ["Prime", 8243],
  ["lsaquo", 8249],
  ["rsaquo", 8250],
  ["euro", 8364],
  ["trade", 8482],
  ["larr", 8592],
  ["rarr", 8594],
  ["hearts", 9829],
];

/** The named entities the direct path decodes; any other name goes to html-to-text. */
export const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ...LATIN1_NAMES.split(" ").map(
    (name, index) => [name, String.fromCharCode(0xa0 + index)] as const,
  ),
  ...OTHER_ENTITIES.map(([name, code]) => [name, String.fromCharCode(code)] as const),
]);

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
