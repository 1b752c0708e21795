/**
 * Shopify's webhooks over real HTTP against the app's server (app/server/app-server.ts): the
 * server answers a POST to a webhook route's exact path itself, before express and Remix
 * (app/server/webhook-routes.ts); the same route reached through Remix (the path with a trailing
 * slash, which the fast path leaves alone) must give the very same answers, refusals and
 * failures included, and a delivery answered 200 must be in the outbox.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningAppServer } from "../../app/server/app-server";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { refuseReceipts } from "../../testkit/refuse-receipts";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import { requireCurrentBuild } from "../../testkit/live-stack";
import prisma from "../../app/models/db.server";
import { startAppServer } from "../../app/server/app-server";

const SHOP = "fast-path.myshopify.com";
let app: RunningAppServer;

beforeAll(async () => {
  requireCurrentBuild();
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  app = await startAppServer();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

beforeEach(async () => {
  await refuseReceipts(prisma, false);
  await prisma.pendingChange.deleteMany();
  await prisma.webhookReceipt.deleteMany();
  await prisma.shop.deleteMany();
  await prisma.shop.create({ data: { shopDomain: SHOP, state: "active", syncProducts: true } });
});

interface Post {
  body: string;
  headers?: Record<string, string | string[]>;
  /** Signed with the app's secret unless a signature is given (or omitted with null). */
  hmac?: string | null;
  omit?: string[];
}

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
}

function post(path: string, delivery: Post): Promise<Answer> {
  const headers: Record<string, string | string[]> = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": "products/update",
    "X-Shopify-Shop-Domain": SHOP,
    "X-Shopify-Webhook-Id": randomUUID(),
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Triggered-At": new Date().toISOString(),
    ...delivery.headers,
  };
  const hmac = delivery.hmac === undefined ? shopifyHmac(TEST_API_SECRET, delivery.body) : null;
  if (delivery.hmac !== null) headers["X-Shopify-Hmac-Sha256"] = delivery.hmac ?? hmac!;
  for (const name of delivery.omit ?? []) delete headers[name];
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}${path}`, { method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
      );
    });
    req.on("error", reject);
    req.end(delivery.body);
  });
}

/** The same delivery (a new webhook id each time) through the fast path and through Remix. */
async function bothWays(path: string, delivery: Post): Promise<[Answer, Answer]> {
  const fast = await post(path, delivery);
  const remix = await post(`${path}/`, delivery);
  return [fast, remix];
}

const product = (id: unknown) => JSON.stringify({ id, title: "A product" });

describe("Shopify's webhooks answered by the server before Remix", () => {
  it("give Remix's answers: recorded, refused, failed", async () => {
    const cases: [string, string, Post, number][] = [
      ["recorded", "/webhooks/products", { body: product(101) }, 200],
      ["bad signature", "/webhooks/products", { body: product(102), hmac: "bm9wZQ==" }, 401],
      ["no signature", "/webhooks/products", { body: product(103), hmac: null }, 400],
      ["signed, not JSON", "/webhooks/products", { body: "{not json" }, 400],
      ["signed, not an object", "/webhooks/products", { body: "[1, 2]" }, 400],
      ["no product id", "/webhooks/products", { body: product("abc") }, 400],
      [
        "a Shopify header missing",
        "/webhooks/products",
        { body: product(104), omit: ["X-Shopify-API-Version"] },
        400,
      ],
      [
        "the shop header twice",
        "/webhooks/products",
        { body: product(105), headers: { "X-Shopify-Shop-Domain": [SHOP, "other.myshopify.com"] } },
        400,
      ],
      [
        "another shop in the body",
        "/webhooks/app/scopes_update",
        {
          body: JSON.stringify({ current: ["read_products"], myshopify_domain: "x.myshopify.com" }),
          headers: { "X-Shopify-Topic": "app/scopes_update" },
        },
        400,
      ],
      [
        "shop/redact without the shop in its body",
        "/webhooks/shop/redact",
        { body: JSON.stringify({ shop_id: 1 }), headers: { "X-Shopify-Topic": "shop/redact" } },
        400,
      ],
      [
        "an inventory level without its item",
        "/webhooks/inventory_levels/update",
        { body: JSON.stringify({}), headers: { "X-Shopify-Topic": "inventory_levels/update" } },
        400,
      ],
    ];
    for (const [name, path, delivery, status] of cases) {
      const [fast, remix] = await bothWays(path, delivery);
      expect({ name, ...fast }).toEqual({ name, ...remix });
      expect({ name, status: fast.status }).toEqual({ name, status });
    }
  });

  it("refuse a body over the limit with 413 and Connection: close, as Remix does", async () => {
    const body = JSON.stringify({ id: 106, body_html: "x".repeat(5 * 1024 * 1024) });
    const [fast, remix] = await bothWays("/webhooks/products", { body });
    expect(fast).toEqual(remix);
    expect(fast).toMatchObject({ status: 413, connection: "close" });
  });

  it("answer 500 when the database fails the write, as Remix does; the retry is taken", async () => {
    await refuseReceipts(prisma, true);
    const [fast, remix] = await bothWays("/webhooks/products", { body: product(107) });
    expect(fast).toEqual(remix);
    expect(fast.status).toBe(500);
    await refuseReceipts(prisma, false);
    // The same delivery sent again, as Shopify retries, is taken.
    const again = await post("/webhooks/products", { body: product(107) });
    expect(again.status).toBe(200);
  });

  it("have every delivery answered 200 in the outbox, its newest change kept", async () => {
    const sent = await Promise.all(
      Array.from({ length: 60 }, (_, k) =>
        post("/webhooks/products", {
          body: product(200 + (k % 20)),
          headers: {
            "X-Shopify-Triggered-At": new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString(),
          },
        }),
      ),
    );
    expect(sent.map((answer) => answer.status)).toEqual(sent.map(() => 200));
    const rows = await prisma.pendingChange.findMany({ orderBy: { productId: "asc" } });
    expect(rows).toHaveLength(20);
    for (const row of rows) {
      const k = Number(row.productId) - 200 + 40;
      expect(row.changedAt.toISOString()).toBe(
        new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString(),
      );
    }
    expect(await prisma.webhookReceipt.count()).toBe(60);
  });
});
