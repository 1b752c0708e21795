/**
 * The contract between the assets. The launcher (loaded with every page) injects the chat asset
 * on first interaction or when the browser is idle; the chat asset registers itself under
 * CHAT_GLOBAL and the launcher mounts it into the shadow root it already owns. The chat injects
 * the offer asset (next to itself) when the first domain offer arrives; it registers under
 * OFFER_GLOBAL. Likewise the products asset (cards and the cart) with the first product card,
 * under PRODUCTS_GLOBAL.
 */
import type { Labels } from "./labels";
import type { OfferResponse, ProductItem } from "./model";

export const CHAT_GLOBAL = "__catalogChatWidget";
export const OFFER_GLOBAL = "__catalogChatOffer";
export const PRODUCTS_GLOBAL = "__catalogChatProducts";

export interface ChatController {
  open(): void;
  close(): void;
}

export interface ChatModule {
  mount(host: HTMLElement, root: ShadowRoot, launcher: HTMLButtonElement): ChatController;
}

export interface OfferModule {
  offerNodes(
    data: unknown,
    answered: boolean,
    labels: Labels,
    answer: (response: OfferResponse, label: string) => void,
  ): Node[];
}

export interface ProductsModule {
  /**
   * Fills the list with the products' cards (picture, name, price, availability, cart); on a
   * subfolder once the storefront has said how it shows them (./storefront).
   */
  fillCards(
    list: HTMLElement,
    items: ProductItem[],
    labels: Labels,
    price: (n: number, currency?: string) => string,
  ): Promise<void>;
}

declare global {
  interface Window {
    [CHAT_GLOBAL]?: ChatModule;
    [OFFER_GLOBAL]?: OfferModule;
    [PRODUCTS_GLOBAL]?: ProductsModule;
  }
}

type AssetGlobal = typeof CHAT_GLOBAL | typeof OFFER_GLOBAL | typeof PRODUCTS_GLOBAL;

/** Loads a classic script once and resolves with what it registered under `name`. */
export function loadScript<K extends AssetGlobal>(
  src: string,
  name: K,
): Promise<NonNullable<Window[K]>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      const mod = window[name];
      if (mod) resolve(mod as NonNullable<Window[K]>);
      else reject(new Error(name));
    };
    if (window[name]) return done();
    const tag = document.createElement("script");
    tag.src = src;
    tag.onload = done;
    tag.onerror = done;
    document.head.append(tag);
  });
}
