/**
 * Shopify's privacy webhooks against what the Inbox holds: customers/data_request reports a
 * shopper's entries (by email or phone), customers/redact deletes them and their conversations'
 * events, shop/redact deletes everything of the shop; another shop's shopper is never touched.
 * Routes called as the server calls them, with Shopify's documented payloads and signatures.
 */
import { readFileSync } from "node:fs";
import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import prisma from "../../app/models/db.server";
import { receiveServiceEvent as receive } from "../../app/service-events/receive.server";
import { sealSecret } from "../../app/secret-box.server";
import { config } from "../../app/config.server";
import { action as customersDataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
const SHOP_A = "privacy-a.myshopify.com";
const SHOP_B = "privacy-b.myshopify.com";
const SHOP_C = "privacy-c.myshopify.com";
const SHOP_D = "privacy-d.myshopify.com";
const ID: Record<string, string> = {
  [SHOP_A]: "privacyPublicIdAAAA01",
  [SHOP_B]: "privacyPublicIdBBBB01",
  [SHOP_C]: "privacyPublicIdCCCC01",
  [SHOP_D]: "privacyPublicIdDDDD01",
};
const SECRET = "privacy-secret";
const fixture = (name: string, shop: string) =>
  readFileSync(`${import.meta.dirname}/../fixtures/shopify/webhooks/${name}`, "utf8").replaceAll(
    "{shop}.myshopify.com",
    shop,
  );

const routes: Record<string, Action> = {
  "customers/data_request": customersDataRequest as Action,
  "customers/redact": customersRedact as Action,
  "shop/redact": shopRedact as Action,
};
let sequence = 0;
const workspaceOf = (shop: string) => `www-${shop.replaceAll(".", "-")}`;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  for (const shopDomain of [SHOP_A, SHOP_B, SHOP_C, SHOP_D]) {
    await prisma.shop.create({
      data: {
        shopDomain,
        primaryDomain: `www.${shopDomain}`,
        workspaceId: workspaceOf(shopDomain),
      },
    });
    await prisma.serviceWebhook.create({
      data: {
        shopDomain,
        publicId: ID[shopDomain]!,
        secretCiphertext: sealSecret(SECRET, config().encryptionKey),
      },
    });
  }
});

/**
 * A signed service event delivered to the shop's webhook; every event but the contact form names
 * the shop's workspace, as the service's do. Returns the signed delivery, to send it again.
 */
async function event(
  shop: string,
  type: string,
  data: Record<string, unknown>,
  options: { createdAt?: Date; receivedAt?: Date } = {},
) {
  sequence += 1;
  const body = JSON.stringify({
    id: `evt_priv_${sequence}`,
    event_type: type,
    created_at: (options.createdAt ?? new Date()).toISOString(),
    data: type === "contact.submitted" ? data : { workspace_id: workspaceOf(shop), ...data },
  });
  const delivery = {
    publicId: ID[shop]!,
    rawBody: body,
    signature: signWebhookBody(SECRET, body),
    ...(options.receivedAt ? { receivedAt: options.receivedAt } : {}),
  };
  const outcome = await receive(delivery);
  expect(outcome).toMatchObject({ status: 200, reason: "stored" });
  return delivery;
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
  await event(shop, "chat.message_sent", { thread_id: "t_john_phone", message: "Hello" });
  await event(shop, "contact.submitted", {
    thread_id: "t_john_phone",
    name: "J.",
    email: "",
    phone: "(555) 625 1199",
    message: "By phone",
  });
  await event(shop, "chat.message_sent", { thread_id: "t_mia", message: "Hello" });
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

  it("customers/redact cannot be undone: the shopper's older events sent again bring nothing back", async () => {
    const conversation = [
      await event(SHOP_C, "chat.message_sent", { thread_id: "t_zed", message: "Hi there" }),
      await event(SHOP_C, "handoff.requested", {
        thread_id: "t_zed",
        customer: { name: "John", email: "john@example.com" },
      }),
      await event(SHOP_C, "contact.submitted", {
        thread_id: "t_zed",
        name: "John",
        email: "john@example.com",
        phone: "555-625-1199",
        message: "Call me back",
      }),
    ];
    // And a contact form that names the shopper but reached the app only after the redaction.
    await event(SHOP_C, "chat.message_sent", { thread_id: "t_zed_2", message: "Yo" });
    const lateContact = JSON.stringify({
      id: "evt_priv_late_contact",
      event_type: "contact.submitted",
      created_at: new Date().toISOString(),
      data: { thread_id: "t_zed_2", name: "John", email: "JOHN@example.com", message: "Again" },
    });
    expect((await threads(SHOP_C)).filter((t) => t.startsWith("t_zed"))).toEqual(["t_zed"]);

    const redact = fixture("customers_redact.json", SHOP_C);
    expect((await deliver("customers/redact", SHOP_C, redact)).status).toBe(200);
    expect((await threads(SHOP_C)).filter((t) => t.startsWith("t_zed"))).toEqual([]);

    // Every signed event of the conversation, delivered again (a retry or a replay).
    for (const delivery of conversation) {
      expect(await receive(delivery)).toMatchObject({
        status: 200,
        reason: "redacted",
        newInboxEntry: false,
      });
    }
    expect(
      await receive({
        publicId: ID[SHOP_C]!,
        rawBody: lateContact,
        signature: signWebhookBody(SECRET, lateContact),
      }),
    ).toMatchObject({ status: 200, reason: "redacted", newInboxEntry: false });
    expect((await threads(SHOP_C)).filter((t) => t.startsWith("t_zed"))).toEqual([]);
    expect(
      await prisma.serviceEvent.count({
        where: { shopDomain: SHOP_C, threadId: "t_zed" },
      }),
    ).toBe(0);
    expect(await prisma.heldServiceEvent.count({ where: { shopDomain: SHOP_C } })).toBe(0);
    // Nothing of the shopper is kept in the clear: only keyed hashes.
    const kept = JSON.stringify(
      await prisma.redactedShopper.findMany({ where: { shopDomain: SHOP_C } }),
    );
    expect(kept).not.toMatch(/john|5556251199|t_zed/i);

    // The shopper writing again after the redaction is a new conversation, taken as any other.
    const later = new Date(Date.now() + 3_600_000);
    await event(
      SHOP_C,
      "chat.message_sent",
      { thread_id: "t_zed_new", message: "Back again" },
      { createdAt: later, receivedAt: later },
    );
    await event(
      SHOP_C,
      "contact.submitted",
      { thread_id: "t_zed_new", name: "John", email: "john@example.com", message: "New" },
      { createdAt: later, receivedAt: later },
    );
    expect((await threads(SHOP_C)).filter((t) => t.startsWith("t_zed"))).toEqual(["t_zed_new"]);
  });

  it("reaches every copy: the same events stored or held under another shop go too", async () => {
    const copy = async (delivery: { rawBody: string }, shopDomain: string, held: boolean) => {
      const body = JSON.parse(delivery.rawBody) as {
        id: string;
        event_type: string;
        created_at: string;
        data: Record<string, unknown>;
      };
      const row = {
        shopDomain,
        eventId: body.id,
        eventType: body.event_type,
        occurredAt: new Date(body.created_at),
        threadId: body.data.thread_id as string,
        data: JSON.stringify(body.data),
      };
      if (held) await prisma.heldServiceEvent.create({ data: { ...row, receivedAt: new Date() } });
      else await prisma.serviceEvent.create({ data: row });
    };
    const hello = await event(SHOP_C, "chat.message_sent", { thread_id: "t_kim", message: "Hi" });
    const contact = await event(SHOP_C, "contact.submitted", {
      thread_id: "t_kim",
      name: "Kim",
      email: "kim@example.com",
      phone: "",
      message: "Call me",
    });
    // What an earlier version stored under every shop of the account, and a held copy.
    await copy(hello, SHOP_B, false);
    await copy(contact, SHOP_B, false);
    await prisma.inboxItem.create({
      data: {
        shopDomain: SHOP_B,
        threadId: "t_kim",
        name: "Kim",
        email: "kim@example.com",
        message: "Call me",
        firstAt: new Date(),
        lastAt: new Date(),
      },
    });
    await copy(contact, SHOP_D, true);

    const kim = (name: string) =>
      fixture(name, SHOP_C).replaceAll("john@example.com", "kim@example.com");
    expect(
      (await deliver("customers/data_request", SHOP_C, kim("customers_data_request.json"))).status,
    ).toBe(200);
    const report = await prisma.complianceRequest.findFirstOrThrow({
      where: { shopDomain: SHOP_C },
      orderBy: { id: "desc" },
    });
    expect(report.outcome).toContain(
      "under other shops 1 Inbox entries, 2 events and 1 held events copied from these conversations",
    );
    expect((await deliver("customers/redact", SHOP_C, kim("customers_redact.json"))).status).toBe(
      200,
    );
    expect(await prisma.inboxItem.count({ where: { threadId: "t_kim" } })).toBe(0);
    expect(await prisma.serviceEvent.count({ where: { threadId: "t_kim" } })).toBe(0);
    expect(await prisma.heldServiceEvent.count({ where: { threadId: "t_kim" } })).toBe(0);
  });
});
