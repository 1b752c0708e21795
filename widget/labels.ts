/**
 * Every text the shopper sees. The app embed block passes the shop's translations (from the
 * extension's locales/) as JSON in `data-labels`; a headless storefront may do the same. Missing
 * keys fall back to English. `{n}` and `{name}` are placeholders. The launcher's own label is
 * `open` in the same JSON.
 */
export const DEFAULT_LABELS = {
  title: "Chat with us",
  greeting: "Hi! Ask me anything about our products.",
  close: "Close chat",
  message: "Your message",
  placeholder: "Ask a question…",
  send: "Send",
  stop: "Stop",
  stopped: "Stopped.",
  you: "You",
  assistant: "Assistant",
  agent: "Agent",
  conversation: "Conversation",
  suggestions: "Suggested questions",
  working: "Working on it…",
  products: "Recommended products",
  articles: "Recommended articles",
  helpful: "Helpful answer",
  unhelpful: "Unhelpful answer",
  thanks: "Thanks for your feedback.",
  retry: "Retry",
  agentJoined: "You are now chatting with {name}.",
  agentRequested: "Your request has been sent.",
  agentFailed: "We couldn't connect you right now.",
  errorNetwork: "We couldn't reach the assistant. Check your connection and try again.",
  errorAuth: "The chat is not available right now.",
  errorRateLimit: "Too many messages. Please wait {n} seconds before trying again.",
  errorStream: "Sorry, something went wrong while answering.",
  errorGeneric: "Sorry, something went wrong.",
  errorQuota: "Our assistant can't answer right now, but you can still find what you need:",
  searchStore: "Search the store for “{q}”",
  contactUs: "Send us a message",
};

/** The offer form's texts: their English defaults live in the offer asset (widget/offer.ts). */
export type OfferLabels = Record<"cancel" | "submit" | "required" | "invalidEmail", string>;

export type Labels = typeof DEFAULT_LABELS & Partial<OfferLabels>;
export type LabelKey = keyof Labels;

export function mergeLabels(json: string | undefined): Labels {
  const labels: Labels = { ...DEFAULT_LABELS };
  try {
    for (const [key, value] of Object.entries(JSON.parse(json || "{}") as object)) {
      if (typeof value === "string" && value.trim()) labels[key as LabelKey] = value;
    }
  } catch {
    // not JSON: English it is
  }
  return labels;
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
