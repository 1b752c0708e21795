/**
 * Turns the chat stream's events (as the project's reader types them, spec §6.4 with the shapes
 * of docs/reference/service-gaps.md) into what the widget renders. The reader has checked the envelope;
 * the fields inside are still the service's data: URLs are checked, the rest is read as text.
 */
import type { ChatEvent } from "../app/index-service/chat-events";
import { obj, text, type Obj } from "./data";
import { safeUrl } from "./markdown";
import type { PostItem, ProductItem } from "./model";

export type WidgetEvent =
  | { type: "text"; text: string; agent?: string }
  | { type: "product"; item: ProductItem }
  | { type: "post"; item: PostItem }
  | { type: "post_delta"; id: string; delta: string }
  | { type: "prompts"; items: string[] }
  | { type: "offer"; data: unknown; message: string }
  | { type: "offer_success"; ok: boolean; agent?: string }
  | { type: "progress"; message?: string }
  | { type: "bubble" }
  | { type: "complete" }
  | { type: "error" };

const link = (v: unknown) => safeUrl(v, location.href);
/** An image is a URL or an object with `src`. */
const image = (v: unknown) => link(obj(v).src ?? v);

export function toProduct(d: Obj): ProductItem | undefined {
  const name = text(d.name) || text(d.title);
  const price = Number(d.price ?? d.sale_price ?? d.regular_price ?? NaN);
  return name
    ? {
        id: String(d.id),
        name,
        price: Number.isFinite(price) && d.price !== "" ? price : undefined,
        currency: text(d.currency) || undefined,
        url: link(d.url),
        image: image(d.image ?? d.featured_image),
        stock: text(d.stock_status) || undefined,
        variants: d.variants,
      }
    : undefined;
}

export function toPost(d: Obj): PostItem | undefined {
  const title = text(d.title) || text(d.name);
  return title
    ? {
        id: String(d.id),
        title,
        url: link(d.url),
        excerpt: text(d.excerpt),
        summary: "",
      }
    : undefined;
}

export function interpret(event: ChatEvent): WidgetEvent | undefined {
  const meta = "metadata" in event ? event.metadata : undefined;
  switch (event.type) {
    case "text_delta":
      // A live agent (after a handoff) speaks in chunks whose metadata source is "human".
      return {
        type: "text",
        text: event.data,
        agent: meta?.source === "human" ? text(meta.agentName) : undefined,
      };
    case "product": {
      const item = toProduct(event.data);
      return item && { type: "product", item };
    }
    case "post": {
      const item = toPost(event.data);
      return item && { type: "post", item };
    }
    case "post_delta":
      return { type: "post_delta", ...event.data };
    case "prompts": {
      const items = event.data.map((p) => p.trim()).filter(Boolean);
      return items.length ? { type: "prompts", items } : undefined;
    }
    case "domain_offer":
      return { type: "offer", data: event.data, message: text(event.data.message) };
    case "domain_offer_success":
      return {
        type: "offer_success",
        ok: event.data.status !== "error",
        agent: text(obj(event.data.agent).name),
      };
    case "progress":
      return { type: "progress", message: text(event.data.message) || text(event.data.label) };
    case "bubble_termination":
      return { type: "bubble" };
    case "complete":
      return { type: "complete" };
    case "error":
      // A single unreadable line is skipped; an error the service reports ends the answer.
      return event.malformed ? undefined : { type: "error" };
    default:
      return undefined;
  }
}
