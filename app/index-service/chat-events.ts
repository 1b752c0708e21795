/**
 * The typed events of a chat stream (spec §6.4, with the Offer, Result and Progress shapes of
 * docs/reference/service-gaps.md) and the parser of one NDJSON line into one of them. Pure: no node:
 * imports, so the storefront widget can bundle it.
 */
import { CHUNK_METADATA_KEY, PROMPT_OBJECT_TEXT_KEY, UNKNOWN_CHAT_EVENTS } from "./assumptions";

/** Who is speaking: the assistant, or a live agent after a handoff. */
export interface ChunkMetadata {
  source?: "ai" | "human";
  agentName?: string;
  agentAvatar?: string;
  [field: string]: unknown;
}

export interface ChatProduct {
  id: string;
  name?: string;
  price?: number;
  url?: string;
  image?: string;
  [field: string]: unknown;
}

export interface ChatPost {
  id: string;
  title?: string;
  url?: string;
  excerpt?: string;
  [field: string]: unknown;
}

export interface OfferAction {
  id: string;
  label: string;
  variant?: string;
}

export interface OfferFormField {
  id: string;
  type: "text" | "email" | "tel" | "textarea" | "select";
  label: string;
  placeholder?: string;
  required?: boolean;
  options?: Array<string | { value: string; label: string }>;
}

export type OfferUi =
  | { component: "action_group"; layout?: string; actions: OfferAction[] }
  | {
      component: "form";
      title?: string;
      fields: OfferFormField[];
      submitAction: OfferAction;
      cancelAction?: OfferAction;
    };

export interface Offer {
  domain: string;
  message: string;
  ui: OfferUi;
  context?: Record<string, unknown>;
}

/** Sent back in the next chat request as `offerResponse`. */
export interface OfferResponse {
  domain: string;
  actionId: string;
  formData?: Record<string, string>;
}

export interface OfferResult {
  domain: string;
  status: "success" | "error";
  agent?: { id: string; name: string; avatar?: string };
  conversationId?: string;
  [field: string]: unknown;
}

export interface Progress {
  message?: string;
  label?: string;
  [field: string]: unknown;
}

interface EventBase {
  metadata?: ChunkMetadata;
}

export type ChatEvent =
  | (EventBase & { type: "text_delta"; data: string })
  | (EventBase & { type: "product"; data: ChatProduct })
  | (EventBase & { type: "post"; data: ChatPost })
  | (EventBase & { type: "post_delta"; data: { id: string; delta: string } })
  /** Always strings: `{prompt}` objects are flattened. */
  | (EventBase & { type: "prompts"; data: string[] })
  | (EventBase & { type: "domain_offer"; data: Offer })
  | (EventBase & { type: "domain_offer_success"; data: OfferResult })
  | (EventBase & { type: "progress"; data: Progress })
  | (EventBase & { type: "bubble_termination"; data: Record<string, unknown> })
  | (EventBase & { type: "complete"; data: Record<string, unknown> })
  /** An error the service reported in the stream. */
  | (EventBase & { type: "error"; data: { error: string }; malformed?: false })
  /** A line that could not be read; `line` holds (the start of) it. Later lines still count. */
  | { type: "error"; data: { error: string }; malformed: true; line: string }
  /**
   * Made by the reader, never sent by the service: the stream ended ("ended") or broke ("failed")
   * before a `complete` event. Always the last event.
   */
  | { type: "incomplete"; data: { reason: "ended" | "failed"; error?: string } }
  /** Only with `unknownEvents: "pass"`: a chunk type this client does not know. */
  | (EventBase & { type: "unknown"; originalType: string; data: unknown });

export interface ParseOptions {
  unknownEvents?: "ignore" | "pass";
}

const MAX_REPORTED_LINE_LENGTH = 200;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformed(line: string, reason: string): ChatEvent {
  return {
    type: "error",
    data: { error: `Unreadable chat stream line: ${reason}` },
    malformed: true,
    line:
      line.length > MAX_REPORTED_LINE_LENGTH ? `${line.slice(0, MAX_REPORTED_LINE_LENGTH)}…` : line,
  };
}

function withId<T extends { id: string }>(data: unknown): T | undefined {
  if (!isObject(data)) return undefined;
  const id = data.id;
  if (typeof id === "string" && id !== "") return data as T;
  if (typeof id === "number") return { ...data, id: String(id) } as unknown as T;
  return undefined;
}

function promptTexts(data: unknown): string[] | undefined {
  if (!Array.isArray(data)) return undefined;
  const texts: string[] = [];
  for (const item of data) {
    if (typeof item === "string") texts.push(item);
    else if (isObject(item) && typeof item[PROMPT_OBJECT_TEXT_KEY] === "string") {
      texts.push(item[PROMPT_OBJECT_TEXT_KEY] as string);
    }
  }
  return texts;
}

function metadataOf(chunk: JsonObject): ChunkMetadata | undefined {
  const metadata = chunk[CHUNK_METADATA_KEY];
  return isObject(metadata) ? (metadata as ChunkMetadata) : undefined;
}

/**
 * One NDJSON line → one event; `undefined` for a line to skip (blank, or an unknown type when
 * unknown events are ignored). Never throws: an unreadable line becomes a malformed `error` event.
 */
export function parseChatEventLine(
  line: string,
  options: ParseOptions = {},
): ChatEvent | undefined {
  if (line.trim() === "") return undefined;
  let chunk: unknown;
  try {
    chunk = JSON.parse(line);
  } catch (error) {
    return malformed(line, error instanceof Error ? error.message : "not JSON");
  }
  if (!isObject(chunk) || typeof chunk.type !== "string") {
    return malformed(line, "not an object with a string `type`");
  }
  const data = chunk.data;
  const metadata = metadataOf(chunk);
  const base = metadata ? { metadata } : {};
  switch (chunk.type) {
    case "text_delta":
      return typeof data === "string"
        ? { ...base, type: "text_delta", data }
        : malformed(line, "text_delta data is not a string");
    case "product": {
      const product = withId<ChatProduct>(data);
      return product
        ? { ...base, type: "product", data: product }
        : malformed(line, "product has no id");
    }
    case "post": {
      const post = withId<ChatPost>(data);
      return post ? { ...base, type: "post", data: post } : malformed(line, "post has no id");
    }
    case "post_delta":
      return isObject(data) && typeof data.id === "string" && typeof data.delta === "string"
        ? { ...base, type: "post_delta", data: { id: data.id, delta: data.delta } }
        : malformed(line, "post_delta is not {id, delta}");
    case "prompts": {
      const prompts = promptTexts(data);
      return prompts
        ? { ...base, type: "prompts", data: prompts }
        : malformed(line, "prompts is not a list");
    }
    case "domain_offer":
      return isObject(data) && isObject(data.ui)
        ? { ...base, type: "domain_offer", data: data as unknown as Offer }
        : malformed(line, "domain_offer has no ui");
    case "domain_offer_success":
      return isObject(data)
        ? { ...base, type: "domain_offer_success", data: data as OfferResult }
        : malformed(line, "domain_offer_success data is not an object");
    case "progress":
      return {
        ...base,
        type: "progress",
        data: typeof data === "string" ? { message: data } : isObject(data) ? data : {},
      };
    case "bubble_termination":
    case "complete":
      return { ...base, type: chunk.type, data: isObject(data) ? data : {} };
    case "error": {
      const message =
        isObject(data) && typeof data.error === "string"
          ? data.error
          : typeof data === "string"
            ? data
            : "The service reported an error";
      return { ...base, type: "error", data: { error: message } };
    }
    default:
      if ((options.unknownEvents ?? UNKNOWN_CHAT_EVENTS) === "ignore") return undefined;
      return { ...base, type: "unknown", originalType: chunk.type, data };
  }
}
