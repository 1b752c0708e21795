/**
 * METRICS_SHOP_LABELS on the server's webhook fast path (app/server/webhook-routes.ts): a
 * delivery for a listed shop counts in webhook_deliveries_by_shop_total as well as in the total;
 * one for any other shop counts in the total alone, and its domain appears nowhere in /metrics.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import { parsePrometheusText, sumOf } from "../../testkit/prometheus-text";
import prisma from "../../app/models/db.server";
import { createAppMetrics } from "../../app/server/metrics";
import { shopifyWebhookRoutes } from "../../app/server/webhook-routes";
import { productsWebhookBuild } from "../../testkit/products-webhook-build";

const WATCHED = "watched-webhooks.myshopify.com";
const UNWATCHED = "unwatched-webhooks.myshopify.com";
const { metrics, scrape } = createAppMetrics([WATCHED]);
let server: Server;
let base: string;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  for (const shopDomain of [WATCHED, UNWATCHED]) {
    await prisma.shop.create({ data: { shopDomain, state: "active", syncProducts: true } });
  }
  const build = productsWebhookBuild();
  const webhooks = shopifyWebhookRoutes(build, (delivery) =>
    metrics.countWebhookDelivery(delivery),
  );
  server = createServer((req, res) => {
    if (!webhooks(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

async function deliver(shop: string, secret = TEST_API_SECRET): Promise<number> {
  const body = JSON.stringify({
    id: 7001,
    admin_graphql_api_id: "gid://shopify/Product/7001",
    updated_at: new Date().toISOString(),
  });
  const answer = await fetch(`${base}/webhooks/products`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": "products/update",
      "X-Shopify-Shop-Domain": shop,
      "X-Shopify-Hmac-Sha256": shopifyHmac(secret, body),
      "X-Shopify-Webhook-Id": `by-shop-${Math.random()}`,
      "X-Shopify-API-Version": "2026-10",
    },
    body,
  });
  await answer.body?.cancel();
  return answer.status;
}

describe("webhook deliveries by shop", () => {
  it("count a listed shop's deliveries by shop and outcome, and every shop's in the total", async () => {
    expect(await deliver(WATCHED)).toBe(200);
    expect(await deliver(WATCHED)).toBe(200);
    expect(await deliver(UNWATCHED)).toBe(200);
    expect(await deliver(UNWATCHED, "not-the-secret")).toBe(401);

    const text = await scrape();
    const samples = parsePrometheusText(text);
    const total = "catalog_chat_webhook_deliveries_total";
    const byShop = "catalog_chat_webhook_deliveries_by_shop_total";
    expect(sumOf(samples, total, { topic: "products/update", outcome: "accepted" })).toBe(3);
    expect(sumOf(samples, total, { outcome: "unauthorized" })).toBe(1);
    expect(sumOf(samples, byShop, { shop: WATCHED, outcome: "accepted" })).toBe(2);
    expect(sumOf(samples, byShop)).toBe(2);
    expect(text).not.toContain(UNWATCHED);
    // The listed shop's outbox, by shop: the change waits (no worker runs here).
    expect(
      sumOf(samples, "catalog_chat_outbox_changes_by_shop", { shop: WATCHED, state: "waiting" }),
    ).toBe(1);
  });
});
