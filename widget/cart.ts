/**
 * The storefront's own cart: Shopify's Ajax Cart API (`POST {root}cart/add.js`), relative to the
 * shop's root and locale (`window.Shopify.routes.root`, e.g. "/fr-ca/"), so it works on every
 * theme and market. After an addition the theme's cart count is brought up to date the ways
 * themes listen for: the cart icon section redrawn from the store's own answer (section rendering,
 * as Dawn does for `#cart-icon-bubble`) and a `cart:refresh` event on the document.
 */
import { shopRoot } from "./storefront";

/** The cart icon's section id in Dawn and the themes built on it. */
const CART_ICON_SECTION = "cart-icon-bubble";

export type CartResult = { ok: true } | { ok: false; message?: string };

export async function addToCart(variantId: string): Promise<CartResult> {
  const icon = document.getElementById(CART_ICON_SECTION);
  let res: Response;
  try {
    res = await fetch(`${shopRoot()}cart/add.js`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        items: [{ id: Number(variantId), quantity: 1 }],
        ...(icon ? { sections: CART_ICON_SECTION, sections_url: location.pathname } : {}),
      }),
    });
  } catch {
    return { ok: false };
  }
  const body = (await res.json().catch(() => ({}))) as {
    description?: unknown;
    sections?: Record<string, unknown>;
  };
  // The store's own words ("You can only add 2 of this item to your cart"), shown as text.
  if (!res.ok) {
    return {
      ok: false,
      message: typeof body.description === "string" ? body.description : undefined,
    };
  }
  const html = body.sections?.[CART_ICON_SECTION];
  if (icon && typeof html === "string") {
    // The store's own markup for its own page, as the theme itself would place it.
    const section = new DOMParser()
      .parseFromString(html, "text/html")
      .querySelector(".shopify-section");
    if (section) icon.innerHTML = section.innerHTML;
  }
  document.dispatchEvent(new CustomEvent("cart:refresh", { bubbles: true }));
  return { ok: true };
}
