/**
 * The body of a service event delivery (spec §6.1), checked field by field. Pure: the receiving
 * route calls it only after the signature has been verified.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../index-service/protocol";

export interface ServiceEventBody {
  id: string;
  eventType: WebhookEventType;
  createdAt: Date;
  data: Record<string, unknown>;
  /** data.thread_id when the event carries one. */
  threadId: string | null;
}

export class MalformedEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedEventError";
  }
}

/** Any printable id up to 200 characters: the spec shows evt_<id> but not what <id> may hold. */
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;
const MAX_THREAD_ID = 200;
/**
 * How deep `data` may nest. The service's events are a few levels deep; storing and folding an
 * event walks it recursively (JSON.stringify), which a body nested 100,000 levels deep (200 KB of
 * brackets, within the body limit) would overflow.
 */
export const MAX_DATA_DEPTH = 32;
/**
 * The longest text kept of any one value of `data`: what the Inbox shows of a field (the email
 * shows less). A shopper's 100 KB message is kept cut, not whole.
 */
export const MAX_DATA_TEXT = 5_000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function parseServiceEventBody(rawBody: string): ServiceEventBody {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new MalformedEventError("The body is not JSON");
  }
  if (!isObject(body)) throw new MalformedEventError("The body is not a JSON object");
  const { id, event_type: eventType, created_at: createdAt, data } = body;
  if (typeof id !== "string" || !EVENT_ID.test(id)) {
    throw new MalformedEventError("id must be an event id (printable, up to 200 characters)");
  }
  if (
    typeof eventType !== "string" ||
    !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType)
  ) {
    throw new MalformedEventError("event_type is not an event of the service");
  }
  const when = typeof createdAt === "string" ? new Date(createdAt) : new Date(Number.NaN);
  if (Number.isNaN(when.getTime())) {
    throw new MalformedEventError("created_at must be an ISO 8601 time");
  }
  if (!isObject(data)) throw new MalformedEventError("data must be an object");
  if (nestedDeeperThan(data, MAX_DATA_DEPTH)) {
    throw new MalformedEventError(`data is nested more than ${MAX_DATA_DEPTH} levels deep`);
  }
  const thread = data.thread_id;
  if (thread !== undefined && thread !== null && typeof thread !== "string") {
    throw new MalformedEventError("data.thread_id must be a string");
  }
  if (typeof thread === "string" && thread.length > MAX_THREAD_ID) {
    throw new MalformedEventError("data.thread_id is too long");
  }
  return {
    id,
    eventType: eventType as WebhookEventType,
    createdAt: when,
    data: textsCut(data, MAX_DATA_TEXT),
    threadId: typeof thread === "string" && thread !== "" ? thread : null,
  };
}

/** Whether `value` has objects or arrays nested more than `limit` levels, found without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** `data` with every string longer than `limit` characters cut to it (a copy; the depth is bounded). */
function textsCut(data: Record<string, unknown>, limit: number): Record<string, unknown> {
  const cut = (value: unknown): unknown => {
    if (typeof value === "string") return value.length > limit ? value.slice(0, limit) : value;
    if (Array.isArray(value)) return value.map(cut);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner)]));
    }
    return value;
  };
  return cut(data) as Record<string, unknown>;
}
