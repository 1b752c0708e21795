/**
 * How the admin writes moments, days and numbers: one formatter per admin language, in UTC, so
 * the server's render and the browser's agree and the Inbox and the Dashboard read alike
 * ("22 Nov 2026, 17:05 UTC" in en-GB, "22. Nov. 2026, 17:05 UTC" in de). The words around them
 * stay English: only dates and numbers follow the admin's locale.
 */

/** The admin's locale when Shopify did not name one (the offline demo, a tool's request). */
export const DEFAULT_LOCALE = "en-GB";

/** The cookie that keeps Shopify's `locale` for the requests that do not carry it. */
export const LOCALE_COOKIE = "admin_locale";

export interface AdminFormat {
  locale: string;
  /** "22 Nov 2026, 17:05 UTC" */
  moment(moment: Date | string): string;
  /** A calendar day, such as a quota's reset: "1 Dec 2026", as `moment` writes its day. */
  day(moment: Date | string): string;
  /** A chart's axis tick: "20 Nov". */
  tick(moment: Date | string): string;
  /** "1,000" (en), "1.000" (de). */
  number(value: number): string;
  /** "1 item", "3 items": a count with its noun in the right number. */
  count(count: number, singular: string, plural?: string): string;
}

const formats = new Map<string, AdminFormat>();

/** The formatter of a locale (an unknown or malformed one falls back to en-GB). */
export function adminFormat(locale: string = DEFAULT_LOCALE): AdminFormat {
  const tag = supportedLocale(locale) ?? DEFAULT_LOCALE;
  let format = formats.get(tag);
  if (!format) {
    format = makeFormat(tag);
    formats.set(tag, format);
  }
  return format;
}

function makeFormat(locale: string): AdminFormat {
  const moment = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "UTC",
  });
  const day = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const tick = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale);
  return {
    locale,
    moment: (value) => `${moment.format(new Date(value))} UTC`,
    day: (value) => day.format(new Date(value)),
    tick: (value) => tick.format(new Date(value)),
    number: (value) => number.format(value),
    count: (count, singular, plural = `${singular}s`) =>
      `${number.format(count)} ${count === 1 ? singular : plural}`,
  };
}

/** A BCP 47 tag Intl can format, canonical ("de", "pt-BR"), or null. */
function supportedLocale(value: string | null | undefined): string | null {
  if (!value || value.length > 35) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf([canonical]).length > 0
      ? canonical
      : null;
  } catch {
    return null;
  }
}

/**
 * The admin's language for a request: Shopify's `locale` query parameter (on every load of the
 * app's URL in the admin), else the one kept from it in a cookie (the app's own navigations do
 * not carry it), else en-GB.
 */
export function adminLocaleOf(request: Request): string {
  const fromUrl = supportedLocale(new URL(request.url).searchParams.get("locale"));
  if (fromUrl) return fromUrl;
  const cookie = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === LOCALE_COOKIE)?.[1];
  return supportedLocale(cookie ? decodeURIComponent(cookie) : null) ?? DEFAULT_LOCALE;
}

const en = adminFormat(DEFAULT_LOCALE);
export const formatDay = en.day;
