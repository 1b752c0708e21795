/** The shop the browser tests and the benchmark seed into the emulator. */
export const WORKSPACE_ID = "preview-shop-example-com";
export const SECRET_KEY = "svc_sk_test_enterprise";
export const PUBLISHABLE_KEY = "svc_pk_test_enterprise";

export const PRODUCTS = [
  {
    id: "p-cafe-mug",
    name: "Café mug",
    price: 18,
    url: "/products/cafe-mug",
    image: "/images/cafe-mug.svg",
    categories: ["Mugs"],
    content: "A stoneware mug for café au lait.",
  },
  {
    id: "p-creme-dish",
    name: "Crème brûlée dish",
    price: 24.5,
    url: "/products/creme-dish",
    image: { src: "/images/creme-dish.svg" },
    categories: ["Dishes"],
    content: "A small café-style ramekin.",
  },
  {
    id: "p-espresso",
    name: "Espresso cup ☕",
    price: 12,
    url: "https://example.com/products/espresso",
    categories: ["Cups"],
    content: "Café espresso cup.",
  },
];

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
