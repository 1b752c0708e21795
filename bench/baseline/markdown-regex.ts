/**
 * The regex markdown parser the widget used until issue 16 (item 9), kept only as the baseline
 * that bench/markdown.bench.ts prints beside the current parser. Nothing else imports it.
 */
import { safeUrl, type Block, type Inline } from "../../widget/markdown";

const ITEM = /^ {0,3}(?:([-*+])|\d{1,9}[.)])\s+(.*)$/;

export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let para: Inline[] | undefined;
  let list: Extract<Block, { items: unknown }> | undefined;
  for (const line of text.split(/\r?\n/)) {
    const item = ITEM.exec(line);
    if (item) {
      para = undefined;
      const t = item[1] ? "ul" : "ol";
      if (list?.t !== t) blocks.push((list = { t, items: [] }));
      list.items.push(parseInline(item[2]!));
    } else if (!line.trim()) {
      para = list = undefined;
    } else {
      list = undefined;
      if (para) para.push({ t: "br" });
      else blocks.push({ t: "p", c: (para = []) });
      para.push(...parseInline(line.trim()));
    }
  }
  return blocks;
}

/**
 * **strong** / __strong__, *em* / _em_, [label](url) (one level of parentheses allowed in the
 * URL): delimiters hug non-space text.
 */
const INLINE = /(\*\*|__|\*|_)(\S(?:.*?\S)??)\1|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/g;

function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  const re = new RegExp(INLINE);
  let last = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const [all, delim, inner, label, url] = m;
    // Underscores inside words (snake_case) are not emphasis.
    if (delim?.[0] === "_" && /\w/.test((s[m.index - 1] ?? "") + (s[re.lastIndex] ?? ""))) {
      re.lastIndex = m.index + 1;
      continue;
    }
    if (m.index > last) out.push({ t: "text", v: s.slice(last, m.index) });
    last = m.index + all.length;
    if (label === undefined) {
      out.push({ t: delim!.length > 1 ? "strong" : "em", c: parseInline(inner!) });
    } else {
      const href = safeUrl(url);
      const c = parseInline(label);
      out.push(...(href ? [{ t: "a" as const, href, c }] : c));
    }
  }
  if (last < s.length) out.push({ t: "text", v: s.slice(last) });
  return out;
}
