/**
 * What the conversation is made of. The transcript is a list of these entries; it is rendered
 * from them (live and after a page change) and kept in sessionStorage as JSON, never as HTML.
 */
export interface ProductItem {
  id: string;
  name: string;
  price?: number;
  /** The index's `currency` (ISO 4217) of the prices; absent: the shop's. */
  currency?: string;
  url?: string;
  image?: string;
  /** The index's `stock_status`: instock, outofstock or onbackorder. */
  stock?: string;
  /** The index's `variants`, as sent: read by the products asset (./products). */
  variants?: unknown;
}

export interface PostItem {
  id: string;
  title: string;
  url?: string;
  excerpt: string;
  /** Streamed by `post_delta`; the excerpt is shown until it starts. */
  summary: string;
}

export interface OfferAction {
  id: string;
  label: string;
  variant?: string;
}

export interface OfferField {
  id: string;
  type: "text" | "email" | "tel" | "textarea" | "select";
  label: string;
  placeholder?: string;
  required?: boolean;
  options?: { value: string; label: string }[];
}

export type OfferUi =
  | { component: "action_group"; actions: OfferAction[] }
  | {
      component: "form";
      title?: string;
      fields: OfferField[];
      submitAction: OfferAction;
      cancelAction?: OfferAction;
    };

export interface Offer {
  domain: string;
  message: string;
  ui: OfferUi;
}

export interface OfferResponse {
  domain: string;
  actionId: string;
  formData?: Record<string, string>;
}

export type Rating = "positive" | "negative";

export type Entry =
  | { k: "user"; text: string }
  | {
      k: "bot";
      text: string;
      /** Set when a live agent speaks (chunk metadata source "human"). */
      agent?: string;
      done?: boolean;
      stopped?: boolean;
      /**
       * Sent with feedback as messageIndex: the 0-based number, in this thread, of the chat
       * request this answers (the service's own message_index numbering).
       */
      index?: number;
      rating?: Rating;
    }
  | { k: "products"; items: ProductItem[] }
  | { k: "posts"; items: PostItem[] }
  | { k: "prompts"; items: string[] }
  /** `data` is the offer as the service sent it; it is checked when drawn (./offer). */
  | { k: "offer"; data: unknown; answered?: boolean }
  | { k: "notice"; text: string }
  /** `q`: the chat is out of messages; offer the store's search for these words instead. */
  | { k: "error"; text: string; retryAt?: number; q?: string };

/** One chat request: what the shopper sent and, after an offer, their answer to it. */
export interface Turn {
  message: string;
  offerResponse?: OfferResponse;
}
