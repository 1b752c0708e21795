/**
 * The public contract of the widget: everything comes from data attributes of the
 * `[data-chat-widget]` element (the app embed block writes them; a headless storefront may too).
 */
import { mergeLabels, type Labels } from "./labels";

export interface WidgetConfig {
  apiUrl: string;
  publishableKey: string;
  workspaceId: string;
  locale: string;
  currency: string | undefined;
  title: string;
  greeting: string;
  position: "bottom-right" | "bottom-left";
  prompts: string[];
  labels: Labels;
  /** The dialog's stylesheet (data-css-src; the chat sets the default next to itself). */
  cssUrl: string;
}

/** `data-prompts`: a JSON array of strings, or one prompt per line. */
export function parsePrompts(raw = ""): string[] {
  let list: unknown = raw.split("\n");
  try {
    list = JSON.parse(raw);
  } catch {
    // one per line
  }
  return (Array.isArray(list) ? list : [])
    .map((p) => (typeof p === "string" ? p.trim() : ""))
    .filter(Boolean)
    .slice(0, 6);
}

export function readConfig(el: HTMLElement): WidgetConfig {
  const d: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(el.dataset)) d[k] = v?.trim();
  const labels = mergeLabels(d.labels);
  labels.title = d.title || labels.title;
  return {
    apiUrl: (d.apiUrl ?? "").replace(/\/+$/, ""),
    publishableKey: d.publishableKey ?? "",
    workspaceId: d.workspaceId ?? "",
    locale: d.locale || document.documentElement.lang || navigator.language,
    currency: d.currency?.toUpperCase(),
    title: labels.title,
    greeting: d.greeting || labels.greeting,
    position: d.position === "bottom-left" ? "bottom-left" : "bottom-right",
    prompts: parsePrompts(d.prompts),
    labels,
    cssUrl: d.cssSrc ?? "",
  };
}
