// Loads the library and its runtime adapter, which sets the fetch this module then wraps.
import "@shopify/shopify-app-remix/server";
import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";

/** Shop domain → the origin that answers its Admin API instead of https://<shop>. */
const routes = new Map<string, string>();
let installed = false;

/**
 * Sends Shopify's library's requests for `https://<shopDomain>/…` to `adminApiUrl`'s origin,
 * path unchanged (`/admin/api/<version>/graphql.json`): the offline demo's and the tests' way to
 * put a local fake Admin API behind the very client production uses. Every other request goes
 * where the library would have sent it. The library keeps the fetch it had when it loaded, so
 * this replaces that fetch (its runtime's `setAbstractFetchFunc`), once, after its adapter set it.
 */
export function routeShopAdminApi(shopDomain: string, adminApiUrl: string): void {
  routes.set(shopDomain.toLowerCase(), new URL(adminApiUrl).origin);
  if (installed) return;
  const library = abstractFetch;
  setAbstractFetchFunc((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const origin = url.protocol === "https:" ? routes.get(url.hostname) : undefined;
    if (!origin) return library(input, init);
    const target = new URL(url.pathname + url.search, origin);
    return input instanceof Request
      ? library(new Request(target, input), init)
      : library(target, init);
  });
  installed = true;
}
