/**
 * What a hostile or unlucky day sends to the webhook routes: bodies replayed with another shop's
 * header, bodies too large, bodies that can never succeed. Each is refused with the status that
 * tells Shopify whether to retry, and nothing is touched.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import prisma from "../../app/models/db.server";
import {
  WEBHOOK_BODY_LIMIT_BYTES as limit,
  OVERSIZED_DRAIN_BYTES,
  OVERSIZED_DRAIN_MS,
} from "../../app/shopify/webhook-body-limit.server";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as appScopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as shopUpdate } from "../../app/routes/webhooks.shop.update";
import { action as bulkOperationsFinish } from "../../app/routes/webhooks.bulk_operations.finish";
import { action as productsWebhook } from "../../app/routes/webhooks.products";
import { action as inventoryLevelsUpdate } from "../../app/routes/webhooks.inventory_levels.update";
import { action as collectionsWebhook } from "../../app/routes/webhooks.collections";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

const SHOP_A = "shop-a.myshopify.com";
const SHOP_B = "shop-b.myshopify.com";

const routes = {
  "shop/redact": shopRedact,
  "customers/redact": customersRedact,
  "customers/data_request": customersDataRequest,
  "app/uninstalled": appUninstalled,
  "app/scopes_update": appScopesUpdate,
  "shop/update": shopUpdate,
  "bulk_operations/finish": bulkOperationsFinish,
  "products/update": productsWebhook,
  "inventory_levels/update": inventoryLevelsUpdate,
  "collections/create": collectionsWebhook,
  "collections/update": collectionsWebhook,
  "collections/delete": collectionsWebhook,
} as unknown as Record<string, Action>;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
});

async function seedShop(shopDomain: string) {
  await prisma.shop.create({
    data: { shopDomain, primaryDomain: `www.${shopDomain}`, workspaceId: "ws", scopes: "x" },
  });
  await prisma.session.create({
    data: { id: `offline_${shopDomain}`, shop: shopDomain, state: "", accessToken: "shpat_x" },
  });
  await prisma.complianceRequest.create({
    data: { shopDomain, topic: "seed", outcome: "seeded" },
  });
}

async function untouched(shopDomain: string) {
  const shop = await prisma.shop.findUnique({ where: { shopDomain } });
  return {
    state: shop?.state,
    sessions: await prisma.session.count({ where: { shop: shopDomain } }),
    compliance: await prisma.complianceRequest.count({ where: { shopDomain } }),
    outbox:
      (await prisma.pendingChange.count({ where: { shopDomain } })) +
      (await prisma.pendingLookup.count({ where: { shopDomain } })),
  };
}
const AS_SEEDED = { state: "active", sessions: 1, compliance: 1, outbox: 0 };

function deliver(
  topic: string,
  shop: string,
  body: string,
  extra: Partial<Parameters<typeof shopifyWebhookRequest>[0]> = {},
) {
  const request = shopifyWebhookRequest({ topic, shop, body, secret: TEST_API_SECRET, ...extra });
  return callAction(routes[topic]!, request);
}

beforeEach(async () => {
  await prisma.pendingChange.deleteMany();
  await prisma.pendingLookup.deleteMany();
  await prisma.webhookReceipt.deleteMany();
  await prisma.session.deleteMany();
  await prisma.complianceRequest.deleteMany();
  await prisma.shop.deleteMany();
  await seedShop(SHOP_A);
  await seedShop(SHOP_B);
});

describe("the shop is the one the signed body names", () => {
  it("shop/redact signed for shop A, replayed with shop B's header, erases nothing", async () => {
    const body = JSON.stringify({ shop_id: 1, shop_domain: SHOP_A });
    const response = await deliver("shop/redact", SHOP_B, body);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/another shop/);
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
    expect(await untouched(SHOP_B)).toEqual(AS_SEEDED);
  });

  it("shop/redact without shop_domain in the body erases nothing", async () => {
    const response = await deliver("shop/redact", SHOP_B, JSON.stringify({ shop_id: 1 }));
    expect(response.status).toBe(400);
    expect(await untouched(SHOP_B)).toEqual(AS_SEEDED);
  });

  it("shop/redact whose body and header agree still erases that shop only", async () => {
    const body = JSON.stringify({ shop_id: 1, shop_domain: SHOP_B });
    expect((await deliver("shop/redact", SHOP_B, body)).status).toBe(200);
    expect(await untouched(SHOP_B)).toMatchObject({ state: undefined, sessions: 0 });
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
  });

  it.each(["customers/redact", "customers/data_request"])(
    "%s naming another shop is refused and records nothing",
    async (topic) => {
      const body = JSON.stringify({ shop_id: 1, shop_domain: SHOP_A, customer: { id: 1 } });
      expect((await deliver(topic, SHOP_B, body)).status).toBe(400);
      expect(await untouched(SHOP_B)).toEqual(AS_SEEDED);
    },
  );

  it.each(["app/uninstalled", "shop/update"])(
    "%s whose Shop resource is another shop's is refused and touches nothing",
    async (topic) => {
      const body = JSON.stringify({ id: 1, myshopify_domain: SHOP_A, domain: "www.a.example" });
      expect((await deliver(topic, SHOP_B, body)).status).toBe(400);
      expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
      expect(await untouched(SHOP_B)).toEqual(AS_SEEDED);
    },
  );
});

describe("what can never succeed is a 400, not a 500 that Shopify retries for hours", () => {
  const topics = Object.keys({
    "shop/redact": 1,
    "customers/redact": 1,
    "customers/data_request": 1,
    "app/uninstalled": 1,
    "app/scopes_update": 1,
    "shop/update": 1,
    "bulk_operations/finish": 1,
    "products/update": 1,
    "inventory_levels/update": 1,
    "collections/update": 1,
    "collections/delete": 1,
  });

  it.each(topics)("%s: a signed body that is not JSON", async (topic) => {
    expect((await deliver(topic, SHOP_A, '{"id": 1,')).status).toBe(400);
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
  });

  it.each(topics)("%s: a signed body that is JSON but not an object", async (topic) => {
    for (const body of ["[1]", "null", '"abc"', "42"]) {
      expect((await deliver(topic, SHOP_A, body)).status).toBe(400);
    }
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
  });

  it.each(topics)("%s: a doubled shop header", async (topic) => {
    const request = shopifyWebhookRequest({
      topic,
      shop: SHOP_A,
      body: JSON.stringify({ id: 1, shop_domain: SHOP_A }),
      secret: TEST_API_SECRET,
    });
    request.headers.append("X-Shopify-Shop-Domain", SHOP_B);
    expect((await callAction(routes[topic]!, request)).status).toBe(400);
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
    expect(await untouched(SHOP_B)).toEqual(AS_SEEDED);
  });

  it.each([['"abc"'], ["-5"], ["1.5"], ["1e400"], ["0"], ['"12abc"'], ['""']])(
    "products/update with id %s (as id or gid) is refused and nothing enters the outbox",
    async (id) => {
      expect((await deliver("products/update", SHOP_A, `{"id": ${id}}`)).status).toBe(400);
      const gid = `{"admin_graphql_api_id": "gid://shopify/Product/${id.replaceAll('"', "")}"}`;
      expect((await deliver("products/update", SHOP_A, gid)).status).toBe(400);
      expect(await prisma.pendingChange.count()).toBe(0);
    },
  );

  it("an id past 2^53, already rounded by JSON, is refused; its gid is exact and taken", async () => {
    const big = "9007199254740993";
    expect((await deliver("products/update", SHOP_A, `{"id": ${big}}`)).status).toBe(400);
    expect(await prisma.pendingChange.count()).toBe(0);
    const body = `{"id": ${big}, "admin_graphql_api_id": "gid://shopify/Product/${big}"}`;
    expect((await deliver("products/update", SHOP_A, body)).status).toBe(200);
    expect((await prisma.pendingChange.findMany()).map((r) => r.productId)).toEqual([big]);
  });

  it.each([['"abc"'], ["-5"], ["1.5"], ["1e400"], ["0"], ['"12abc"'], ['""'], ["null"]])(
    "inventory_levels/update and collections/* with id %s are refused; nothing is looked up",
    async (id) => {
      const level = `{"inventory_item_id": ${id}, "location_id": 1, "available": 0}`;
      expect((await deliver("inventory_levels/update", SHOP_A, level)).status).toBe(400);
      const levelGid = `{"admin_graphql_api_id": "gid://shopify/InventoryLevel/1?inventory_item_id=${id.replaceAll('"', "")}"}`;
      expect((await deliver("inventory_levels/update", SHOP_A, levelGid)).status).toBe(400);
      for (const topic of ["collections/update", "collections/delete"]) {
        expect((await deliver(topic, SHOP_A, `{"id": ${id}}`)).status).toBe(400);
      }
      expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
    },
  );

  it("an inventory item id past 2^53 is refused as a number, taken exactly from the level's gid", async () => {
    const big = "9007199254740993";
    const rounded = `{"inventory_item_id": ${big}, "location_id": 1, "available": 0}`;
    expect((await deliver("inventory_levels/update", SHOP_A, rounded)).status).toBe(400);
    const body = `{"inventory_item_id": ${big}, "location_id": 1, "available": 0, "admin_graphql_api_id": "gid://shopify/InventoryLevel/1?inventory_item_id=${big}"}`;
    expect((await deliver("inventory_levels/update", SHOP_A, body)).status).toBe(200);
    const rows = await prisma.pendingLookup.findMany();
    expect(rows.map((row) => [row.kind, row.resourceId])).toEqual([["inventory-item", big]]);
    // A webhook names an item, never a product: nothing reaches the product outbox yet.
    expect(await prisma.pendingChange.count()).toBe(0);
  });

  it("collections/create is taken: a new collection's products are looked up", async () => {
    // A new smart collection gathers products by its rules with no products/update for them.
    const created = {
      id: 482865238,
      title: "Smart iPods",
      updated_at: "2026-11-25T10:00:00-05:00",
      admin_graphql_api_id: "gid://shopify/Collection/482865238",
    };
    expect((await deliver("collections/create", SHOP_A, JSON.stringify(created))).status).toBe(200);
    const rows = await prisma.pendingLookup.findMany();
    expect(rows.map((row) => [row.kind, row.resourceId])).toEqual([["collection", "482865238"]]);
  });

  it("collections/update and collections/delete are taken by the collection's id", async () => {
    const update = {
      id: 841564295,
      title: "IPods",
      admin_graphql_api_id: "gid://shopify/Collection/841564295",
    };
    expect((await deliver("collections/update", SHOP_A, JSON.stringify(update))).status).toBe(200);
    expect((await deliver("collections/delete", SHOP_A, '{"id": 395646240}')).status).toBe(200);
    const rows = await prisma.pendingLookup.findMany({ orderBy: { resourceId: "asc" } });
    expect(rows.map((row) => [row.kind, row.resourceId])).toEqual([
      ["collection-delete", "395646240"],
      ["collection", "841564295"],
    ]);
  });

  it("a valid product id is still taken, as a positive integer", async () => {
    const body = JSON.stringify({ id: 632910392, title: "IPod Nano" });
    expect((await deliver("products/update", SHOP_A, body)).status).toBe(200);
    const rows = await prisma.pendingChange.findMany();
    expect(rows.map((r) => r.productId)).toEqual(["632910392"]);
  });
});

describe("the signature alone admits a delivery: the shop's session is not read", () => {
  it("a shop whose offline token has expired still has its product change taken, without asking Shopify", async () => {
    // Shopify's authenticate.webhook loads the offline session and refreshes an expired token
    // at Shopify inside the request: no network here, so the delivery used to fail with 500.
    await prisma.session.update({
      where: { id: `offline_${SHOP_A}` },
      data: {
        expires: new Date(Date.now() - 3600_000),
        refreshToken: "shprt_x",
        refreshTokenExpires: new Date(Date.now() + 86_400_000),
      },
    });
    const body = JSON.stringify({ id: 632910392, title: "IPod Nano" });
    expect((await deliver("products/update", SHOP_A, body)).status).toBe(200);
    expect((await prisma.pendingChange.findMany()).map((r) => r.productId)).toEqual(["632910392"]);
  });
});

describe("bodies over the limit are refused with 413", () => {
  /** A body of `total` bytes (endless if undefined), counting what the route pulls from it. */
  function countedBody(total?: number) {
    const counter = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (total !== undefined && counter.pulled >= total) return controller.close();
        counter.pulled += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(32));
      },
    });
    return { body, counter };
  }

  function oversized(topic: string, body: ReadableStream<Uint8Array>, length?: number) {
    return new Request(`https://catalog-chat.test/webhooks/${topic}`, {
      method: "POST",
      headers: {
        ...(length === undefined ? {} : { "Content-Length": String(length) }),
        "X-Shopify-Topic": topic,
        "X-Shopify-Shop-Domain": SHOP_A,
        "X-Shopify-Hmac-Sha256": "bogus",
      },
      body,
      duplex: "half",
    } as RequestInit);
  }

  it("by Content-Length: the body is read to its end and thrown away, then refused", async () => {
    const { body, counter } = countedBody(2 * limit);
    const response = await callAction(
      routes["products/update"]!,
      oversized("products/update", body, 2 * limit),
    );
    expect(response.status).toBe(413);
    expect(response.headers.get("Connection")).toBe("close");
    // Drained (so the sender sees the 413, not a reset), and nothing was kept from it.
    expect(counter.pulled).toBe(2 * limit);
    expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
  });

  it.each(Object.keys({ "shop/redact": 1, "products/update": 1, "app/uninstalled": 1 }))(
    "%s: a streamed body past the limit is refused and nothing is touched",
    async (topic) => {
      const { body } = countedBody(2 * limit);
      const response = await callAction(routes[topic]!, oversized(topic, body));
      expect(response.status).toBe(413);
      expect(await untouched(SHOP_A)).toEqual(AS_SEEDED);
    },
  );

  it("a body that never ends is still answered, once the drain bound is reached", async () => {
    const { body, counter } = countedBody();
    const response = await callAction(
      routes["products/update"]!,
      oversized("products/update", body),
    );
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeGreaterThan(limit);
    expect(counter.pulled).toBeLessThan(limit + OVERSIZED_DRAIN_BYTES + 4 * 65_536);
  }, 30_000);

  it("a sender that goes quiet past the limit is answered when the drain time is up", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      // Sends just over the limit, then nothing: pull never settles again.
      pull(controller) {
        if (sent > limit) return new Promise<void>(() => {});
        sent += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(32));
      },
    });
    const started = Date.now();
    const response = await callAction(
      routes["products/update"]!,
      oversized("products/update", body),
    );
    expect(response.status).toBe(413);
    expect(Date.now() - started).toBeGreaterThanOrEqual(OVERSIZED_DRAIN_MS - 50);
  }, 30_000);

  it("a body of exactly the limit, signed, is read and answered", async () => {
    const head = JSON.stringify({ id: 632910392, body_html: "" });
    const padded = head.replace('""', `"${"x".repeat(limit - head.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(limit);
    expect((await deliver("products/update", SHOP_A, padded)).status).toBe(200);
  });
});
