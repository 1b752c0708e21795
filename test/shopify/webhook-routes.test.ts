import { readFileSync } from "node:fs";
import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyHmac, shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import prisma from "../../app/models/db.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as appScopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as bulkOperationsFinish } from "../../app/routes/webhooks.bulk_operations.finish";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

const SHOP_A = "shop-a.myshopify.com";
const SHOP_B = "shop-b.myshopify.com";
const fixture = (name: string) => `${__dirname}/../fixtures/shopify/webhooks/${name}`;

const routes: Record<string, Action> = {
  "app/uninstalled": appUninstalled,
  "app/scopes_update": appScopesUpdate,
  "shop/redact": shopRedact,
  "customers/data_request": customersDataRequest as Action,
  "customers/redact": customersRedact as Action,
  "bulk_operations/finish": bulkOperationsFinish,
};

beforeAll(async () => {
  await prepareAppEnvironment();
});

async function seedShop(shopDomain: string) {
  await prisma.shop.create({
    data: {
      shopDomain,
      primaryDomain: `www.${shopDomain}`,
      workspaceId: "ws",
      scopes: "read_products",
    },
  });
  await prisma.session.create({
    data: {
      id: `offline_${shopDomain}`,
      shop: shopDomain,
      state: "",
      accessToken: "shpat_x",
      scope: "read_products",
    },
  });
  await prisma.complianceRequest.create({
    data: { shopDomain, topic: "customers/data_request", outcome: "seeded" },
  });
}

async function rowsOf(shopDomain: string) {
  return {
    shops: await prisma.shop.count({ where: { shopDomain } }),
    sessions: await prisma.session.count({ where: { shop: shopDomain } }),
    compliance: await prisma.complianceRequest.count({ where: { shopDomain } }),
  };
}

function deliver(
  topic: string,
  shop: string,
  body: string,
  extra: Partial<Parameters<typeof shopifyWebhookRequest>[0]> = {},
) {
  const action = routes[topic];
  if (!action) throw new Error(`no route for ${topic}`);
  return callAction(
    action,
    shopifyWebhookRequest({ topic, shop, body, secret: TEST_API_SECRET, ...extra }),
  );
}

beforeEach(async () => {
  await prisma.session.deleteMany();
  await prisma.complianceRequest.deleteMany();
  await prisma.shop.deleteMany();
  await seedShop(SHOP_A);
  await seedShop(SHOP_B);
});

describe("signature checks, before the database is touched", () => {
  const topics = [
    "bulk_operations/finish",
    "app/uninstalled",
    "app/scopes_update",
    "shop/redact",
    "customers/data_request",
    "customers/redact",
  ];
  const body = JSON.stringify({ shop_domain: SHOP_A, current: ["read_products"] });

  it.each(topics)("%s refuses a tampered body with 401", async (topic) => {
    const request = shopifyWebhookRequest({
      topic,
      shop: SHOP_A,
      body: body.replace("read_products", "write_products"),
      secret: TEST_API_SECRET,
      hmac: shopifyHmac(TEST_API_SECRET, body),
    });
    const response = await callAction(routes[topic]!, request);
    expect(response.status).toBe(401);
    expect(await rowsOf(SHOP_A)).toEqual({ shops: 1, sessions: 1, compliance: 1 });
  });

  it.each(topics)("%s refuses a body signed with another secret with 401", async (topic) => {
    const response = await deliver(topic, SHOP_A, body, { secret: "someone-elses-secret" });
    expect(response.status).toBe(401);
    expect(await rowsOf(SHOP_A)).toEqual({ shops: 1, sessions: 1, compliance: 1 });
  });

  it.each(topics)("%s refuses a delivery without a signature or topic header", async (topic) => {
    for (const header of ["X-Shopify-Hmac-Sha256", "X-Shopify-Topic", "X-Shopify-Shop-Domain"]) {
      const response = await deliver(topic, SHOP_A, body, { omitHeaders: [header] });
      expect([400, 401]).toContain(response.status);
    }
    expect(await rowsOf(SHOP_A)).toEqual({ shops: 1, sessions: 1, compliance: 1 });
  });
});

describe("Shopify's own signature vectors", () => {
  const { vectors } = JSON.parse(readFileSync(fixture("webhook_hmac_vectors.json"), "utf8")) as {
    vectors: { id: string; secret: string; body: string; expected_hmac_base64: string }[];
  };

  it.each(vectors.map((v) => [v.id, v] as const))(
    "signs %s exactly as Shopify does",
    (_id, vector) => {
      expect(shopifyHmac(vector.secret, vector.body)).toBe(vector.expected_hmac_base64);
    },
  );

  it("accepts a vector signed with the app's secret and refuses those signed with other secrets", async () => {
    for (const vector of vectors.filter((v) => v.body.startsWith("{"))) {
      const response = await deliver("customers/data_request", SHOP_A, vector.body, {
        hmac: vector.expected_hmac_base64,
      });
      expect(response.status).toBe(vector.secret === TEST_API_SECRET ? 200 : 401);
    }
    expect(await prisma.complianceRequest.count({ where: { shopDomain: SHOP_A } })).toBe(2);
  });
});

describe("app/uninstalled", () => {
  it("marks the shop uninstalled and deletes its sessions, leaving other shops alone", async () => {
    const response = await deliver(
      "app/uninstalled",
      SHOP_A,
      JSON.stringify({ id: 1, myshopify_domain: SHOP_A }),
    );
    expect(response.status).toBe(200);
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP_A } });
    expect(shop.state).toBe("uninstalled");
    expect(shop.uninstalledAt).toBeInstanceOf(Date);
    expect(await rowsOf(SHOP_A)).toMatchObject({ sessions: 0 });
    expect(await rowsOf(SHOP_B)).toEqual({ shops: 1, sessions: 1, compliance: 1 });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP_B } })).state).toBe(
      "active",
    );
  });
});

describe("app/scopes_update", () => {
  it("stores the scopes the merchant granted", async () => {
    const body = JSON.stringify({
      id: 1,
      previous: ["read_products"],
      current: ["read_products", "read_online_store_pages"],
    });
    expect((await deliver("app/scopes_update", SHOP_A, body)).status).toBe(200);
    const session = await prisma.session.findFirstOrThrow({ where: { shop: SHOP_A } });
    expect(session.scope).toBe("read_products,read_online_store_pages");
  });

  it("rejects a payload without the current scopes with a message", async () => {
    const response = await deliver("app/scopes_update", SHOP_A, JSON.stringify({ id: 1 }));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/current scopes/);
  });
});

describe("compliance topics", () => {
  it("shop/redact deletes every row of that shop and leaves other shops' rows", async () => {
    const body = readFileSync(fixture("shop_redact.json"), "utf8").replace(
      "{shop}.myshopify.com",
      SHOP_A,
    );
    expect((await deliver("shop/redact", SHOP_A, body)).status).toBe(200);
    expect(await rowsOf(SHOP_A)).toEqual({ shops: 0, sessions: 0, compliance: 0 });
    expect(await rowsOf(SHOP_B)).toEqual({ shops: 1, sessions: 1, compliance: 1 });
  });

  it.each(["customers/data_request", "customers/redact"])(
    "%s answers 200 and records that nothing is held for an unknown customer",
    async (topic) => {
      const file =
        topic === "customers/redact" ? "customers_redact.json" : "customers_data_request.json";
      const body = readFileSync(fixture(file), "utf8").replaceAll("{shop}.myshopify.com", SHOP_A);
      expect((await deliver(topic, SHOP_A, body)).status).toBe(200);
      const recorded = await prisma.complianceRequest.findFirstOrThrow({
        where: { shopDomain: SHOP_A },
        orderBy: { id: "desc" },
      });
      expect(recorded.topic).toBe(topic.toUpperCase().replace("/", "_"));
      expect(recorded.outcome).toMatch(/^(No data is held|Deleted 0 Inbox entries)/);
    },
  );
});
