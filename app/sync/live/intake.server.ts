import { productServiceId } from "../../catalogue/gid";
import { payloadFingerprint } from "../../catalogue/product-payload";
import { GroupCommit } from "./group-commit";
import {
  recordProductDeliveries,
  type DeliveryOutcome,
  type ProductChangeSignal,
} from "../../models/outbox.server";

export class MalformedProductWebhookError extends Error {
  constructor(topic: string, detail: string) {
    super(`${topic} payload ${detail}`);
    this.name = "MalformedProductWebhookError";
  }
}

const TOPICS: Readonly<Record<string, ProductChangeSignal["change"]>> = {
  PRODUCTS_CREATE: "update",
  PRODUCTS_UPDATE: "update",
  PRODUCTS_DELETE: "delete",
  "products/create": "update",
  "products/update": "update",
  "products/delete": "delete",
};

function validDate(value: unknown): Date | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Reads a products/create|update|delete delivery. The payload is only a signal (the worker
 * re-reads the product): its id, and the time of the change, which is X-Shopify-Triggered-At when
 * Shopify sent it, else the payload's updated_at, else the time of receipt.
 */
export function productChangeOf(delivery: {
  topic: string;
  payload: unknown;
  triggeredAt?: string | undefined;
  receivedAt: Date;
}): ProductChangeSignal {
  const change = TOPICS[delivery.topic];
  if (!change) throw new MalformedProductWebhookError(delivery.topic, "is not a product topic");
  const payload = delivery.payload;
  if (typeof payload !== "object" || payload === null) {
    throw new MalformedProductWebhookError(delivery.topic, "is not a JSON object");
  }
  const {
    id,
    admin_graphql_api_id: gid,
    updated_at: updatedAt,
  } = payload as Record<string, unknown>;
  // The gid first: a JSON number past 2^53 has already been rounded by the parser.
  const rawId =
    typeof gid === "string" ? gid : typeof id === "number" || typeof id === "string" ? id : null;
  let productId: string;
  try {
    if (rawId === null) throw new Error();
    productId = productServiceId(rawId);
  } catch {
    throw new MalformedProductWebhookError(delivery.topic, "has no product id");
  }
  const changedAt =
    validDate(delivery.triggeredAt) ?? validDate(updatedAt) ?? new Date(delivery.receivedAt);
  const fingerprint = change === "update" ? payloadFingerprint(payload) : null;
  return { productId, change, changedAt, fingerprint };
}

export interface ProductWebhook {
  shopDomain: string;
  topic: string;
  webhookId: string;
  triggeredAt?: string | undefined;
  payload: unknown;
}

const intake = new GroupCommit(recordProductDeliveries);

/**
 * A verified products/* delivery: "product X changed (or was deleted) at T" goes to the outbox,
 * once per delivery id, written together with the deliveries that arrive meanwhile (group
 * commit). It resolves once the delivery is in the database and rejects when that write failed,
 * so a 200 always means durable. A malformed payload is refused before anything is queued.
 * Nothing is asked of Shopify or the service here; the worker does that. Deliveries for a shop
 * that is not installed, or does not sync products, are ignored.
 */
export function receiveProductWebhook(
  webhook: ProductWebhook,
  receivedAt: Date = new Date(),
): Promise<DeliveryOutcome> {
  const signal = productChangeOf({ ...webhook, receivedAt });
  return intake.submit({
    shopDomain: webhook.shopDomain,
    webhookId: webhook.webhookId,
    topic: webhook.topic,
    signal,
    receivedAt,
  });
}
