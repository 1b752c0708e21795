/**
 * Product cards in the chat (chat-products.js, loaded with the first card): picture, name,
 * price and availability, and "Add to cart" through the shop's own cart (./cart). A product
 * with several variants offers a choice first, and the card then shows the chosen variant: its
 * whole name, price, availability and picture (a sold-out one can be chosen, to see that it is,
 * and not added); a product that cannot be bought says so and offers no button. The variants
 * come from the index (`variants: [{id, title, price, available, image?}]`, sent
 * by app/catalogue/map-product.ts) and are checked here like everything the service sends. The
 * index sends no variant pictures, so the chosen variant's comes from the storefront itself.
 */
import { addToCart } from "./cart";
import { list, obj, text } from "./data";
import { h } from "./dom";
import { safeUrl } from "./markdown";
import { asShownHere, handleOf, storeProduct } from "./storefront";
import type { Labels } from "./labels";
import type { ProductItem } from "./model";
import css from "./styles/products.css?inline";

/** English defaults (the shop's translations come in the chat's labels). */
export const PRODUCT_LABELS = {
  addToCart: "Add to cart",
  chooseOption: "Choose an option",
  chooseFirst: "Choose an option first.",
  added: "Added to your cart.",
  cartFailed: "We couldn't add this to your cart. Please try again.",
  instock: "In stock",
  onbackorder: "Available to order",
  outofstock: "Sold out",
};

export type ProductLabels = typeof PRODUCT_LABELS;

export interface Variant {
  id: string;
  title: string;
  price?: number;
  /** Its price's currency when it differs from the product's (ISO 4217). */
  currency?: string;
  available: boolean;
  /** The variant's own picture, when the index sends one (http/https only). */
  image?: string;
}

/** The variants the index sent, those with a numeric id (what the cart takes). */
export function toVariants(raw: unknown): Variant[] {
  return list(raw)
    .map(obj)
    .map((v) => ({
      // A gid ("gid://shopify/ProductVariant/41…") is the same variant as its numeric id.
      id: String(v.id ?? "").replace(/^gid:\/\/shopify\/ProductVariant\/(\d+)$/, "$1"),
      title: text(v.title),
      price: typeof v.price === "number" && Number.isFinite(v.price) ? v.price : undefined,
      currency: text(v.currency) || undefined,
      available: v.available !== false,
      image: safeUrl(obj(v.image).src ?? v.image, location.href),
    }))
    .filter((v) => /^\d{1,20}$/.test(v.id));
}

/**
 * The variants' pictures from the storefront's own product JSON (./storefront), for cards whose
 * index data has none. A failed or slow answer gives none, and the product's picture stays.
 */
async function variantPictures(url: string | undefined): Promise<Map<string, string>> {
  const handle = handleOf(url);
  const json = handle ? await storeProduct(handle) : undefined;
  return new Map(
    list(json?.variants)
      .map(obj)
      .map((v) => [String(v.id), safeUrl(obj(v.featured_image).src, location.href)])
      .filter((e): e is [string, string] => !!e[1]),
  );
}

const picture = (src: string | undefined) =>
  src
    ? h("img", { src, alt: "", loading: "lazy" })
    : // Without a picture, an empty frame of the same size keeps the cards' names in line.
      h("span", { class: "no-image", "aria-hidden": "true" });

function card(
  item: ProductItem,
  l: ProductLabels,
  price: (n: number, currency?: string) => string,
): HTMLElement {
  const stock = item.stock as keyof ProductLabels | undefined;
  let image = picture(item.image);
  // The chosen variant's whole name (a closed list cuts long ones), its price and availability.
  const chosen = h("span", { class: "variant" });
  const priceEl = h(
    "span",
    { class: "price" },
    item.price !== undefined && price(item.price, item.currency),
  );
  const stockEl = h(
    "span",
    { class: stock ? `stock ${stock}` : "stock" },
    stock && stock in PRODUCT_LABELS && l[stock],
  );
  const content = [image, h("span", { class: "name" }, item.name), chosen, priceEl, stockEl];
  const li = h("li", { class: "card" }, h(item.url ? "a" : "div", { href: item.url }, ...content));
  const variants = toVariants(item.variants);
  const buyable = variants.filter((v) => v.available);
  if (stock === "outofstock" || !buyable.length) return li;

  const note = h("p", { class: "note", role: "status" });
  const button = h("button", { type: "button", class: "btn primary" }, l.addToCart);
  const choice =
    variants.length > 1
      ? h(
          "select",
          { "aria-label": `${l.chooseOption}: ${item.name}` },
          h("option", { value: "" }, l.chooseOption),
          ...variants.map((v) =>
            h(
              "option",
              { value: v.id },
              [
                v.title || v.id,
                v.price !== undefined && price(v.price, v.currency ?? item.currency),
                !v.available && l.outofstock,
              ]
                .filter(Boolean)
                .join(" · "),
            ),
          ),
        )
      : undefined;
  choice?.addEventListener("change", () => {
    const v = variants.find((variant) => variant.id === choice.value);
    const shown = v?.price ?? item.price;
    const shownCurrency = v?.price !== undefined ? (v.currency ?? item.currency) : item.currency;
    const state = v ? (v.available ? "instock" : "outofstock") : stock;
    chosen.textContent = v?.title ?? "";
    priceEl.textContent = shown !== undefined ? price(shown, shownCurrency) : "";
    stockEl.className = state ? `stock ${state}` : "stock";
    stockEl.textContent = state && state in PRODUCT_LABELS ? l[state as keyof ProductLabels] : "";
    const show = (src: string | undefined) => {
      const next = picture(src ?? item.image);
      if (next.getAttribute("src") !== image.getAttribute("src")) {
        image.replaceWith(next);
        image = next;
      }
    };
    show(v?.image);
    if (v && !v.image) {
      void variantPictures(item.url).then((pictures) => {
        // Only if the shopper has not chosen another variant meanwhile.
        if (choice.value === v.id) show(pictures.get(v.id));
      });
    }
    button.disabled = !!v && !v.available;
    note.textContent = "";
  });
  button.addEventListener("click", async () => {
    const id = choice ? choice.value : buyable[0]!.id;
    if (!id) {
      note.textContent = l.chooseFirst;
      return choice?.focus();
    }
    button.disabled = true;
    note.textContent = "";
    const result = await addToCart(id);
    note.textContent = result.ok ? l.added : result.message || l.cartFailed;
    button.disabled = false;
  });
  li.append(...[choice, button, note].filter((n) => !!n));
  return li;
}

export async function fillCards(
  list: HTMLElement,
  items: ProductItem[],
  labels: Labels,
  price: (n: number, currency?: string) => string,
): Promise<void> {
  const root = list.getRootNode() as ParentNode;
  if (!root.querySelector?.("style.products")) {
    (root instanceof ShadowRoot ? root : list).append(h("style", { class: "products" }, css));
  }
  const l = { ...PRODUCT_LABELS, ...(labels as Partial<ProductLabels>) };
  // On a language or market subfolder, as the storefront there shows them (decision 0044).
  const shown = await Promise.all(items.map(asShownHere));
  list.append(...shown.filter((item) => !!item).map((item) => card(item, l, price)));
}
