/**
 * A deterministic retrieval "assistant": it ranks the workspace's own products and posts against
 * the message and answers from them. Its output is a list of steps the chat route writes as NDJSON
 * lines (or folds into one reply for `stream: false`).
 *
 * Magic words in a message, for client tests:
 *   __emulator_error__      an `error` event after a few tokens, and no `complete`
 *   __emulator_cut__        the connection is cut in the middle of a line (inside "café")
 *   __emulator_malformed__  two unreadable lines in the middle of a normal answer
 *   __emulator_unknown__    an event of a type the spec does not list ("analytics")
 *   __emulator_hold__       the stream pauses after `progress` until released
 *                           (state.releaseHeldStreams() or POST /__emulator/streams/release)
 */
import { postFields, productFields } from "./content-routes";
import type { HandoffState } from "./core";
import { isObject } from "../http";
import { rank, tokenize } from "./search";
import type { StoredItem } from "./store";

export type ChatStep =
  | { kind: "event"; type: string; data: unknown; metadata?: Record<string, unknown> }
  | { kind: "raw"; text: string }
  | { kind: "hold" }
  | { kind: "cut"; partial: Uint8Array };

export interface OfferResponseInput {
  domain: string;
  actionId: string;
  formData: Record<string, string>;
}

export interface ContactDetails {
  name: string;
  email: string;
  phone: string;
  message: string;
}

export interface ChatInput {
  message: string;
  threadId: string;
  offerResponse: OfferResponseInput | undefined;
  products: StoredItem[];
  posts: StoredItem[];
  handoff: HandoffState | undefined;
  /** False when the month's recommendations quota is spent: no cards then. */
  mayRecommend: boolean;
  newConversationId: () => string;
}

export interface ChatPlan {
  steps: ChatStep[];
  /** Cards recommended (counts 1 recommendation). */
  recommended: boolean;
  /** Set when the customer submitted the handoff form. */
  handoff?: { contact: ContactDetails; state: HandoffState };
}

export const LIVE_AGENT_DOMAIN = "live_agent";
export const AGENT = {
  id: "agent_sam",
  name: "Sam",
  avatar: "https://emulator.invalid/avatars/sam.png",
};

const HUMAN_WORDS = /\b(human|agent|person|people)\b/i;
const GREETING = /^\s*(hi|hello|hey|bonjour|hallo)\b/i;

const event = (type: string, data: unknown, metadata?: Record<string, unknown>): ChatStep =>
  metadata ? { kind: "event", type, data, metadata } : { kind: "event", type, data };

export function tokens(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function say(text: string, metadata?: Record<string, unknown>): ChatStep[] {
  return tokens(text).map((token) => event("text_delta", token, metadata));
}

function quoted(message: string): string {
  const clean = message.replace(/__emulator_\w+__/g, "").trim();
  return clean.length > 60 ? `${clean.slice(0, 57)}…` : clean;
}

function formatPrice(price: unknown): string | undefined {
  return typeof price === "number" ? price.toFixed(2) : undefined;
}

const OFFER = {
  domain: LIVE_AGENT_DOMAIN,
  message: "Would you like to talk to a person from our team?",
  ui: {
    component: "form",
    title: "Talk to our team",
    fields: [
      { id: "name", type: "text", label: "Name", required: true },
      { id: "email", type: "email", label: "Email", required: true },
      { id: "phone", type: "tel", label: "Phone", required: false },
      {
        id: "message",
        type: "textarea",
        label: "Message",
        placeholder: "How can we help?",
        required: false,
      },
    ],
    submitAction: { id: "submit", label: "Send", variant: "primary" },
    cancelAction: { id: "cancel", label: "Not now" },
  },
};

export function planChat(input: ChatInput): ChatPlan {
  if (input.offerResponse) return answerOffer(input, input.offerResponse);
  const message = input.message;
  if (input.handoff?.status === "accepted") {
    const metadata = { source: "human", agentName: AGENT.name, agentAvatar: AGENT.avatar };
    return {
      recommended: false,
      steps: [
        ...say(
          `${AGENT.name} here — thanks! I'm looking into “${quoted(message)}” for you.`,
          metadata,
        ),
        event("complete", {}),
      ],
    };
  }
  if (HUMAN_WORDS.test(message)) {
    return {
      recommended: false,
      steps: [
        event("progress", { message: "Checking who is available…" }),
        ...say("Of course — a person from our team can take over. 🙂"),
        event("domain_offer", { ...OFFER, context: { threadId: input.threadId } }),
        event("complete", {}),
      ],
    };
  }
  return answerQuestion(input);
}

function answerQuestion(input: ChatInput): ChatPlan {
  const { message } = input;
  const productHits = input.mayRecommend ? rank(input.products, message, productFields, 3) : [];
  const postHits = input.mayRecommend ? rank(input.posts, message, postFields, 2) : [];
  const products = productHits.map((hit) => hit.item);
  const posts = postHits.map((hit) => hit.item);
  let text: string;
  if (GREETING.test(message) && products.length === 0) {
    text = "Hello! 👋 Ask me about our products — for example “a café mug”.";
  } else if (products.length > 0) {
    const names = products.map((product) => String(product.name)).join(", ");
    const first = products[0];
    const price = formatPrice(first?.price);
    text =
      `Here is what I found for “${quoted(message)}”: ${names}.` +
      (first && price ? ` ${String(first.name)} costs ${price}.` : "") +
      (first ? factsAskedAbout(first, message) : "") +
      " Anything else I can help with? ✨";
  } else if (posts.length > 0) {
    text = `I found some reading about “${quoted(message)}” for you. 📖`;
  } else {
    text = `Sorry, nothing in this shop matches “${quoted(message)}” yet — try another word, like café? ☕`;
  }
  const magic = (word: string) => message.includes(`__emulator_${word}__`);
  const answer = say(text);
  const steps: ChatStep[] = [event("progress", { message: "Searching the catalogue…" })];
  if (magic("hold")) steps.push({ kind: "hold" });
  if (magic("error")) {
    steps.push(...answer.slice(0, 3), event("error", { error: "The assistant failed (emulated)" }));
    return { steps, recommended: false };
  }
  if (magic("cut")) {
    const partial = new TextEncoder().encode('{"type":"text_delta","data":"caf\u00e9');
    // End inside the two bytes of "é".
    steps.push(...answer.slice(0, 3), {
      kind: "cut",
      partial: partial.slice(0, partial.length - 1),
    });
    return { steps, recommended: false };
  }
  steps.push(...answer.slice(0, 1));
  if (magic("malformed")) {
    steps.push(
      { kind: "raw", text: '{"type":"text_delta","data":' },
      { kind: "raw", text: "not json" },
    );
  }
  if (magic("unknown")) steps.push(event("analytics", { tokens: answer.length }));
  steps.push(...answer.slice(1));
  for (const product of products) {
    steps.push(
      event("product", {
        id: product.id,
        name: product.name,
        price: product.price,
        url: product.url,
        image: product.image,
        stock_status: product.stock_status,
        variants: product.variants,
      }),
    );
  }
  if (posts.length > 0) steps.push(event("bubble_termination", {}));
  for (const post of posts) {
    steps.push(
      event("post", {
        id: post.id,
        title: post.title,
        url: post.url,
        excerpt: post.excerpt,
        image: post.featured_image,
      }),
    );
    const summary = String(post.excerpt ?? post.content ?? post.title)
      .split(/\s+/)
      .slice(0, 24);
    const half = Math.ceil(summary.length / 2);
    steps.push(event("post_delta", { id: post.id, delta: `${summary.slice(0, half).join(" ")} ` }));
    steps.push(event("post_delta", { id: post.id, delta: summary.slice(half).join(" ") }));
  }
  steps.push(event("bubble_termination", {}));
  const firstProduct = products[0];
  steps.push(
    event("prompts", [
      firstProduct ? `Tell me more about ${String(firstProduct.name)}` : "What do you recommend?",
      { prompt: "Show me something similar" },
      "Talk to a person",
    ]),
  );
  steps.push(event("complete", {}));
  return { steps, recommended: products.length + posts.length > 0 };
}

/**
 * The product's attributes (options, and the facts a client sends as attributes: a metafield's
 * "Material") whose name shares a word with the question, cited with their values, as the service answers from
 * a product's attributes: "what material is…" → " Material: Anodised aluminium."
 */
function factsAskedAbout(product: StoredItem, message: string): string {
  const asked = new Set(tokenize(message));
  const attributes = isObject(product.attributes) ? product.attributes : {};
  const facts = Object.entries(attributes).flatMap(([name, value]) => {
    const words = tokenize(name);
    if (!words.some((word) => asked.has(word))) return [];
    const values = (Array.isArray(value) ? value : [value]).filter(
      (entry): entry is string => typeof entry === "string" && entry !== "",
    );
    return values.length > 0 ? [`${name}: ${values.join(", ")}`] : [];
  });
  return facts.length > 0 ? ` ${facts.join("; ")}.` : "";
}

function answerOffer(input: ChatInput, response: OfferResponseInput): ChatPlan {
  if (response.actionId !== "submit") {
    return {
      recommended: false,
      steps: [...say("No problem — I'm still here if you need me. 🙂"), event("complete", {})],
    };
  }
  const form = response.formData;
  const name = (form.name ?? "").trim();
  const email = (form.email ?? "").trim();
  if (name === "" || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    return {
      recommended: false,
      steps: [
        ...say("I need your name and a valid email to reach the team."),
        event("domain_offer_success", { domain: response.domain, status: "error" }),
        event("complete", {}),
      ],
    };
  }
  const state: HandoffState = {
    conversationId: input.newConversationId(),
    status: "accepted",
    agent: AGENT,
  };
  return {
    recommended: false,
    handoff: {
      state,
      contact: {
        name,
        email,
        phone: (form.phone ?? "").trim(),
        message: (form.message ?? "").trim(),
      },
    },
    steps: [
      event("progress", { message: "Connecting you with our team…" }),
      ...say(`Thanks, ${name}! ${AGENT.name} from our team will be with you shortly.`),
      event("domain_offer_success", {
        domain: response.domain,
        status: "success",
        agent: AGENT,
        conversationId: state.conversationId,
      }),
      event("complete", {}),
    ],
  };
}

export function parseOfferResponse(value: unknown): OfferResponseInput | undefined | "invalid" {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || typeof value.domain !== "string" || typeof value.actionId !== "string") {
    return "invalid";
  }
  const formData: Record<string, string> = {};
  if (isObject(value.formData)) {
    for (const [key, entry] of Object.entries(value.formData)) {
      if (typeof entry === "string") formData[key] = entry;
    }
  }
  return { domain: value.domain, actionId: value.actionId, formData };
}
