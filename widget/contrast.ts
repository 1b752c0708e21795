/**
 * Colour maths for WCAG AA with any accent colour a merchant picks: the text colour on the accent
 * is black or white, whichever contrasts more (the better of the two is always at least 4.58:1),
 * and the accent used as ink on the white panel is darkened until it reaches 4.5:1.
 */
export type Rgb = [number, number, number];

const FALLBACK: Rgb = [0x1f, 0x4f, 0xd1];

/** Parses #rgb, #rrggbb (or #rrggbbaa, alpha ignored); anything else gives the default accent. */
export function parseHex(input: string | undefined): Rgb {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec((input ?? "").trim());
  if (!m || !m[1]) return FALLBACK;
  let h = m[1];
  if (h.length === 3) h = h.replace(/./g, "$&$&");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export function toHex(rgb: Rgb): string {
  return "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

/** Relative luminance (WCAG 2.x). */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/** Black or white, whichever reads better on the given background. */
export function textOn(bg: Rgb): Rgb {
  return contrast(bg, WHITE) >= contrast(bg, BLACK) ? WHITE : BLACK;
}

/** Mixes `c` toward `target` in small steps until it contrasts `min` with `against`. */
export function ensureContrast(c: Rgb, against: Rgb, min = 4.5): Rgb {
  const target = luminance(against) > 0.5 ? BLACK : WHITE;
  let out = c;
  for (let t = 0; t <= 1 && contrast(out, against) < min; t += 0.05) {
    out = c.map((v, i) => Math.round(v + (target[i]! - v) * t)) as Rgb;
  }
  return contrast(out, against) < min ? target : out;
}

export interface AccentPalette {
  /** The merchant's accent, used as a background. */
  accent: string;
  /** Text and icons drawn on the accent. */
  onAccent: string;
  /** The accent as text, links and focus rings on the white panel. */
  ink: string;
}

export function palette(accent: string | undefined): AccentPalette {
  const rgb = parseHex(accent);
  return {
    accent: toHex(rgb),
    onAccent: toHex(textOn(rgb)),
    ink: toHex(ensureContrast(rgb, WHITE)),
  };
}
