import { productServiceId } from "../../catalog/gid";

/** What a products/* delivery tells: which product changed, how, and as of when. */
export interface ProductChangeSignal {
  /** The product's numeric Shopify id (the service's product id). */
  productId: string;
  change: "update" | "delete";
  changedAt: Date;
}

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
  return { productId, change, changedAt };
}
