/**
 * The only script that loads with every storefront page: it finds each `[data-chat-widget]`
 * element, gives it a shadow root with a fixed-position launcher button and loads the chat
 * itself on first interaction (hover, focus, touch, click) or when the browser is idle.
 */
import { CHAT_GLOBAL, loadScript, type ChatController, type ChatModule } from "./bridge";
import { palette } from "./contrast";
import css from "./styles/launcher.css?inline";

const script = document.currentScript as HTMLScriptElement | null;
let loading: Promise<ChatModule> | undefined;

function loadChat(src: string): Promise<ChatModule> {
  loading ??= loadScript(src, CHAT_GLOBAL).catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

function labelsOf(host: HTMLElement): Record<string, string> {
  try {
    return JSON.parse(host.dataset.labels || "{}") as Record<string, string>;
  } catch {
    return {};
  }
}

const ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';

function setUp(host: HTMLElement): void {
  const { apiUrl, publishableKey } = host.dataset;
  if (host.shadowRoot) return;
  if (!apiUrl || !publishableKey) return console.warn("chat widget: no data-api-url or key");
  // Nothing of the theme's styles may reach in: reset every property on the host itself.
  host.style.cssText = "all:initial!important";
  const root = host.attachShadow({ mode: "open" });
  // The colours of the whole widget, the chat's included: see ./contrast.
  const c = palette(host.dataset.accent);
  const style = document.createElement("style");
  style.textContent = `:host{--accent:${c.accent};--on-accent:${c.onAccent};--ink:${c.ink}}${css}`;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "launcher" + (host.dataset.position === "bottom-left" ? " left" : "");
  button.setAttribute("aria-label", labelsOf(host).open || "Open chat");
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-expanded", "false");
  button.innerHTML = ICON;
  root.append(style, button);

  const src = host.dataset.chatSrc || new URL("chat-widget.js", script?.src || location.href).href;
  let controller: Promise<ChatController> | undefined;
  const prefetch = () => void loadChat(src).catch(() => undefined);
  const open = () => {
    button.setAttribute("aria-busy", "true");
    controller ??= loadChat(src).then((mod) => mod.mount(host, root, button));
    controller.then(
      (c) => {
        button.removeAttribute("aria-busy");
        c.open();
      },
      () => {
        controller = undefined;
        button.removeAttribute("aria-busy");
      },
    );
  };
  for (const type of ["pointerenter", "focus", "touchstart"]) {
    button.addEventListener(type, prefetch, { once: true, passive: true });
  }
  button.addEventListener("click", open);
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 2000));
  idle(prefetch, { timeout: 8000 });
}

/** Mounts every `[data-chat-widget]` element not mounted yet. */
function start(): void {
  document.querySelectorAll<HTMLElement>("[data-chat-widget]").forEach(setUp);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
// Pages that render the element later (headless storefronts) ask for another look.
document.addEventListener("chat-widget:scan", start);
