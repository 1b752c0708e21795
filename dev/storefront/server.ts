/**
 * A preview storefront on loopback: a fake shop page with the chat widget included exactly as the
 * app embed block includes it, talking to the given service (the emulator in tests and demos).
 *
 *   const preview = await startStorefrontPreview({ port: 0, emulatorUrl, publishableKey, workspaceId });
 *   // preview.url → http://127.0.0.1:<port>/
 *
 * Query parameters override the block's settings per page load: title, greeting, accent,
 * position, prompts, locale, currency; `widget=0` leaves the widget out (for baselines).
 * `/images/<name>.svg` is a generated product picture, for seeded products. The shop's cart is
 * a fake of Shopify's Ajax API (./fake-cart: `{root}cart/add.js`, `{root}cart.js`,
 * `{root}products/{handle}.js`); `root`
 * sets `window.Shopify.routes.root` (e.g. `?root=/fr/`) and `cartTheme=events` gives a theme
 * that updates its cart count on `cart:refresh` instead of by section rendering. The header
 * holds the search box block (`search=0` leaves it out); `/search?q=` is the theme's search page
 * and `/pages/contact` its contact form (where the chat sends shoppers when it cannot answer).
 * Assets are read from extensions/chat-widget/assets at each request, so a rebuild shows at once.
 * With `shopDomains`, links to the store's own domain open in the preview (`storePage` serves them);
 * with `storefrontAt`, a presence's subfolder (`/de/`) is served as Shopify does: its pages, its
 * root, locale and currency in `window.Shopify`, and `productTitle` in its product JSON.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_SETTINGS,
  PAGES,
  type PreviewPages,
  escapeHtml,
  page,
  searchMarkup,
  widgetMarkup,
  type WidgetSettings,
} from "./page";
import { closeServer, httpUrl, listen } from "../http";
import { FakeCart, type CartCatalogueSource } from "./fake-cart";

const ASSETS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../extensions/chat-widget/assets",
);

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export interface StorefrontPreviewOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The service's base URL (the emulator's). */
  emulatorUrl: string;
  publishableKey: string;
  workspaceId: string;
  /**
   * The store's saved chat configuration, read at every page view as the theme's app embed reads
   * the app's metafield; when it returns nothing, `publishableKey` and `workspaceId` are used.
   */
  savedConfig?: () =>
    | { publishableKey: string; workspaceId: string; workspaces?: Record<string, string> }
    | undefined;
  /** The shop's pages (default: the preview's café shop). */
  pages?: PreviewPages;
  /** Block settings for every page (query parameters override them per request). */
  settings?: Partial<WidgetSettings>;
  /** The fake cart's variants (./fake-cart); without them any numeric variant id is accepted. */
  cart?: CartCatalogueSource;
  /**
   * The store's own pages beyond `pages`, by path (the demo's products at /products/<handle>),
   * read at each request so that the store's edits show.
   */
  storePage?: (pathname: string, locale?: string) => { title: string; body: string } | undefined;
  /**
   * The storefront domains the preview stands for: a link to one of them (a product card, a link
   * in an answer) opens the same path in the preview instead of a domain that does not exist here.
   */
  shopDomains?: () => string[];
  /**
   * The storefront a request is on, as Shopify picks it from the host and the path's first
   * segment (a language or market subfolder such as `/de/`): its root, locale and presentment
   * currency. Without it, or when it answers nothing, a page is at the root (or `?root=`).
   */
  storefrontAt?: (host: string, pathname: string) => StorefrontAt | undefined;
  /** A product's title in a locale, for `{root}products/{handle}.js` and its page there. */
  productTitle?: (handle: string, locale: string) => string | undefined;
}

export interface StorefrontAt {
  /** "/" or the subfolder, e.g. "/de/". */
  root: string;
  locale: string;
  currency: string;
}

export interface StorefrontPreview {
  url: string;
  port: number;
  close(): Promise<void>;
}

const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as (keyof WidgetSettings)[];

function settingsFrom(base: WidgetSettings, query: URLSearchParams): WidgetSettings {
  const settings = { ...base };
  for (const name of SETTING_NAMES) {
    const value = query.get(name);
    if (value !== null) (settings as Record<string, string>)[name] = value;
  }
  return settings;
}

async function serveAsset(res: ServerResponse, name: string): Promise<void> {
  if (!/^[\w.-]+$/.test(name)) return notFound(res);
  try {
    const bytes = await readFile(path.join(ASSETS_DIR, name));
    res.writeHead(200, {
      "Content-Type": TYPES[path.extname(name)] ?? "application/octet-stream",
      "Content-Length": bytes.length,
      "Cache-Control": "no-cache",
    });
    res.end(bytes);
  } catch {
    notFound(res);
  }
}

/** A generated product picture: a tinted square with the name's initial. */
function servePicture(res: ServerResponse, name: string): void {
  const base = decodeURIComponent(name).replace(/\.svg$/, "");
  let hue = 0;
  for (const ch of base) hue = (hue * 31 + ch.codePointAt(0)!) % 360;
  // The first character whole (an emoji is two UTF-16 units: charAt would cut it into a box).
  const initial = escapeHtml([...base][0]?.toUpperCase() ?? "?");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="120" height="120">` +
    `<rect width="120" height="120" fill="hsl(${hue} 45% 82%)"/>` +
    `<text x="60" y="76" font-family="sans-serif" font-size="48" text-anchor="middle" fill="hsl(${hue} 40% 30%)">${initial}</text></svg>`;
  res.writeHead(200, { "Content-Type": "image/svg+xml", "Cache-Control": "max-age=3600" });
  res.end(svg);
}

/** The theme's contact form, as Shopify's `{% form 'contact' %}` renders it. */
const CONTACT_FORM = `<form method="post" action="/contact" class="contact-form">
  <p><label>Name <input type="text" name="contact[name]" autocomplete="name"></label></p>
  <p><label>Email <input type="email" name="contact[email]" autocomplete="email" required></label></p>
  <p><label>Message <textarea name="contact[body]"></textarea></label></p>
  <p><button type="submit">Send</button></p>
</form>`;

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Not found");
}

export async function startStorefrontPreview(
  options: StorefrontPreviewOptions,
): Promise<StorefrontPreview> {
  const base: WidgetSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const pages = options.pages ?? PAGES;
  const service = {
    apiUrl: options.emulatorUrl.replace(/\/+$/, ""),
    publishableKey: options.publishableKey,
    workspaceId: options.workspaceId,
  };
  // As the theme's embed does: a storefront domain's own workspace by the request's host
  // (`config.workspaces[request.host]`, decision 0032), else the configuration's workspace.
  // The host as the app names storefront domains: no port, no trailing dot, lower case.
  const hostOf = (req: IncomingMessage) =>
    (req.headers.host ?? "").replace(/:\d+$/, "").replace(/\.$/, "").toLowerCase();
  const current = (req: IncomingMessage) => {
    const { workspaces, ...saved } = options.savedConfig?.() ?? {};
    // Own keys only: a Host of `__proto__` or `constructor` names no storefront.
    const host = hostOf(req);
    const own = workspaces && Object.hasOwn(workspaces, host) ? workspaces[host] : undefined;
    return { ...service, ...saved, ...(own ? { workspaceId: own } : {}) };
  };
  const cart = new FakeCart(options.cart);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://preview.invalid");
    const at = options.storefrontAt?.(hostOf(req), url.pathname);
    const cartRoute = FakeCart.route(url.pathname);
    if (cartRoute) return cart.handle(req, res, cartRoute);
    const productHandle = FakeCart.productRoute(url.pathname);
    if (productHandle && req.method === "GET") {
      const title = at && options.productTitle?.(productHandle, at.locale);
      return cart.product(res, productHandle, title ? { title } : {});
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" });
      return res.end();
    }
    if (url.pathname.startsWith("/assets/")) return serveAsset(res, url.pathname.slice(8));
    if (url.pathname.startsWith("/images/")) return servePicture(res, url.pathname.slice(8));
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      return res.end();
    }
    // A subfolder's page is the same page in its language (its path without the subfolder).
    const pathname =
      at && at.root !== "/" ? url.pathname.slice(at.root.length - 1) || "/" : url.pathname;
    const query = url.searchParams.get("q") ?? "";
    // The theme's own search page: where the search box falls back to.
    const content =
      pathname === "/search"
        ? {
            title: "Search",
            body: `<p class="theme-search">Search results for “${escapeHtml(query)}”</p>`,
          }
        : pathname === "/pages/contact"
          ? { title: "Contact", body: CONTACT_FORM }
          : (pages[pathname] ?? options.storePage?.(pathname, at?.locale));
    if (!content) return notFound(res);
    const settings = settingsFrom(base, url.searchParams);
    if (at && !url.searchParams.has("locale")) settings.locale = at.locale;
    const html = page({
      ...content,
      pages,
      lang: settings.locale,
      shopDomains: options.shopDomains?.() ?? [],
      shop: {
        root:
          at?.root ??
          (/^\/([a-z]{2}(-[a-z]{2})?\/)?$/i.test(url.searchParams.get("root") ?? "")
            ? url.searchParams.get("root")!
            : "/"),
        ...(at ? { currency: at.currency } : {}),
        cartCount: cart.count(req),
        cartTheme: url.searchParams.get("cartTheme") === "events" ? "events" : "sections",
      },
      widget: url.searchParams.get("widget") === "0" ? "" : widgetMarkup(current(req), settings),
      search:
        url.searchParams.get("search") === "0"
          ? ""
          : searchMarkup(current(req), settings.locale, settings.currency),
    });
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(html);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 0, host);
  return {
    url: `${httpUrl(host, port)}/`,
    port,
    close: () => closeServer(server),
  };
}
