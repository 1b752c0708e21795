import { numericId } from "../../catalogue/gid";
import type { DeliveryOutcome } from "../../models/outbox.server";
import {
  recordLookupDelivery,
  type LookupKind,
  type LookupSignal,
} from "../../models/lookups.server";
import type { ModelLevel } from "../../models/stock-model.server";

export class MalformedLookupWebhookError extends Error {
  constructor(topic: string, detail: string) {
    super(`${topic} payload ${detail}`);
    this.name = "MalformedLookupWebhookError";
  }
}

const TOPICS: Readonly<Record<string, LookupKind>> = {
  "inventory_levels/update": "inventory-item",
  INVENTORY_LEVELS_UPDATE: "inventory-item",
  // A new collection, a smart one above all, gathers products without a products/update for them.
  "collections/create": "collection",
  COLLECTIONS_CREATE: "collection",
  "collections/update": "collection",
  COLLECTIONS_UPDATE: "collection",
  "collections/delete": "collection-delete",
  COLLECTIONS_DELETE: "collection-delete",
};

/** `gid://shopify/InventoryLevel/<location>?inventory_item_id=<item>`: both ids, exactly. */
const LEVEL_GID = /^gid:\/\/shopify\/InventoryLevel\/(\d+)\?inventory_item_id=(\d+)$/;
const COLLECTION_GID = /^gid:\/\/shopify\/Collection\/\d+$/;

function validDate(value: unknown): Date | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The id as Shopify issued it, or null (a rounded JSON number, a sign, a fraction, text). */
function shopifyId(value: unknown): string | null {
  if (typeof value !== "number" && typeof value !== "string") return null;
  try {
    return numericId(value);
  } catch {
    return null;
  }
}

function resourceIdOf(kind: LookupKind, payload: Record<string, unknown>): string | null {
  const gid = payload.admin_graphql_api_id;
  if (kind === "inventory-item") {
    // The gid first: a JSON number past 2^53 has already been rounded by the parser.
    const fromGid = typeof gid === "string" ? LEVEL_GID.exec(gid)?.[2] : undefined;
    return shopifyId(fromGid ?? payload.inventory_item_id);
  }
  if (typeof gid === "string" && COLLECTION_GID.test(gid)) return shopifyId(gid);
  return shopifyId(payload.id);
}

/**
 * Reads an inventory_levels/update or collections/create|update|delete delivery: what it names and as of
 * when (X-Shopify-Triggered-At, else the payload's updated_at, else the time of receipt). Throws
 * MalformedLookupWebhookError for what can never succeed (answered 400).
 */
export function lookupSignalOf(delivery: {
  topic: string;
  payload: unknown;
  triggeredAt?: string | undefined;
  receivedAt: Date;
}): LookupSignal {
  const kind = TOPICS[delivery.topic];
  if (!kind) throw new MalformedLookupWebhookError(delivery.topic, "is not a topic of this route");
  const payload = delivery.payload;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new MalformedLookupWebhookError(delivery.topic, "is not a JSON object");
  }
  const body = payload as Record<string, unknown>;
  const resourceId = resourceIdOf(kind, body);
  if (resourceId === null) {
    const what = kind === "inventory-item" ? "an inventory item id" : "a collection id";
    throw new MalformedLookupWebhookError(delivery.topic, `has no valid ${what}`);
  }
  const changedAt =
    validDate(delivery.triggeredAt) ?? validDate(body.updated_at) ?? new Date(delivery.receivedAt);
  const level = kind === "inventory-item" ? levelOf(body) : null;
  return { kind, resourceId, changedAt, ...(level ? { level } : {}) };
}

/**
 * The location and `available` an inventory_levels/update reports, for the stock model; null
 * when either is missing or not what Shopify sends (the item is then looked up as before).
 */
function levelOf(body: Record<string, unknown>): ModelLevel | null {
  const gid = body.admin_graphql_api_id;
  const fromGid = typeof gid === "string" ? LEVEL_GID.exec(gid)?.[1] : undefined;
  const locationId = shopifyId(fromGid ?? body.location_id);
  const available = body.available;
  if (locationId === null || typeof available !== "number" || !Number.isSafeInteger(available)) {
    return null;
  }
  return { locationId, available };
}

export interface LookupWebhook {
  shopDomain: string;
  topic: string;
  webhookId: string;
  triggeredAt?: string | undefined;
  payload: unknown;
}

/**
 * A verified inventory_levels/update or collections/create|update|delete delivery: "inventory item (or
 * collection) X changed at T" goes to the lookup outbox, once per delivery id. Which products it
 * concerns is asked of Shopify later, by the worker, in batches.
 */
export async function receiveLookupWebhook(
  webhook: LookupWebhook,
  receivedAt: Date = new Date(),
): Promise<DeliveryOutcome> {
  const signal = lookupSignalOf({ ...webhook, receivedAt });
  return recordLookupDelivery(
    webhook.shopDomain,
    webhook.webhookId,
    webhook.topic,
    signal,
    receivedAt,
  );
}
