/**
 * A sender that closes its connection in the middle of a webhook's body (its timeout, a reset) is
 * nothing the operator must act on: the server logs one short line for it, never a stack trace,
 * and goes on answering the next deliveries. Real sockets to the server's fast path
 * (app/server/webhook-routes.ts) over the real products/update route.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import prisma from "../../app/models/db.server";
import { shopifyWebhookRoutes } from "../../app/server/webhook-routes";
import { productsWebhookBuild } from "../../testkit/products-webhook-build";
import { captureLogs } from "../../testkit/capture-logs";

const SHOP = "aborted-sender.myshopify.com";
let server: Server;
let port: number;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  await prisma.shop.create({ data: { shopDomain: SHOP, state: "active", syncProducts: true } });
  const build = productsWebhookBuild();
  const webhooks = shopifyWebhookRoutes(build);
  server = createServer((req, res) => {
    if (!webhooks(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

function headers(body: string, length = Buffer.byteLength(body)): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Content-Length": String(length),
    "X-Shopify-Topic": "products/update",
    "X-Shopify-Shop-Domain": SHOP,
    "X-Shopify-Hmac-Sha256": shopifyHmac(TEST_API_SECRET, body),
    "X-Shopify-Webhook-Id": `wh-${Math.random()}`,
    "X-Shopify-API-Version": "2026-10",
  };
}

/** Sends the headers and part of a body, then closes the connection once the server read it. */
function sendAndAbandon(): Promise<void> {
  const body = JSON.stringify({ id: 1, title: "Lamp", variants: [] });
  return new Promise((resolve) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/webhooks/products",
      headers: headers(body, body.length + 10_000),
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(body.slice(0, 10), () => setImmediate(() => req.destroy()));
  });
}

function deliver(): Promise<number> {
  const body = JSON.stringify({ id: 2, title: "Chair", updated_at: new Date().toISOString() });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/webhooks/products",
        headers: headers(body),
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("a webhook connection its sender closes mid-body", () => {
  it("is one short log line each, no stack trace, and the next delivery is answered", async () => {
    const logs = captureLogs();
    try {
      for (let i = 0; i < 5; i++) await sendAndAbandon();
      // The server reads each abandoned body on its own turn: the answered delivery after them
      // means every one of them was handled.
      expect(await deliver()).toBe(200);
      await vi.waitFor(() => expect(logs.lines()).toHaveLength(5));
    } finally {
      logs.restore();
    }
    for (const line of logs.lines()) {
      expect(line.level).toBe("warn");
      expect(line.msg).toMatch(/^Webhook connection closed by its sender after \d+ bytes of body/);
      expect(line.msg).not.toContain("\n");
      expect(line).not.toHaveProperty("err");
    }
  });
});
