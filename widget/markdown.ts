/**
 * The safe subset of markdown the assistant's text is rendered with: paragraphs, line breaks,
 * emphasis (*em*, _em_, **strong**, __strong__), links (http and https only) and lists. Parsing
 * is pure (text → tree) so it can be tested anywhere; `toNodes` builds DOM nodes from the tree.
 * Model text is never parsed as HTML: every piece of it ends up in a Text node or an attribute.
 */
export type Inline =
  | { t: "text"; v: string }
  | { t: "br" }
  | { t: "em" | "strong"; c: Inline[] }
  | { t: "a"; href: string; c: Inline[] };

export type Block = { t: "p"; c: Inline[] } | { t: "ul" | "ol"; items: Inline[][] };

/** An absolute http(s) URL, or undefined. Relative URLs resolve against `base`. */
export function safeUrl(raw: unknown, base?: string): string | undefined {
  try {
    const url = new URL(String(raw).trim(), base);
    return typeof raw === "string" && raw.trim() && /^https?:$/.test(url.protocol)
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

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

export function parseInline(s: string): Inline[] {
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

function inlineNodes(nodes: Inline[]): Node[] {
  return nodes.map((n) => {
    if (n.t === "text") return document.createTextNode(n.v);
    const el = document.createElement(n.t);
    if (n.t === "a") {
      const a = el as HTMLAnchorElement;
      a.href = n.href;
      if (a.origin !== location.origin) {
        a.target = "_blank";
        a.rel = "noopener noreferrer";
      }
    }
    if (n.t !== "br") el.append(...inlineNodes(n.c));
    return el;
  });
}

export function toNodes(blocks: Block[]): Node[] {
  return blocks.map((b) => {
    const el = document.createElement(b.t);
    if (b.t === "p") el.append(...inlineNodes(b.c));
    else {
      for (const item of b.items) {
        const li = document.createElement("li");
        li.append(...inlineNodes(item));
        el.append(li);
      }
    }
    return el;
  });
}
