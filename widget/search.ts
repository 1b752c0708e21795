/**
 * Search as you type (chat-search.js): it enhances the theme's own search form inside a
 * `[data-catalog-search]` element (blocks/search-box.liquid renders both; a headless storefront
 * may too). The form keeps working without it, and whenever the service cannot answer.
 *
 * After a pause in typing it asks the service (`POST /products/search` with the publishable key)
 * and shows products (picture, name, price, availability) and matching pages and articles in a
 * listbox under the input: the WAI-ARIA combobox pattern (arrows move, Enter opens the active
 * option, Escape closes, focus stays in the input). Each request aborts the one before it, and an
 * answer for older text is never shown. Enter without an active option, a failure, a 429 or a
 * spent quota: the theme's own search page (the form's action) does the searching.
 */
import { retryAfterSeconds, serviceHeaders } from "./api";
import { list, obj, text } from "./data";
import { h, uid } from "./dom";
import { priceFormatter } from "./format";
import { fill } from "./labels";
import { safeUrl } from "./markdown";
import { SEARCH_LABELS, SEARCH_PAUSE_MS, type SearchLabels } from "./search-labels";
import { asShownHere } from "./storefront";
import css from "./styles/search.css?inline";

/** The shortest text worth asking about. */
const MIN_CHARS = 2;
const MAX_PRODUCTS = 6;

interface Option {
  el: HTMLElement;
  url: string;
}

function labelsOf(json: string | undefined): SearchLabels {
  const labels = { ...SEARCH_LABELS };
  try {
    for (const [key, value] of Object.entries(JSON.parse(json || "{}") as object)) {
      if (key in labels && typeof value === "string" && value.trim()) {
        labels[key as keyof SearchLabels] = value;
      }
    }
  } catch {
    // not JSON: English it is
  }
  return labels;
}

let styled = false;

export function enhance(root: HTMLElement): void {
  const d = root.dataset;
  const form = root.querySelector("form");
  const input = form?.querySelector<HTMLInputElement>("input[name=q]");
  if (!form || !input || d.enhanced !== undefined || !d.apiUrl || !d.publishableKey) return;
  d.enhanced = "";
  if (!styled) {
    styled = true;
    document.head.append(h("style", {}, css));
  }
  const labels = labelsOf(d.labels);
  const price = priceFormatter(d.locale || document.documentElement.lang || "en", d.currency);
  const config = { publishableKey: d.publishableKey, workspaceId: d.workspaceId ?? "" };
  const apiUrl = d.apiUrl.replace(/\/+$/, "");

  const listId = uid("ccs");
  const box = h("div", { class: "ccs-list", id: listId, role: "listbox", hidden: true });
  const live = h("div", { class: "ccs-sr", "aria-live": "polite" });
  root.classList.add("ccs");
  root.append(box, live);
  for (const [name, value] of Object.entries({
    role: "combobox",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": listId,
    autocomplete: "off",
  })) {
    input.setAttribute(name, value);
  }

  let options: Option[] = [];
  let active = -1;
  let timer = 0;
  let request: AbortController | undefined;
  /** When the service may be asked again (after a 429), or never in this page (quota, key). */
  let pausedUntil = 0;

  const themeSearch = (q: string) => {
    const params = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
    params.set("q", q);
    return `${form.action.split("?")[0]}?${params}`;
  };

  const setActive = (index: number) => {
    options[active]?.el.setAttribute("aria-selected", "false");
    active = index;
    const option = options[index];
    if (option) {
      option.el.setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", option.el.id);
      option.el.scrollIntoView?.({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  };

  const close = () => {
    setActive(-1);
    box.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };

  const option = (url: string, ...content: (Node | string | false | undefined)[]) => {
    const el = h(
      "div",
      { class: "ccs-option", role: "option", id: uid("ccs"), "aria-selected": "false" },
      ...content,
    );
    el.addEventListener("pointerdown", (e) => e.preventDefault());
    el.addEventListener("click", () => location.assign(url));
    options.push({ el, url });
    return el;
  };

  const group = (label: string, items: HTMLElement[]) =>
    items.length
      ? h(
          "div",
          { role: "group", "aria-label": label },
          h("div", { class: "ccs-head", "aria-hidden": "true" }, label),
          ...items,
        )
      : undefined;

  /** Draws an answer (or, with none, only the way to the theme's search page). */
  const show = (q: string, data?: Record<string, unknown>) => {
    options = [];
    active = -1;
    input.removeAttribute("aria-activedescendant");
    const products = list(data?.results)
      .map(obj)
      .filter((p) => text(p.name))
      .slice(0, MAX_PRODUCTS)
      .map((p) => {
        const stock = text(p.stock_status) as keyof SearchLabels;
        const amount = Number(p.price);
        const image = safeUrl(obj(p.image).src ?? p.image, location.href);
        return option(
          safeUrl(p.url, location.href) ?? themeSearch(q),
          image
            ? h("img", { src: image, alt: "", width: "40", height: "40", loading: "lazy" })
            : h("span", { class: "ccs-img" }),
          h("span", { class: "ccs-name" }, text(p.name)),
          p.price !== undefined &&
            p.price !== "" &&
            Number.isFinite(amount) &&
            h("span", { class: "ccs-price" }, price(amount, text(p.currency))),
          ["instock", "onbackorder", "outofstock"].includes(stock) &&
            h("span", { class: `ccs-stock ${stock}` }, labels[stock]),
        );
      });
    const posts = list(data?.posts)
      .map(obj)
      .filter((p) => text(p.title) && safeUrl(p.url, location.href))
      .slice(0, 3)
      .map((p) =>
        option(safeUrl(p.url, location.href)!, h("span", { class: "ccs-name" }, text(p.title))),
      );
    const none = data && !products.length && !posts.length;
    const parts: (HTMLElement | false | undefined)[] = [
      none && h("p", { class: "ccs-none" }, fill(labels.none, { q })),
      group(labels.products, products),
      group(labels.pages, posts),
      option(themeSearch(q), h("span", { class: "ccs-all" }, fill(labels.all, { q }))),
    ];
    box.replaceChildren(...parts.filter((n): n is HTMLElement => !!n));
    box.hidden = false;
    input.setAttribute("aria-expanded", "true");
    live.textContent = data
      ? none
        ? fill(labels.none, { q })
        : fill(labels.count, { n: products.length + posts.length })
      : "";
  };

  const ask = async (q: string) => {
    request?.abort();
    if (Date.now() < pausedUntil) return show(q);
    const controller = (request = new AbortController());
    try {
      const res = await fetch(`${apiUrl}/products/search`, {
        method: "POST",
        headers: serviceHeaders(config),
        body: JSON.stringify({ text: q, limit: MAX_PRODUCTS }),
        signal: controller.signal,
      });
      if (res.status === 429) pausedUntil = Date.now() + (await retryAfterSeconds(res)) * 1000;
      else if ([401, 402, 403].includes(res.status)) pausedUntil = Infinity;
      const body = res.ok ? ((await res.json()) as { data?: unknown }) : undefined;
      const data = body ? obj(body.data) : undefined;
      // On a language or market subfolder, as the storefront there shows them (decision 0044).
      if (data) {
        const shown = list(data.results)
          .map(obj)
          .slice(0, MAX_PRODUCTS)
          .map((p) => asShownHere({ ...p, name: text(p.name), url: text(p.url) }));
        data.results = (await Promise.all(shown)).filter(Boolean);
      }
      if (controller.signal.aborted || input.value.trim() !== q) return;
      show(q, data);
    } catch {
      // aborted by a newer keystroke, or the service unreachable: the theme's search remains
      if (!controller.signal.aborted && input.value.trim() === q) show(q);
    }
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    request?.abort();
    const q = input.value.trim();
    if (q.length < MIN_CHARS) return close();
    timer = window.setTimeout(() => void ask(q), SEARCH_PAUSE_MS);
  });

  input.addEventListener("keydown", (e) => {
    const open = !box.hidden && options.length > 0;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!open) return;
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive(
        (active + step + options.length + (active < 0 && step < 0 ? 1 : 0)) % options.length,
      );
    } else if (e.key === "Enter" && open && active >= 0) {
      e.preventDefault();
      location.assign(options[active]!.url);
    } else if (e.key === "Escape") {
      if (open) {
        e.preventDefault();
        close();
      }
    }
  });
  input.addEventListener("blur", close);
  input.addEventListener("focus", () => {
    if (options.length && input.value.trim().length >= MIN_CHARS) {
      box.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
  });
  // Text typed before this script arrived is searched at once.
  if (document.activeElement === input && input.value.trim().length >= MIN_CHARS) {
    void ask(input.value.trim());
  }
}
