/**
 * The safe subset of markdown the assistant's text is rendered with: paragraphs, line breaks,
 * emphasis (*em*, _em_, **strong**, __strong__), links (http and https only) and lists. Parsing
 * is pure (text → tree) so it can be tested anywhere; `toNodes` builds DOM nodes from the tree.
 * Model text is never parsed as HTML: every piece of it ends up in a Text node or an attribute.
 *
 * Parsing is linear in the text's length, whatever the text: each "where does this close" search
 * remembers how far it looked, so no stretch of a line is searched twice; a streamed answer is
 * drawn line by line (`markdownStream`). bench/markdown.bench.ts prints the figures.
 */
export type Inline =
  | { t: "text"; v: string }
  | { t: "br" }
  | { t: "em" | "strong"; c: Inline[] }
  | { t: "a"; href: string; c: Inline[] };

type ListBlock = { t: "ul" | "ol"; items: Inline[][] };
export type Block = { t: "p"; c: Inline[] } | ListBlock;

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

const ITEM = /^ {0,3}(?:([-*+])|\d{1,9}[.)])\s+([\s\S]*)$/;

interface Builder {
  blocks: Block[];
  para?: Inline[];
  list?: ListBlock;
}

function addLine(b: Builder, line: string): void {
  const item = ITEM.exec(line);
  if (item) {
    b.para = undefined;
    const t = item[1] ? "ul" : "ol";
    if (b.list?.t !== t) b.blocks.push((b.list = { t, items: [] }));
    b.list.items.push(parseInline(item[2]!));
  } else if (!line.trim()) {
    b.para = b.list = undefined;
  } else {
    b.list = undefined;
    if (b.para) b.para.push({ t: "br" });
    else b.blocks.push({ t: "p", c: (b.para = []) });
    for (const node of parseInline(line.trim())) b.para.push(node);
  }
}

export function parseBlocks(text: string): Block[] {
  const b: Builder = { blocks: [] };
  for (const line of text.split(/\r?\n/)) addLine(b, line);
  return b.blocks;
}

/**
 * Characters the inline parser looked at (every step of its scans), for tests that hold it to
 * linear work without timing it. Cleared by the caller.
 */
export const parseWork = { steps: 0 };

const DELIMS = ["**", "__", "*", "_"];
const SPACE = /\s/;
const space = (c = "") => SPACE.test(c);
const word = (c = "") => /\w/.test(c);

/**
 * **strong** / __strong__, *em* / _em_, [label](url) (one level of parentheses allowed in the
 * URL): delimiters hug non-space text; the first closer after an opener closes it.
 */
export function parseInline(s: string): Inline[] {
  /**
   * The first index >= from where `test` holds (s.length when none), remembering the last answer:
   * a question inside the stretch already searched is answered without searching it again.
   */
  const finder = (test: (q: number) => boolean) => {
    let lo = 1;
    let hi = 0;
    return (from: number) => {
      if (from < lo || from > hi) {
        for (lo = hi = from; hi < s.length && !test(hi); parseWork.steps++) hi++;
      }
      return hi;
    };
  };
  const closer = DELIMS.map((d) => finder((q) => s.startsWith(d, q) && !space(s[q - 1])));
  const bracket = finder((q) => s[q] === "]");
  let urlFrom = -1;
  let urlEnd = -1;
  /** The index of the ")" that ends a URL starting at `start`, or -1. */
  const endOfUrl = (start: number): number => {
    if (start === urlFrom) return urlEnd;
    let p = start;
    for (; ; parseWork.steps++) {
      const c = s[p];
      if (!c || c === ")" || space(c)) break;
      if (c === "(") {
        while (s[++p] && !/[()\s]/.test(s[p]!)) parseWork.steps++;
        if (s[p] !== ")") break;
      }
      p++;
    }
    urlFrom = start;
    return (urlEnd = s[p] === ")" ? p : -1);
  };

  const parse = (from: number, to: number): Inline[] => {
    const out: Inline[] = [];
    let last = from;
    let i = from;
    const push = (node: Inline | Inline[], end: number) => {
      if (i > last) out.push({ t: "text", v: s.slice(last, i) });
      for (const n of Array.isArray(node) ? node : [node]) out.push(n);
      last = i = end;
    };
    scan: while (i < to) {
      parseWork.steps++;
      const c = s[i];
      if (c === "*" || c === "_") {
        for (let k = 0; k < 4; k++) {
          const d = DELIMS[k]!;
          const a = i + d.length;
          if (!s.startsWith(d, i) || a >= to || space(s[a])) continue;
          const j = closer[k]!(a + 1);
          const end = j + d.length;
          if (end > to) continue;
          // Underscores inside words (snake_case) are not emphasis.
          if (c === "_" && ((i > from && word(s[i - 1])) || (end < to && word(s[end])))) break;
          push({ t: d.length > 1 ? "strong" : "em", c: parse(a, j) }, end);
          continue scan;
        }
      } else if (c === "[") {
        const close = bracket(i + 1);
        const end = s[close + 1] === "(" && s[close + 2] !== ")" ? endOfUrl(close + 2) : -1;
        if (close > i + 1 && end >= 0 && end < to) {
          const href = safeUrl(s.slice(close + 2, end));
          const label = parse(i + 1, close);
          push(href ? { t: "a", href, c: label } : label, end + 1);
          continue;
        }
      }
      i++;
    }
    if (last < to) out.push({ t: "text", v: s.slice(last, to) });
    return out;
  };
  return parse(0, s.length);
}

/** `el.append(...nodes)` without spreading: a hostile line can make more nodes than a call takes. */
function appendAll(el: Node, nodes: ChildNode[]): void {
  for (const node of nodes) el.appendChild(node);
}

function inlineNodes(nodes: Inline[]): ChildNode[] {
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
    if (n.t !== "br") appendAll(el, inlineNodes(n.c));
    return el;
  });
}

const itemNode = (item: Inline[]) => {
  const li = document.createElement("li");
  appendAll(li, inlineNodes(item));
  return li;
};

export function toNodes(blocks: Block[]): HTMLElement[] {
  return blocks.map((b) => {
    const el = document.createElement(b.t);
    appendAll(el, b.t === "p" ? inlineNodes(b.c) : b.items.map(itemNode));
    return el;
  });
}

/**
 * Draws a text that only grows (an answer while it streams) into `el`, at a cost proportional to
 * what arrived: each complete line is parsed and drawn once; only the unfinished last line is
 * drawn again on each call. The result is what `toNodes(parseBlocks(text))` draws.
 */
export function markdownStream(el: HTMLElement): (text: string) => void {
  el.replaceChildren();
  const b: Builder = { blocks: [] };
  /** The element drawn for each block, and how many of its inlines (or items) it shows. */
  const drawn: [HTMLElement, number][] = [];
  let done = 0;
  let tail: ChildNode[] = [];
  return (text) => {
    for (const node of tail) node.remove();
    const end = text.lastIndexOf("\n") + 1;
    for (const line of text.slice(done, end).split(/\r?\n/).slice(0, -1)) addLine(b, line);
    done = Math.max(done, end);
    for (let i = Math.max(0, drawn.length - 1); i < b.blocks.length; i++) {
      const block = b.blocks[i]!;
      const d = (drawn[i] ??= [el.appendChild(document.createElement(block.t)), 0]);
      const parts: unknown[] = block.t === "p" ? block.c : block.items;
      appendAll(
        d[0],
        block.t === "p" ? inlineNodes(block.c.slice(d[1])) : block.items.slice(d[1]).map(itemNode),
      );
      d[1] = parts.length;
    }
    // The unfinished line, parsed as if it went on the open block, drawn as a removable tail.
    const t: Builder = {
      blocks: [],
      para: b.para && [],
      list: b.list && { t: b.list.t, items: [] },
    };
    addLine(t, text.slice(done));
    tail = t.blocks.length
      ? toNodes(t.blocks)
      : t.para
        ? inlineNodes(t.para)
        : (t.list?.items.map(itemNode) ?? []);
    appendAll(t.blocks.length ? el : (drawn.at(-1)?.[0] ?? el), tail);
  };
}
