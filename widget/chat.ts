/**
 * The chat asset, loaded on first interaction with the launcher (or when the browser is idle).
 * It registers itself for the launcher, which mounts it into the shadow root it already owns.
 */
import { CHAT_GLOBAL, loadScript, OFFER_GLOBAL, PRODUCTS_GLOBAL } from "./bridge";
import { readConfig } from "./config";
import { mountConversation } from "./conversation";

const src = (document.currentScript as HTMLScriptElement | null)?.src || location.href;

/**
 * An asset that sits next to this one (a headless page may name it with a data attribute),
 * loaded on first use, and tried again on the next use when loading failed.
 */
function lazy<K extends typeof OFFER_GLOBAL | typeof PRODUCTS_GLOBAL>(
  url: string | undefined,
  file: string,
  name: K,
) {
  let loading: ReturnType<typeof loadScript<K>> | undefined;
  return () => {
    loading ??= loadScript(url || new URL(file, src).href, name);
    loading.catch(() => (loading = undefined));
    return loading;
  };
}

window[CHAT_GLOBAL] ??= {
  mount: (host, root, launcher) =>
    mountConversation(
      { ...readConfig(host), cssUrl: host.dataset.cssSrc || new URL("chat-widget.css", src).href },
      root,
      launcher,
      {
        offers: lazy(host.dataset.offerSrc, "chat-offer.js", OFFER_GLOBAL),
        products: lazy(host.dataset.productsSrc, "chat-products.js", PRODUCTS_GLOBAL),
      },
    ),
};
