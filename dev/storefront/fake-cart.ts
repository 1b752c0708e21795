/**
 * A fake of Shopify's Ajax Cart API for the preview storefront, answering as the real one does
 * (https://shopify.dev/docs/api/ajax/reference/cart), errors included:
 *   POST {root}cart/add.js  {items: [{id, quantity}]} or {id, quantity}; `sections` (comma list)
 *                           returns those sections' HTML, as section rendering does
 *   GET  {root}cart.js      the cart
 *   GET  {root}products/{handle}.js  the product's variants (Ajax API product: price in cents,
 *                           `available`, `featured_image: {src}` or null), for variants with a handle
 * where {root} is "/" or a locale's root ("/fr/", "/en-ca/"). One cart per browser (a `cart`
 * cookie). Errors: 422 `{status, message: "Cart Error", description}` for a sold-out variant or
 * more than its inventory ("You can only add 2 of this item to your cart"), 404 for an unknown
 * variant, 400 for a body that is not a cart request.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readText, sendJson } from "../http";

export interface CartVariant {
  product: string;
  title: string;
  /** In the shop's currency, e.g. 18.5. */
  price: number;
  /** How many a cart may hold; unlimited when absent. 0 is sold out. */
  inventory?: number;
  /** The product's handle: the variant is in `{root}products/{handle}.js`. */
  handle?: string;
  /** The variant's own picture (its `featured_image`). */
  image?: string;
}

/** Variant id → variant. Without a catalogue every numeric id is an unlimited "Item <id>". */
export type CartCatalogue = Record<string, CartVariant>;

/** The store's variants now: a catalogue, or a function read at every request (a live store). */
export type CartCatalogueSource = CartCatalogue | (() => CartCatalogue);

interface Line {
  id: number;
  quantity: number;
  variant: CartVariant;
}

/** The theme's cart icon section (Dawn's id), rendered for the page and for section rendering. */
export const CART_ICON_SECTION = "cart-icon-bubble";

const ROOT = /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?/i;

export function cartIconInner(count: number): string {
  return `Cart <span class="cart-count" aria-label="${count} ${count === 1 ? "item" : "items"}">${count}</span>`;
}

export class FakeCart {
  private readonly carts = new Map<string, Line[]>();

  constructor(private readonly catalogue?: CartCatalogueSource) {}

  /** The path without the locale root when it is a cart route, else undefined. */
  static route(pathname: string): "add" | "cart" | undefined {
    const rest = pathname.replace(ROOT, "/");
    return rest === "/cart/add.js" ? "add" : rest === "/cart.js" ? "cart" : undefined;
  }

  /** The product handle when the path is `{root}products/{handle}.js`, else undefined. */
  static productRoute(pathname: string): string | undefined {
    return /^\/products\/([^/]+)\.js$/.exec(pathname.replace(ROOT, "/"))?.[1];
  }

  /** The product as Shopify's Ajax API gives it (the fields the widget reads), 404 if unknown. */
  product(res: ServerResponse, handle: string, here: { title?: string } = {}): void {
    const catalogue = typeof this.catalogue === "function" ? this.catalogue() : this.catalogue;
    const variants = Object.entries(catalogue ?? {}).filter(([, v]) => v.handle === handle);
    if (!variants.length) return sendJson(res, 404, { status: 404, message: "Not Found" });
    const cents = (price: number) => Math.round(price * 100);
    sendJson(res, 200, {
      handle,
      title: here.title ?? variants[0]![1].product,
      price: Math.min(...variants.map(([, v]) => cents(v.price))),
      available: variants.some(([, v]) => v.inventory !== 0),
      variants: variants.map(([id, v]) => ({
        id: Number(id),
        title: v.title || "Default Title",
        price: cents(v.price),
        available: v.inventory !== 0,
        featured_image: v.image ? { src: v.image } : null,
      })),
    });
  }

  count(req: IncomingMessage): number {
    return (this.carts.get(tokenOf(req) ?? "") ?? []).reduce((n, line) => n + line.quantity, 0);
  }

  async handle(req: IncomingMessage, res: ServerResponse, route: "add" | "cart"): Promise<void> {
    let token = tokenOf(req);
    if (!token || !this.carts.has(token)) {
      token = randomBytes(8).toString("hex");
      this.carts.set(token, []);
      res.setHeader("Set-Cookie", `cart=${token}; Path=/; SameSite=Lax`);
    }
    const lines = this.carts.get(token)!;
    if (route === "cart") {
      if (req.method !== "GET")
        return sendJson(res, 405, { status: 405, message: "Method Not Allowed" });
      return sendJson(res, 200, cartJson(lines));
    }
    if (req.method !== "POST")
      return sendJson(res, 405, { status: 405, message: "Method Not Allowed" });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readText(req, 64 * 1024)) as Record<string, unknown>;
    } catch {
      return cartError(res, 400, "Parameter Missing or Invalid");
    }
    const requested = Array.isArray(body.items) ? body.items : [body];
    const added: Line[] = [];
    for (const entry of requested as Record<string, unknown>[]) {
      const id = Number(entry?.id);
      const quantity = entry?.quantity === undefined ? 1 : Number(entry.quantity);
      if (!Number.isSafeInteger(id) || id <= 0 || !Number.isSafeInteger(quantity) || quantity < 1) {
        return cartError(res, 400, "Parameter Missing or Invalid");
      }
      const catalogue = typeof this.catalogue === "function" ? this.catalogue() : this.catalogue;
      const variant = catalogue
        ? catalogue[String(id)]
        : { product: `Item ${id}`, title: "", price: 10 };
      if (!variant) return cartError(res, 404, "Cannot find variant");
      const line = lines.find((l) => l.id === id);
      const inCart = line?.quantity ?? 0;
      if (variant.inventory === 0) {
        return cartError(res, 422, `The product '${variant.product}' is already sold out.`);
      }
      if (variant.inventory !== undefined && inCart + quantity > variant.inventory) {
        return cartError(
          res,
          422,
          `You can only add ${variant.inventory} of this item to your cart`,
        );
      }
      if (line) line.quantity += quantity;
      else lines.push({ id, quantity, variant });
      added.push({ id, quantity, variant });
    }
    const sections = typeof body.sections === "string" ? body.sections.split(",") : [];
    const count = lines.reduce((n, line) => n + line.quantity, 0);
    const rendered: Record<string, string | null> = {};
    for (const name of sections.map((s) => s.trim()).filter(Boolean)) {
      rendered[name] =
        name === CART_ICON_SECTION
          ? `<div id="shopify-section-${name}" class="shopify-section">${cartIconInner(count)}</div>`
          : null;
    }
    sendJson(res, 200, {
      items: added.map(lineJson),
      ...(sections.length ? { sections: rendered } : {}),
    });
  }
}

function tokenOf(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)cart=([0-9a-f]+)/.exec(req.headers.cookie ?? "")?.[1];
}

function lineJson(line: Line) {
  const title = line.variant.title
    ? `${line.variant.product} - ${line.variant.title}`
    : line.variant.product;
  return {
    id: line.id,
    variant_id: line.id,
    quantity: line.quantity,
    title,
    product_title: line.variant.product,
    variant_title: line.variant.title || null,
    // Shopify's Ajax API gives prices in the currency's minor unit.
    price: Math.round(line.variant.price * 100),
    line_price: Math.round(line.variant.price * 100) * line.quantity,
  };
}

function cartJson(lines: Line[]) {
  const items = lines.map(lineJson);
  return {
    item_count: items.reduce((n, item) => n + item.quantity, 0),
    total_price: items.reduce((n, item) => n + item.line_price, 0),
    items,
  };
}

function cartError(res: ServerResponse, status: number, description: string): void {
  sendJson(res, status, { status, message: "Cart Error", description });
}
