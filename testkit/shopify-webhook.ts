import { createHmac, randomUUID } from "node:crypto";

/** Shopify's webhook signature: base64 HMAC-SHA256 of the raw body, keyed with the app secret. */
export function shopifyHmac(secret: string, rawBody: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

export interface WebhookDelivery {
  topic: string;
  shop: string;
  body: string;
  secret: string;
  webhookId?: string;
  hmac?: string;
  omitHeaders?: string[];
  url?: string;
}

/** A request carrying every header Shopify sends with a webhook delivery. */
export function shopifyWebhookRequest(delivery: WebhookDelivery): Request {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": delivery.topic,
    "X-Shopify-Shop-Domain": delivery.shop,
    "X-Shopify-Hmac-Sha256": delivery.hmac ?? shopifyHmac(delivery.secret, delivery.body),
    "X-Shopify-Webhook-Id": delivery.webhookId ?? randomUUID(),
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Event-Id": randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
  for (const name of delivery.omitHeaders ?? []) delete headers[name];
  return new Request(delivery.url ?? `https://catalog-chat.test/webhooks/${delivery.topic}`, {
    method: "POST",
    headers,
    body: delivery.body,
  });
}
