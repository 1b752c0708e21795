/** A tiny element builder: attributes and children, text always as Text nodes. */
export type Child = Node | string | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child);
  }
  return el;
}

/** Ids unique within the widget's shadow root (whichever asset makes them). */
export function uid(prefix: string): string {
  return prefix + Math.random().toString(36).slice(2);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A decorative 24×24 line icon from one path. */
export function icon(path: string, size = 20): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  const p = document.createElementNS(SVG_NS, "path");
  for (const [k, v] of Object.entries({
    viewBox: "0 0 24 24",
    width: size,
    height: size,
    "aria-hidden": "true",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": 2,
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
  })) {
    svg.setAttribute(k, String(v));
  }
  p.setAttribute("d", path);
  svg.append(p);
  return svg;
}

export const ICONS = {
  close: "M6 6l12 12M18 6 6 18",
  send: "M4 12h15M13 6l6 6-6 6",
  stop: "M7 7h10v10H7z",
  /** Thumb up; drawn upside down for thumb down. */
  thumb: "M7 11v10H3V11zm0 0 4-8c2 0 3 1 3 3v3h6l-2 12H7",
};
