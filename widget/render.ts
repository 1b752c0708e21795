/**
 * Builds the DOM of each transcript entry. Everything the service sends ends up in Text nodes or
 * in checked attributes (http/https URLs), never in innerHTML.
 */
import type { OfferModule, ProductsModule } from "./bridge";
import { h, icon, ICONS, uid } from "./dom";
import { shopRoot } from "./storefront";
import { fill, type Labels } from "./labels";
import { parseBlocks, toNodes } from "./markdown";
import type { Entry, OfferResponse, PostItem, Rating } from "./model";

export type BotEntry = Extract<Entry, { k: "bot" }>;
export type OfferEntry = Extract<Entry, { k: "offer" }>;
export type ErrorEntry = Extract<Entry, { k: "error" }>;

export interface RenderContext {
  labels: Labels;
  price(n: number, currency?: string): string;
  onPrompt(text: string): void;
  /** The offer asset, loaded on first use. */
  offers(): Promise<OfferModule>;
  /** The products asset (cards and the cart), loaded on first use. */
  products(): Promise<ProductsModule>;
  onOffer(entry: OfferEntry, response: OfferResponse, label: string): void;
  /** Scrolls the transcript so that an element drawn late (an offer) is seen. */
  reveal(el: HTMLElement): void;
  onRate(entry: BotEntry, rating: Rating): void;
  onRetry(entry: ErrorEntry): void;
}

export function fillBubble(bubble: HTMLElement, text: string): void {
  bubble.replaceChildren();
  for (const node of toNodes(parseBlocks(text))) bubble.appendChild(node);
}

/** What a screen reader hears when a bubble is complete: its text, with who said it. */
export function bubbleText(el: HTMLElement | undefined): string {
  return [...(el?.querySelectorAll(".who,p,li") ?? [])].map((n) => n.textContent).join(" ");
}

function botElement(entry: BotEntry, ctx: RenderContext): HTMLElement {
  const { labels } = ctx;
  const isAgent = entry.agent !== undefined;
  const bubble = h("div", { class: "bubble" });
  fillBubble(bubble, entry.text);
  const who = isAgent
    ? h("p", { class: "who" }, entry.agent || labels.agent)
    : h("span", { class: "sr" }, `${labels.assistant}:`);
  const el = h("div", { class: isAgent ? "msg bot agent" : "msg bot" }, who, bubble);
  if (entry.stopped) el.append(h("p", { class: "note" }, labels.stopped));
  if (entry.done && entry.index !== undefined && !isAgent) el.append(ratingElement(entry, ctx));
  if (!entry.done) el.setAttribute("aria-busy", "true");
  return el;
}

function ratingElement(entry: BotEntry, ctx: RenderContext): HTMLElement {
  const { labels } = ctx;
  const group = h("div", { class: "rate" });
  const make = (rating: Rating, label: string) => {
    const pressed = entry.rating === rating;
    const button = h(
      "button",
      {
        type: "button",
        class: `icon-btn ${rating}`,
        "aria-label": label,
        "aria-pressed": String(pressed),
      },
      icon(ICONS.thumb, 16),
    );
    button.addEventListener("click", () => ctx.onRate(entry, rating));
    return button;
  };
  group.append(make("positive", labels.helpful), make("negative", labels.unhelpful));
  if (entry.rating) group.append(h("span", { class: "thanks" }, labels.thanks));
  return group;
}

function postCard(item: PostItem): HTMLElement {
  const title = h("span", { class: "title" }, item.title);
  return h(
    "li",
    { class: "post", "data-post-id": item.id },
    item.url ? h("a", { href: item.url }, title) : title,
    h("p", { class: "summary" }, item.summary || item.excerpt),
  );
}

export function updatePostSummary(root: ParentNode, item: PostItem): void {
  for (const li of root.querySelectorAll<HTMLElement>("li.post")) {
    if (li.dataset.postId === item.id) {
      const summary = li.querySelector(".summary");
      if (summary) summary.textContent = item.summary || item.excerpt;
    }
  }
}

export function renderEntry(entry: Entry, ctx: RenderContext): HTMLElement {
  const { labels } = ctx;
  switch (entry.k) {
    case "user":
      return h(
        "div",
        { class: "msg user" },
        h("span", { class: "sr" }, `${labels.you}:`),
        h("div", { class: "bubble" }, entry.text),
      );
    case "bot":
      return botElement(entry, ctx);
    case "products": {
      // Busy until the products asset (loaded on first use) has filled the cards.
      const el = h("ul", { class: "cards", "aria-label": labels.products, "aria-busy": "true" });
      ctx
        .products()
        .then(
          (mod) => mod.fillCards(el, entry.items, labels, ctx.price),
          // Without the products asset, the names still lead to the products.
          () => el.append(...entry.items.map((i) => h("li", {}, h("a", { href: i.url }, i.name)))),
        )
        .finally(() => el.removeAttribute("aria-busy"));
      return el;
    }
    case "posts":
      return h(
        "ul",
        { class: "posts", "aria-label": labels.articles },
        ...entry.items.map(postCard),
      );
    case "prompts": {
      const group = h("div", { class: "chips", role: "group", "aria-label": labels.suggestions });
      for (const text of entry.items) {
        const chip = h("button", { type: "button", class: "chip" }, text);
        chip.addEventListener("click", () => ctx.onPrompt(text));
        group.append(chip);
      }
      return group;
    }
    case "offer": {
      const el = h("div", { class: "offer", "aria-busy": "true" });
      const hide = () => {
        el.removeAttribute("aria-busy");
        el.hidden = !el.firstChild;
      };
      ctx.offers().then((mod) => {
        el.append(
          ...mod.offerNodes(entry.data, !!entry.answered, labels, (response, label) =>
            ctx.onOffer(entry, response, label),
          ),
        );
        hide();
        ctx.reveal(el);
      }, hide);
      return el;
    }
    case "notice":
      return h("p", { class: "notice" }, entry.text);
    case "error": {
      const id = uid("err");
      if (entry.q !== undefined) {
        // No chat messages left this month: the store's own search and contact page instead.
        const root = shopRoot();
        const links = [
          [
            `${root}search?q=${encodeURIComponent(entry.q)}`,
            fill(labels.searchStore, { q: entry.q }),
          ],
          [`${root}pages/contact`, labels.contactUs],
        ].map(([href, text]) => h("li", {}, h("a", { href }, text)));
        return h("div", { class: "fallback" }, h("p", { id }, entry.text), h("ul", {}, ...links));
      }
      const retry = h(
        "button",
        { type: "button", class: "btn", "aria-describedby": id },
        labels.retry,
      );
      const wait = (entry.retryAt ?? 0) - Date.now();
      if (wait > 0) {
        retry.disabled = true;
        setTimeout(() => (retry.disabled = false), wait);
      }
      retry.addEventListener("click", () => ctx.onRetry(entry));
      return h("div", { class: "error" }, h("p", { id }, entry.text), retry);
    }
  }
}
