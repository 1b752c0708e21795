/**
 * Names and numbers the specification states outright (spec §4–§6). What the spec leaves open
 * lives in ./assumptions instead, so the two kinds of knowledge never mix.
 */

export const AUTHORIZATION_HEADER = "Authorization";
export const WORKSPACE_HEADER = "X-Workspace-ID";
export const JSON_CONTENT_TYPE = "application/json";
export const NDJSON_CONTENT_TYPE = "application/x-ndjson";

/** Spec §5.2. */
export const SECRET_KEY_PREFIX = "svc_sk_";
export const PUBLISHABLE_KEY_PREFIX = "svc_pk_";

export type KeyType = "secret" | "publishable" | "unknown";

export function keyTypeOf(apiKey: string): KeyType {
  if (apiKey.startsWith(SECRET_KEY_PREFIX)) return "secret";
  if (apiKey.startsWith(PUBLISHABLE_KEY_PREFIX)) return "publishable";
  return "unknown";
}

/** Spec §6.1. */
export const WEBHOOK_EVENT_TYPES = [
  "product.created",
  "product.updated",
  "product.deleted",
  "post.created",
  "post.updated",
  "post.deleted",
  "chat.message_sent",
  "chat.conversation_started",
  "feedback.submitted",
  "handoff.requested",
  "handoff.accepted",
  "handoff.resolved",
  "contact.submitted",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Spec §6.2. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Webhook-Signature";
export const WEBHOOK_SIGNATURE_PREFIX = "sha256=";

/** Spec §6.3: delay before attempts 2–5; attempt 1 is immediate. */
export const WEBHOOK_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const WEBHOOK_MAX_ATTEMPTS = 5;
export const WEBHOOK_RECEIVER_DEADLINE_MS = 30_000;

/** Spec §6.4. */
export const CHAT_EVENT_TYPES = [
  "text_delta",
  "product",
  "post",
  "post_delta",
  "prompts",
  "domain_offer",
  "domain_offer_success",
  "progress",
  "bubble_termination",
  "complete",
  "error",
] as const;

export type ServiceChatEventType = (typeof CHAT_EVENT_TYPES)[number];
