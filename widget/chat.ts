/**
 * The chat asset, loaded on first interaction with the launcher (or when the browser is idle).
 * It registers itself for the launcher, which mounts it into the shadow root it already owns.
 */
import { CHAT_GLOBAL, loadScript, OFFER_GLOBAL } from "./bridge";
import { readConfig } from "./config";
import { mountConversation } from "./conversation";

const src = (document.currentScript as HTMLScriptElement | null)?.src || location.href;
let offers: ReturnType<typeof loadScript<typeof OFFER_GLOBAL>> | undefined;

window[CHAT_GLOBAL] ??= {
  mount: (host, root, launcher) =>
    mountConversation(readConfig(host), root, launcher, () => {
      // The offer asset sits next to this one (a headless page may name it with data-offer-src).
      offers ??= loadScript(
        host.dataset.offerSrc || new URL("chat-offer.js", src).href,
        OFFER_GLOBAL,
      );
      offers.catch(() => (offers = undefined));
      return offers;
    }),
};
