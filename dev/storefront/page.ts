/**
 * The fake storefront's HTML. The widget markup is what blocks/chat-widget.liquid renders (same
 * data attributes, same labels JSON from the extension's locales, the launcher with `defer`), so
 * the browser tests exercise the widget exactly as a theme would load it. The page's own styles
 * are deliberately hostile, to show that nothing of the theme reaches into the widget.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CART_ICON_SECTION, cartIconInner } from "./fake-cart";

const EXTENSION_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../extensions/chat-widget",
);

/** What the app embed block's settings and the shop give the block. */
export interface WidgetSettings {
  title: string;
  greeting: string;
  accent: string;
  position: "bottom-right" | "bottom-left";
  /** One per line, as the merchant types them in the theme editor. */
  prompts: string;
  locale: string;
  currency: string;
}

export const DEFAULT_SETTINGS: WidgetSettings = {
  title: "",
  greeting: "",
  accent: "#1f4fd1",
  position: "bottom-right",
  prompts: "Do you have café mugs?\nWhat are your shipping options?",
  locale: "en",
  currency: "EUR",
};

export interface ServiceConfig {
  apiUrl: string;
  publishableKey: string;
  workspaceId: string;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** The texts of a block's locale section ("chat_widget" or "search_box") for a locale. */
function localeLabels(locale: string, section: string): Record<string, string> {
  const file = (code: string) => path.join(EXTENSION_DIR, "locales", `${code}.json`);
  let raw: string;
  try {
    raw = readFileSync(file(locale.split("-")[0] ?? "en"), "utf8");
  } catch {
    raw = readFileSync(file("en.default"), "utf8");
  }
  const parsed = JSON.parse(raw) as Record<string, { labels: Record<string, string> }>;
  return parsed[section]!.labels;
}

/** The labels JSON the block's snippet renders for a locale (English when unknown). */
export function labelsJson(locale: string): string {
  return JSON.stringify(localeLabels(locale, "chat_widget"));
}

/**
 * The markup of blocks/search-box.liquid with the metafield filled in: the theme's own search
 * form, and the inline loader that fetches chat-search.js when the shopper first moves into it.
 */
export function searchMarkup(
  service: ServiceConfig,
  locale: string,
  currency: string,
  assetBase = "/assets",
): string {
  const texts = localeLabels(locale, "search_box");
  const { label, placeholder, submit, ...labels } = texts;
  const attrs: Record<string, string> = {
    class: "catalog-search",
    "data-api-url": service.apiUrl,
    "data-publishable-key": service.publishableKey,
    "data-workspace-id": service.workspaceId,
    "data-locale": locale,
    "data-currency": currency,
    "data-labels": JSON.stringify(labels),
    "data-search-src": `${assetBase}/chat-search.js`,
  };
  const list = Object.entries(attrs)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join("");
  return `<div data-catalog-search${list}>
      <form action="/search" method="get" role="search">
        <label for="CatalogSearch-header">${escapeHtml(label ?? "Search")}</label>
        <input id="CatalogSearch-header" type="search" name="q" value="" placeholder="${escapeHtml(placeholder ?? "")}">
        <button type="submit">${escapeHtml(submit ?? "Search")}</button>
      </form>
      <script>
        (function (root) {
          function load() {
            root.removeEventListener('focusin', load);
            var script = document.createElement('script');
            script.src = root.dataset.searchSrc;
            document.head.appendChild(script);
          }
          root.addEventListener('focusin', load);
        })(document.currentScript.parentElement);
      </script>
    </div>`;
}

/** The markup of blocks/chat-widget.liquid with the metafield and settings filled in. */
export function widgetMarkup(
  service: ServiceConfig,
  s: WidgetSettings,
  assetBase = "/assets",
): string {
  const attrs: Record<string, string> = {
    "data-api-url": service.apiUrl,
    "data-publishable-key": service.publishableKey,
    "data-workspace-id": service.workspaceId,
    "data-locale": s.locale,
    "data-currency": s.currency,
    "data-title": s.title,
    "data-greeting": s.greeting,
    "data-accent": s.accent,
    "data-position": s.position,
    "data-prompts": s.prompts,
    "data-labels": labelsJson(s.locale),
    "data-chat-src": `${assetBase}/chat-widget.js`,
    "data-offer-src": `${assetBase}/chat-offer.js`,
    "data-products-src": `${assetBase}/chat-products.js`,
    "data-css-src": `${assetBase}/chat-widget.css`,
  };
  const list = Object.entries(attrs)
    .map(([name, value]) => `\n    ${name}="${escapeHtml(value)}"`)
    .join("");
  return (
    `<div\n    data-chat-widget${list}\n  ></div>\n` +
    `  <script src="${assetBase}/chat-launcher.js" defer="defer"></script>`
  );
}

const THEME_CSS = `
  * { box-sizing: content-box; }
  body { margin: 0; font: 18px/1.6 Georgia, serif; color: #222; background: #faf7f2; }
  header, main, footer { max-width: 760px; margin: 0 auto; padding: 24px; }
  nav a { margin-right: 16px; color: #8a3b12; }
  /* Hostile rules a theme might have: none of them may reach the widget. */
  div { letter-spacing: 0.1em; }
  button { all: unset; background: hotpink !important; color: yellow !important; font-size: 40px; }
  textarea, input { border: 4px dashed red; font-size: 30px; }
  p { text-transform: uppercase; }
  [role="dialog"] { display: none !important; }
  svg { width: 200px !important; height: 200px !important; }
  /* The theme's own header search (the search box block's form), styled as themes style theirs. */
  .catalog-search form { display: flex; gap: 8px; align-items: center; margin-top: 12px; }
  .catalog-search input { font-size: 16px; border-width: 1px; }
  .catalog-search button { font-size: 16px; padding: 4px 12px; background: #222 !important; color: #fff !important; }
`;

/** The shop's side of the page: its root for the locale, and its cart (./fake-cart). */
export interface ShopOptions {
  /** `window.Shopify.routes.root`: "/" or a locale's root such as "/fr/". */
  root: string;
  /** `window.Shopify.currency.active`: the presentment currency, when the page says it. */
  currency?: string;
  cartCount: number;
  /**
   * "sections" (the default): the cart icon is Dawn's `#cart-icon-bubble`, redrawn by section
   * rendering; "events": a theme that only listens for `cart:refresh` and reads /cart.js.
   */
  cartTheme: "sections" | "events";
}

const DEFAULT_SHOP: ShopOptions = { root: "/", cartCount: 0, cartTheme: "sections" };

function shopMarkup(shop: ShopOptions): { head: string; cart: string } {
  const globals = {
    routes: { root: shop.root },
    ...(shop.currency ? { currency: { active: shop.currency } } : {}),
  };
  const head = `<script>window.Shopify = ${JSON.stringify(globals).replace(/</g, "\\u003c")};</script>`;
  if (shop.cartTheme === "sections") {
    return {
      head,
      cart: `<a href="/cart" id="${CART_ICON_SECTION}">${cartIconInner(shop.cartCount)}</a>`,
    };
  }
  const listener = `<script>document.addEventListener("cart:refresh", async () => {
    const cart = await (await fetch(window.Shopify.routes.root + "cart.js")).json();
    document.querySelector("[data-cart-count]").textContent = cart.item_count;
  });</script>`;
  return {
    head: head + listener,
    cart: `<a href="/cart">Cart <span class="cart-count" data-cart-count>${shop.cartCount}</span></a>`,
  };
}

export interface PageOptions {
  title: string;
  body: string;
  lang: string;
  widget?: string;
  shop?: ShopOptions;
  /** The search box block's markup, in the header (./searchMarkup). */
  search?: string;
  /** The shop's pages, linked in the header (Home first). */
  pages?: PreviewPages;
  /** Hosts whose links open the same path here (./server `shopDomains`). */
  shopDomains?: string[];
}

export type PreviewPages = Record<string, { title: string; body: string }>;

export function page({
  title,
  body,
  lang,
  widget,
  shop = DEFAULT_SHOP,
  search = "",
  pages = PAGES,
  shopDomains = [],
}: PageOptions): string {
  const { head, cart } = shopMarkup(shop);
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} – Preview storefront</title>
  <style>${THEME_CSS}</style>
  ${head}
</head>
<body>
  <header>
    <nav aria-label="Main">${Object.entries(pages)
      .map(([href, link]) => `<a href="${escapeHtml(href)}">${escapeHtml(link.title)}</a>`)
      .join("")}${cart}</nav>
    ${search}
  </header>
  <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </main>
  <footer><p>Preview storefront for the chat widget.</p></footer>
  ${widget ?? ""}
  ${shopDomains.length ? ownLinksHere(shopDomains) : ""}
</body>
</html>
`;
}

export const PAGES: PreviewPages = {
  "/": {
    title: "Home",
    body: "<p>Welcome to the preview shop. Hand-made ceramics, roasted coffee and more.</p>",
  },
  "/products/cafe-mug": {
    title: "Café mug",
    body: "<p>A stoneware mug for your morning café au lait.</p><p>€18.00</p>",
  },
  "/pages/shipping": {
    title: "Shipping",
    body: "<p>We ship within 2 working days.</p>",
  },
};

/**
 * On the real store the chat runs on the store's own domain, so its product links open there; the
 * preview is on loopback, so a click on a link to the store's domain (inside the widget's open
 * shadow root too: composedPath) opens the same path in the preview instead.
 */
function ownLinksHere(hosts: string[]): string {
  return `<script>(() => {
  const hosts = ${JSON.stringify(hosts).replace(/</g, "\\u003c")};
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    const link = event.composedPath().find((node) => node instanceof HTMLAnchorElement && node.href);
    if (!link || !hosts.includes(new URL(link.href).hostname)) return;
    event.preventDefault();
    const { pathname, search, hash } = new URL(link.href);
    location.assign(pathname + search + hash);
  }, true);
})();</script>`;
}
