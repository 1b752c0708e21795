/**
 * Several fake Shopify stores behind the Shopify library, as DNS would put real shops: requests
 * to `https://<shop>.myshopify.com/…` go to that shop's fake Admin API on loopback instead. Only
 * the named shops are rerouted; every other request goes out unchanged.
 *
 * Call before the app's modules (or its build) are loaded: the Shopify library keeps the
 * `fetch` it finds at load time. Every shop, the offline demo's included (DEMO_ADMIN_GRAPHQL_URL,
 * rerouted by the app itself: app/shopify/admin-transport.server.ts), goes through the library's
 * own client (`unauthenticated.admin`, their stored offline session), as in production.
 */
export function routeShopHosts(fakeUrlByShop: Readonly<Record<string, string>>): void {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const fake = url.protocol === "https:" ? fakeUrlByShop[url.hostname] : undefined;
    if (!fake) return original(input, init);
    const target = new URL(url.pathname + url.search, fake);
    return input instanceof Request
      ? original(new Request(target, input), init)
      : original(target, init);
  };
}
