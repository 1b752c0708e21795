/** The shop the browser tests and the benchmark seed into the emulator. */
import type { CartCatalogue } from "../dev/storefront/fake-cart";

export const WORKSPACE_ID = "preview-shop-example-com";
export const SECRET_KEY = "svc_sk_test_enterprise";
export const PUBLISHABLE_KEY = "svc_pk_test_enterprise";

/** A variant name longer than a card is wide (a closed list cuts it; the card must not). */
export const FAMILY_DISH = "Family size, 24 cm, glazed in forest green with a matching lid";

export const PRODUCTS = [
  {
    id: "p-cafe-mug",
    name: "Café mug",
    price: 18,
    url: "/products/cafe-mug",
    image: "/images/cafe-mug.svg",
    categories: ["Mugs"],
    content: "A stoneware mug for café au lait.",
    stock_status: "instock",
    variants: [{ id: "41000000001", title: "", price: 18, available: true }],
  },
  {
    id: "p-creme-dish",
    name: "Crème brûlée dish",
    price: 24.5,
    url: "/products/creme-dish",
    image: { src: "/images/creme-dish.svg" },
    categories: ["Dishes"],
    content: "A small café-style ramekin.",
    stock_status: "instock",
    variants: [
      {
        id: "41000000011",
        title: "Small",
        price: 24.5,
        available: true,
      },
      {
        // The index may send a gid: the same variant as its numeric id.
        id: "gid://shopify/ProductVariant/41000000012",
        title: "Large",
        price: 29,
        available: true,
      },
      { id: "41000000013", title: FAMILY_DISH, price: 39, available: false },
    ],
  },
  {
    id: "p-espresso",
    name: "Espresso cup ☕",
    price: 12,
    url: "https://example.com/products/espresso",
    categories: ["Cups"],
    content: "Café espresso cup.",
    stock_status: "instock",
    variants: [{ id: "41000000021", title: "", price: 12, available: true }],
  },
  {
    id: "p-teapot",
    name: "Stoneware teapot",
    price: 45,
    url: "/products/teapot",
    categories: ["Teapots"],
    content: "A teapot for green tea.",
    stock_status: "outofstock",
    variants: [{ id: "41000000031", title: "", price: 45, available: false }],
  },
];

/**
 * The preview's fake cart for those variants: the espresso cup has 2 left (a third is refused
 * with the store's own message), the teapot none. The sold-out dish variant is there too, so a
 * request for it gets the store's answer rather than "Cannot find variant". The dish's variant
 * pictures are the store's only (`/products/creme-dish.js`): the index sends none, as the app's.
 */
export const CART: CartCatalogue = {
  "41000000001": { product: "Café mug", title: "", price: 18, handle: "cafe-mug" },
  "41000000011": {
    product: "Crème brûlée dish",
    title: "Small",
    price: 24.5,
    handle: "creme-dish",
    image: "/images/small-dish.svg",
  },
  "41000000012": {
    product: "Crème brûlée dish",
    title: "Large",
    price: 29,
    handle: "creme-dish",
    image: "/images/large-dish.svg",
  },
  "41000000013": {
    product: "Crème brûlée dish",
    title: FAMILY_DISH,
    price: 39,
    inventory: 0,
    handle: "creme-dish",
  },
  "41000000021": { product: "Espresso cup ☕", title: "", price: 12, inventory: 2 },
  "41000000031": { product: "Stoneware teapot", title: "", price: 45, inventory: 0 },
};

export const POSTS = [
  {
    id: "post-roasting",
    title: "How we roast our café beans",
    url: "/blogs/news/roasting",
    excerpt: "Slow roasting, small batches.",
    content: "Our café beans are roasted slowly in small batches for a rounder taste.",
    post_type: "article",
  },
];

/** Seeds the workspace over HTTP with the secret key, as the app's sync would. */
export async function seed(apiUrl: string): Promise<void> {
  const headers = {
    Authorization: `Bearer ${SECRET_KEY}`,
    "Content-Type": "application/json",
    "X-Workspace-ID": WORKSPACE_ID,
  };
  for (const [path, body] of [
    ["/products/bulk", { products: PRODUCTS }],
    ["/posts/bulk", { posts: POSTS }],
  ] as const) {
    const res = await fetch(apiUrl + path, { method: "POST", headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
  }
}
