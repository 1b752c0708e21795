/**
 * Shopify's privacy webhooks against what the Inbox holds: customers/data_request reports a
 * shopper's entries (by email or phone), customers/redact deletes them and their conversations'
 * events, shop/redact deletes everything of the shop; another shop's shopper is never touched.
 * Routes called as the server calls them, with Shopify's documented payloads and signatures.
 */
import { readFileSync } from "node:fs";
import type { ActionFunctionArgs } from "@remix-run/node";
import type { PrismaClient } from "@prisma/client";
import { beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { prepareAppEnvironment, TEST_API_SECRET } from "../support/app-environment";
import { callAction } from "../support/route-call";
import { shopifyWebhookRequest } from "../support/shopify-webhook";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
const SHOP_A = "privacy-a.myshopify.com";
const SHOP_B = "privacy-b.myshopify.com";
const ID: Record<string, string> = {
  [SHOP_A]: "privacyPublicIdAAAA01",
  [SHOP_B]: "privacyPublicIdBBBB01",
};
const SECRET = "privacy-secret";
const fixture = (name: string, shop: string) =>
  readFileSync(`${import.meta.dirname}/../fixtures/shopify/webhooks/${name}`, "utf8").replaceAll(
    "{shop}.myshopify.com",
    shop,
  );

let prisma: PrismaClient;
let receive: (typeof import("../../app/service-events/receive.server"))["receiveServiceEvent"];
const routes: Record<string, Action> = {};
let sequence = 0;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  prisma = (await import("../../app/db.server")).default;
  receive = (await import("../../app/service-events/receive.server")).receiveServiceEvent;
  routes["customers/data_request"] = (
    await import("../../app/routes/webhooks.customers.data_request")
  ).action as Action;
  routes["customers/redact"] = (await import("../../app/routes/webhooks.customers.redact"))
    .action as Action;
  routes["shop/redact"] = (await import("../../app/routes/webhooks.shop.redact")).action as Action;
  const { sealSecret } = await import("../../app/models/secret-box.server");
  const { config } = await import("../../app/config.server");
  for (const shopDomain of [SHOP_A, SHOP_B]) {
    await prisma.shop.create({ data: { shopDomain, primaryDomain: `www.${shopDomain}` } });
    await prisma.serviceWebhook.create({
      data: {
        shopDomain,
        publicId: ID[shopDomain]!,
        secretCiphertext: sealSecret(SECRET, config().encryptionKey),
      },
    });
  }
});

async function event(shop: string, type: string, data: object) {
  sequence += 1;
  const body = JSON.stringify({
    id: `evt_priv_${sequence}`,
    event_type: type,
    created_at: new Date().toISOString(),
    data,
  });
  const outcome = await receive({
    publicId: ID[shop]!,
    rawBody: body,
    signature: signWebhookBody(SECRET, body),
  });
  expect(outcome.status).toBe(200);
}

/** John from Shopify's payloads (john@example.com, 555-625-1199) and Mia, in both shops. */
async function seedConversations(shop: string) {
  await event(shop, "chat.message_sent", { thread_id: "t_john", message: "Where is my order?" });
  await event(shop, "contact.submitted", {
    thread_id: "t_john",
    name: "John",
    email: "John@Example.com",
    phone: "",
    message: "Call me",
  });
  await event(shop, "contact.submitted", {
    thread_id: "t_john_phone",
    name: "J.",
    email: "",
    phone: "(555) 625 1199",
    message: "By phone",
  });
  await event(shop, "contact.submitted", {
    thread_id: "t_mia",
    name: "Mia",
    email: "mia@example.com",
    phone: "",
    message: "Hi",
  });
}

async function deliver(topic: string, shop: string, body: string) {
  return callAction(
    routes[topic]!,
    shopifyWebhookRequest({ topic, shop, body, secret: TEST_API_SECRET }),
  );
}

const threads = async (shopDomain: string) =>
  (await prisma.inboxItem.findMany({ where: { shopDomain }, orderBy: { threadId: "asc" } })).map(
    (item) => item.threadId,
  );

describe("privacy webhooks and the Inbox", () => {
  it("customers/data_request reports, customers/redact deletes, by email or phone, in that shop only", async () => {
    await seedConversations(SHOP_A);
    await seedConversations(SHOP_B);

    const request = fixture("customers_data_request.json", SHOP_A);
    expect((await deliver("customers/data_request", SHOP_A, request)).status).toBe(200);
    const report = await prisma.complianceRequest.findFirstOrThrow({
      where: { shopDomain: SHOP_A },
      orderBy: { id: "desc" },
    });
    expect(report.outcome).toMatch(/^Holds 2 Inbox entries/);
    expect(report.outcome).toContain("t_john");
    expect(report.outcome).toContain("t_john_phone");
    expect(report.outcome).not.toContain("t_mia");
    // The record names what is held, not the customer's details.
    expect(report.outcome).not.toMatch(/john@example\.com|625/i);

    const redact = fixture("customers_redact.json", SHOP_A);
    expect((await deliver("customers/redact", SHOP_A, redact)).status).toBe(200);
    expect(await threads(SHOP_A)).toEqual(["t_mia"]);
    expect(
      await prisma.serviceEvent.count({
        where: { shopDomain: SHOP_A, threadId: { in: ["t_john", "t_john_phone"] } },
      }),
    ).toBe(0);
    expect(await threads(SHOP_B)).toEqual(["t_john", "t_john_phone", "t_mia"]);

    expect((await deliver("shop/redact", SHOP_A, fixture("shop_redact.json", SHOP_A))).status).toBe(
      200,
    );
    expect(await threads(SHOP_A)).toEqual([]);
    expect(await prisma.serviceEvent.count({ where: { shopDomain: SHOP_A } })).toBe(0);
    expect(await prisma.serviceWebhook.count({ where: { shopDomain: SHOP_A } })).toBe(0);
    expect(await threads(SHOP_B)).toHaveLength(3);
  });
});
