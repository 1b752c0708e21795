/**
 * A whole chat answer: what `stream: false` returns, and what a stream folds into. Pure.
 */
import { CHAT_REPLY_TEXT_KEYS, PROMPT_OBJECT_TEXT_KEY } from "./assumptions";
import type {
  ChatEvent,
  ChatPost,
  ChatProduct,
  ChunkMetadata,
  Offer,
  OfferResult,
} from "./chat-events";

export interface ChatReplyPost extends ChatPost {
  /** The post_delta pieces joined. */
  summary?: string;
}

export interface ChatReply {
  threadId?: string;
  text: string;
  products: ChatProduct[];
  posts: ChatReplyPost[];
  prompts: string[];
  offer?: Offer;
  offerResult?: OfferResult;
  /** Errors reported by the service (or unreadable lines) along the way. */
  errors: string[];
  /** False when a stream ended or broke before `complete`. */
  complete: boolean;
  metadata?: ChunkMetadata;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listOf<T>(value: unknown, keep: (item: unknown) => item is T): T[] {
  return Array.isArray(value) ? value.filter(keep) : [];
}

function hasId(item: unknown): item is { id: string } {
  return isObject(item) && typeof item.id === "string";
}

/** Reads a non-streamed reply leniently: the shape is not shown in the spec. */
export function normalizeChatReply(data: unknown): ChatReply {
  const body = isObject(data) ? data : {};
  let text = "";
  for (const key of CHAT_REPLY_TEXT_KEYS) {
    const value = body[key];
    if (typeof value === "string") {
      text = value;
      break;
    }
  }
  const prompts = Array.isArray(body.prompts)
    ? body.prompts.flatMap((item: unknown) =>
        typeof item === "string"
          ? [item]
          : isObject(item) && typeof item[PROMPT_OBJECT_TEXT_KEY] === "string"
            ? [item[PROMPT_OBJECT_TEXT_KEY] as string]
            : [],
      )
    : [];
  const reply: ChatReply = {
    text,
    products: listOf(body.products, hasId) as ChatProduct[],
    posts: listOf(body.posts, hasId) as ChatReplyPost[],
    prompts,
    errors: listOf(body.errors, (item): item is string => typeof item === "string"),
    complete: body.complete !== false,
  };
  if (typeof body.threadId === "string") reply.threadId = body.threadId;
  if (isObject(body.offer)) reply.offer = body.offer as unknown as Offer;
  if (isObject(body.offerResult)) reply.offerResult = body.offerResult as OfferResult;
  if (isObject(body.metadata)) reply.metadata = body.metadata as ChunkMetadata;
  return reply;
}

/** Folds stream events into one reply (bubbles are joined with a blank line). */
export function foldChatEvents(events: Iterable<ChatEvent>, threadId?: string): ChatReply {
  const reply: ChatReply = {
    text: "",
    products: [],
    posts: [],
    prompts: [],
    errors: [],
    complete: false,
  };
  if (threadId !== undefined) reply.threadId = threadId;
  for (const event of events) applyChatEvent(reply, event);
  return reply;
}

/** Collects an async stream of events into one reply. */
export async function collectChatReply(
  events: AsyncIterable<ChatEvent>,
  threadId?: string,
): Promise<ChatReply> {
  const reply = foldChatEvents([], threadId);
  for await (const event of events) applyChatEvent(reply, event);
  return reply;
}

function applyChatEvent(reply: ChatReply, event: ChatEvent): void {
  if ("metadata" in event && event.metadata) reply.metadata = event.metadata;
  switch (event.type) {
    case "text_delta":
      reply.text += event.data;
      break;
    case "bubble_termination":
      if (reply.text !== "" && !reply.text.endsWith("\n\n")) reply.text += "\n\n";
      break;
    case "product":
      reply.products.push(event.data);
      break;
    case "post":
      reply.posts.push({ ...event.data });
      break;
    case "post_delta": {
      const post = reply.posts.find((candidate) => candidate.id === event.data.id);
      if (post) post.summary = (post.summary ?? "") + event.data.delta;
      else reply.posts.push({ id: event.data.id, summary: event.data.delta });
      break;
    }
    case "prompts":
      reply.prompts.push(...event.data);
      break;
    case "domain_offer":
      reply.offer = event.data;
      break;
    case "domain_offer_success":
      reply.offerResult = event.data;
      break;
    case "error":
      reply.errors.push(event.data.error);
      break;
    case "complete":
      reply.complete = true;
      reply.text = reply.text.replace(/\s+$/, "");
      break;
    case "incomplete":
      reply.complete = false;
      break;
    case "progress":
    case "unknown":
      break;
  }
}
