/**
 * Product cards in the chat (chat-products.js, loaded with the first card): picture, name,
 * price and availability, and "Add to cart" through the shop's own cart (./cart). A product
 * with several variants offers a choice first; one that cannot be bought says so and offers no
 * button. The variants come from the index (`variants: [{id, title, price, available}]`, sent
 * by app/catalog/map-product.ts) and are checked here like everything the service sends.
 */
import { addToCart } from "./cart";
import { list, obj, text } from "./data";
import { h } from "./dom";
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
  available: boolean;
}

/** The variants the index sent, those with a numeric id (what the cart takes). */
export function toVariants(raw: unknown): Variant[] {
  return list(raw)
    .map(obj)
    .map((v) => ({
      id: String(v.id ?? ""),
      title: text(v.title),
      price: typeof v.price === "number" && Number.isFinite(v.price) ? v.price : undefined,
      available: v.available !== false,
    }))
    .filter((v) => /^\d{1,20}$/.test(v.id));
}

function card(item: ProductItem, l: ProductLabels, price: (n: number) => string): HTMLElement {
  const stock = item.stock as keyof ProductLabels | undefined;
  const content = [
    // Without a picture, an empty frame of the same size keeps the cards' names in line.
    item.image
      ? h("img", { src: item.image, alt: "", loading: "lazy" })
      : h("span", { class: "no-image", "aria-hidden": "true" }),
    h("span", { class: "name" }, item.name),
    item.price !== undefined && h("span", { class: "price" }, price(item.price)),
    stock && stock in PRODUCT_LABELS && h("span", { class: `stock ${stock}` }, l[stock]),
  ];
  const li = h("li", { class: "card" }, h(item.url ? "a" : "div", { href: item.url }, ...content));
  const variants = toVariants(item.variants);
  const buyable = variants.filter((v) => v.available);
  if (stock === "outofstock" || !buyable.length) return li;

  const note = h("p", { class: "note", role: "status" });
  const choice =
    variants.length > 1
      ? h(
          "select",
          { "aria-label": `${l.chooseOption}: ${item.name}` },
          h("option", { value: "" }, l.chooseOption),
          ...variants.map((v) =>
            h(
              "option",
              { value: v.id, disabled: !v.available },
              [
                v.title || v.id,
                v.price !== undefined && price(v.price),
                !v.available && l.outofstock,
              ]
                .filter(Boolean)
                .join(" · "),
            ),
          ),
        )
      : undefined;
  const button = h("button", { type: "button", class: "btn primary" }, l.addToCart);
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

export function fillCards(
  list: HTMLElement,
  items: ProductItem[],
  labels: Labels,
  price: (n: number) => string,
): void {
  const root = list.getRootNode() as ParentNode;
  if (!root.querySelector?.("style.products")) {
    (root instanceof ShadowRoot ? root : list).append(h("style", { class: "products" }, css));
  }
  const l = { ...PRODUCT_LABELS, ...(labels as Partial<ProductLabels>) };
  list.append(...items.map((item) => card(item, l, price)));
}
