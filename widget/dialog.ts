/**
 * The dialog around the conversation: header, transcript, progress line, composer and a polite
 * live region. Modal semantics: focus moves in on open, stays in (Tab wraps), Escape closes, and
 * focus goes back to the launcher on close.
 */
import type { WidgetConfig } from "./config";
import { h, icon, ICONS, uid } from "./dom";

export interface ComposerActions {
  send(text: string): void;
  stop(): void;
}

export interface Dialog {
  log: HTMLElement;
  open(): void;
  close(): void;
  focusInput(): void;
  /** Whether focus is inside `el`. */
  hasFocus(el: Element | undefined): boolean;
  setBusy(busy: boolean): void;
  /** The quiet progress line: shown, never announced. */
  progress(text?: string): void;
  /** Polite announcement of a complete message (never of single tokens). */
  announce(text: string): void;
  scrollToEnd(): void;
  /** Scrolls to the end, but never past the top of `el` (a form taller than the transcript). */
  reveal(el: HTMLElement): void;
}

const FOCUSABLE =
  "a[href],button:enabled,input:enabled,select:enabled,textarea:enabled,[tabindex='0']";

export function createDialog(
  cfg: WidgetConfig,
  root: ShadowRoot,
  launcher: HTMLButtonElement,
  actions: ComposerActions,
): Dialog {
  const { labels } = cfg;
  // The dialog's stylesheet is its own asset (chat-widget.css), kept out of the script so that
  // the script stays under Shopify's size limit; the dialog opens once it has loaded (or failed).
  // The colour variables (--accent, --on-accent, --ink) are set by the launcher's stylesheet.
  const style = h("link", { rel: "stylesheet", href: cfg.cssUrl });
  const styled = new Promise((resolve) => (style.onload = style.onerror = resolve));

  const titleId = uid("title");
  const inputId = uid("input");
  const close = h(
    "button",
    { type: "button", class: "icon-btn", "aria-label": labels.close },
    icon(ICONS.close),
  );
  const log = h("div", {
    class: "log",
    role: "region",
    "aria-label": labels.conversation,
    tabindex: "0",
  });
  const status = h("p", { class: "status", hidden: true });
  const live = h("div", { class: "sr", "aria-live": "polite", "aria-atomic": "true" });
  const input = h("textarea", {
    id: inputId,
    rows: "1",
    placeholder: labels.placeholder,
    enterkeyhint: "send",
  });
  const send = h(
    "button",
    { type: "submit", class: "icon-btn send", "aria-label": labels.send },
    icon(ICONS.send),
  );
  const stop = h(
    "button",
    { type: "button", class: "icon-btn send", "aria-label": labels.stop, hidden: true },
    icon(ICONS.stop),
  );
  const form = h(
    "form",
    { class: "composer" },
    h("label", { class: "sr", for: inputId }, labels.message),
    input,
    send,
    stop,
  );
  const el = h(
    "div",
    {
      class: cfg.position === "bottom-left" ? "dialog left" : "dialog",
      role: "dialog",
      "aria-modal": "true",
      "aria-labelledby": titleId,
      lang: cfg.locale,
      hidden: true,
    },
    h("div", { class: "head" }, h("h2", { id: titleId }, cfg.title), close),
    log,
    status,
    form,
    live,
  );
  root.append(style, el);

  const submit = () => {
    const text = input.value.trim();
    if (!text || !stop.hidden) return;
    input.value = "";
    actions.send(text);
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  stop.addEventListener("click", () => actions.stop());
  close.addEventListener("click", () => view.close());
  el.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      view.close();
    } else if (e.key === "Tab") {
      // Focus stays in the dialog: Tab wraps around at both ends.
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (item) => item.getClientRects().length,
      );
      const target = e.shiftKey ? items[items.length - 1] : items[0];
      const edge = e.shiftKey ? items[0] : items[items.length - 1];
      const active = root.activeElement;
      if (target && (active === edge || !el.contains(active))) {
        e.preventDefault();
        target.focus();
      }
    }
  });

  const view: Dialog = {
    log,
    open() {
      void styled.then(() => {
        if (!el.hidden) return;
        el.hidden = false;
        launcher.hidden = true;
        launcher.setAttribute("aria-expanded", "true");
        view.scrollToEnd();
        input.focus();
      });
    },
    close() {
      if (el.hidden) return;
      el.hidden = true;
      launcher.hidden = false;
      launcher.setAttribute("aria-expanded", "false");
      launcher.focus();
    },
    focusInput: () => input.focus(),
    hasFocus: (node) => !!node && node.contains(root.activeElement),
    setBusy(busy) {
      const moveFocus = root.activeElement === (busy ? send : stop);
      send.hidden = busy;
      stop.hidden = !busy;
      log.setAttribute("aria-busy", String(busy));
      if (moveFocus) (busy ? stop : input).focus();
    },
    progress(text) {
      status.textContent = text ?? "";
      status.hidden = !text;
    },
    announce(text) {
      live.textContent = "";
      // Set in the next frame so that a repeated text is announced again.
      if (text) requestAnimationFrame(() => (live.textContent = text));
    },
    scrollToEnd() {
      log.scrollTop = log.scrollHeight;
    },
    reveal(el) {
      view.scrollToEnd();
      log.scrollTop += Math.min(0, el.offsetTop - log.offsetTop - log.scrollTop);
    },
  };
  return view;
}
