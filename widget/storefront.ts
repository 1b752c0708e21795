/**
 * The shop's own storefront as the shopper is on it: its root for the language and market
 * (`window.Shopify.routes.root`: "/" or a subfolder such as "/de/"), its presentment currency
 * (`window.Shopify.currency.active`) and Shopify's Ajax product JSON (`{root}products/{handle}.js`:
 * title, handle and prices in that language and currency, cents).
 *
 * A workspace holds a storefront domain's default language and prices (decision 0032). On a
 * subfolder of that domain (an alternate language, or a market's own subfolder) the product cards
 * and the search box's suggestions take their title, link and prices from the storefront itself
 * (decision 0044), so they are what the shopper's own page shows.
 */
import { list, obj, text, type Obj } from "./data";

declare global {
  interface Window {
    Shopify?: { routes?: { root?: unknown }; currency?: { active?: unknown } };
  }
}

export function shopRoot(): string {
  const root = window.Shopify?.routes?.root;
  return typeof root === "string" && root.startsWith("/") ? root.replace(/\/?$/, "/") : "/";
}

export const handleOf = (url: string | undefined): string | undefined =>
  /\/products\/([^/?#]+)/.exec(url ?? "")?.[1];

/** Handle → the storefront's answer: the product, null when it has none (404), else undefined. */
const answers = new Map<string, Promise<Obj | null | undefined>>();

export function storeProduct(handle: string): Promise<Obj | null | undefined> {
  let answer = answers.get(handle);
  if (!answer) {
    answer = fetch(`${shopRoot()}products/${handle}.js`, { signal: AbortSignal.timeout(5000) })
      .then((res) => (res.status === 404 ? null : res.ok ? res.json().then(obj) : undefined))
      .catch(() => undefined);
    answers.set(handle, answer);
  }
  return answer;
}

export interface Shown {
  name: string;
  url?: string;
  price?: unknown;
  currency?: unknown;
  variants?: unknown;
}

const cents = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? n / 100 : undefined);

/**
 * The item as the shopper's storefront shows it. At the root, the index's item as it is. On a
 * subfolder: the link in that subfolder, and the storefront's title and (where its currency is
 * known) prices, variant by variant; undefined when the storefront does not sell it there (404).
 * Without an answer (slow, failed) the index's title and prices stay, with the subfolder's link.
 */
export async function asShownHere<T extends Shown>(item: T): Promise<T | undefined> {
  const root = shopRoot();
  const handle = handleOf(item.url);
  if (root === "/" || !handle) return item;
  const json = await storeProduct(handle);
  if (json === null) return undefined;
  const url = new URL(`${root}products/${text(json?.handle) || handle}`, location.href).href;
  if (!json) return { ...item, url };
  const active = window.Shopify?.currency?.active;
  const currency = typeof active === "string" && /^[A-Z]{3}$/.test(active) ? active : undefined;
  const priced = (raw: unknown) => {
    const price = cents(raw);
    return currency && price !== undefined ? { price, currency } : {};
  };
  const own = new Map(list(json.variants).map((v) => [String(obj(v).id), obj(v)]));
  return {
    ...item,
    name: text(json.title) || item.name,
    url,
    ...priced(json.price),
    variants: list(item.variants).map((raw) => {
      const v = obj(raw);
      const here = own.get(String(v.id).replace(/^gid:\/\/shopify\/ProductVariant\//, ""));
      return here ? { ...v, title: text(here.title) || v.title, ...priced(here.price) } : v;
    }),
  };
}
