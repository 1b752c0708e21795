/**
 * Several shops on one service account, over real HTTP: the service (the emulator) sends every
 * event of an account to every webhook of the account (spec §6.1), so each shop's webhook receives
 * the other's shoppers too. Each event must reach only the shop whose workspace it concerns, in
 * its Inbox and its email; and after a merchant switches accounts in Settings, the former
 * account's events must stop arriving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { startFakeShopify } from "../../dev/fake-shopify/server";
import { startMailSink, type RunningMailSink } from "../../dev/mail-sink/server";
import { TEST_API_SECRET } from "../../testkit/app-environment";
import { waitFor } from "../../testkit/live-stack";
import {
  KEYS,
  SHOP_A,
  SHOP_B,
  askForAPerson,
  chat,
  connectShop,
  startEventsEnvironment,
  workspaceOfShop,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import * as inbox from "../../app/models/inbox.server";
import { openSecret } from "../../app/secret-box.server";
import { config } from "../../app/config.server";
import { saveSettings } from "../../app/shop/save-settings.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { startMailSender } from "../../app/service-events/mail-sender.server";

/** The key both shops were saved with (the docs allow one account for several shops). */
const SHARED_KEY = KEYS[SHOP_A].secret;
const SHARED_ACCOUNT = KEYS[SHOP_A].account;
const MERCHANT = { [SHOP_A]: "owner@shop-a.test", [SHOP_B]: "owner@shop-b.test" } as const;

let env: EventsEnvironment;
let mail: RunningMailSink;
let shopify: Awaited<ReturnType<typeof startFakeShopify>>;
/** The outbox's sender, as the app server's background work runs it (off in these tests). */
let sender: { stop(): Promise<void> } | null = null;

beforeAll(async () => {
  mail = await startMailSink();
  // Shop B's Settings are saved through the app's own code, which writes the storefront
  // configuration through the Admin API: the fake Shopify stands for B's store.
  shopify = await startFakeShopify({ shopDomain: SHOP_B, primaryDomain: "inbox-b.example.com" });
  env = await startEventsEnvironment({
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    DEMO_SHOP: SHOP_B,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
  });
  // Shopify's finish webhooks reach the app, so a sync's exports end as they come.
  shopify.state.setApp({ appUrl: env.appUrl, apiSecret: TEST_API_SECRET });
  sender = startMailSender();
  await connectShop(SHOP_A, SHARED_KEY, MERCHANT[SHOP_A]);
  await connectShop(SHOP_B, SHARED_KEY, MERCHANT[SHOP_B]);
}, 60_000);

afterAll(async () => {
  await sender?.stop();
  await env?.close();
  await shopify?.close();
  await mail?.close();
});

const mailTo = (shop: keyof typeof MERCHANT) =>
  mail.messages().filter((message) => message.to.includes(MERCHANT[shop]));

describe("shops that share a service account", () => {
  it("a shopper's contact request reaches only the Inbox and the email of the shop they wrote to", async () => {
    // Both shops' webhooks are the account's: the emulator delivers to each.
    expect(
      env.emulator.state.webhooks().filter((hook) => hook.account === SHARED_ACCOUNT),
    ).toHaveLength(2);
    await askForAPerson(
      env.emulator.url,
      SHOP_A,
      "web_shared_ana",
      { name: "Ana Lima", email: "ana@example.com", phone: "+351 900", message: "Porto?" },
      SHARED_KEY,
    );
    await askForAPerson(
      env.emulator.url,
      SHOP_B,
      "web_shared_bo",
      { name: "Bo Berg", email: "bo@example.com", phone: "", message: "Oslo?" },
      SHARED_KEY,
    );
    await env.emulator.state.deliveriesSettled();
    const contactDeliveries = env.emulator.state
      .deliveries()
      .filter((delivery) => delivery.eventType === "contact.submitted");
    // Each contact form went to both webhooks, and both answered.
    expect(contactDeliveries).toHaveLength(4);
    for (const delivery of contactDeliveries) expect(delivery.state).toBe("delivered");

    expect(await inbox.listInbox(SHOP_A)).toMatchObject([
      { threadId: "web_shared_ana", name: "Ana Lima", email: "ana@example.com", message: "Porto?" },
    ]);
    expect(await inbox.listInbox(SHOP_B)).toMatchObject([
      { threadId: "web_shared_bo", name: "Bo Berg", email: "bo@example.com", message: "Oslo?" },
    ]);
    // Nothing of one shop's shopper is kept under the other shop but a held copy, never shown.
    const eventsOf = (shopDomain: string, threadId: string) =>
      env.prisma.serviceEvent.count({ where: { shopDomain, threadId } });
    expect(await eventsOf(SHOP_B, "web_shared_ana")).toBe(0);
    expect(await eventsOf(SHOP_A, "web_shared_bo")).toBe(0);

    await waitFor(
      "each merchant's email",
      () => mailTo(SHOP_A).length + mailTo(SHOP_B).length >= 2,
    );
    expect(mailTo(SHOP_A).map((message) => message.subject)).toEqual([
      "New contact request from Ana Lima",
    ]);
    expect(mailTo(SHOP_B).map((message) => message.subject)).toEqual([
      "New contact request from Bo Berg",
    ]);
    expect(JSON.stringify(mailTo(SHOP_B))).not.toContain("ana@example.com");
    expect(JSON.stringify(mailTo(SHOP_A))).not.toContain("bo@example.com");
  });

  it("holds a contact form, which names no workspace, until its thread shows up in a shop's workspace, then delivers it to that shop only", async () => {
    /** One event of the account, delivered to both shops' webhooks as the service does. */
    const toEveryWebhook = async (payload: object) => {
      const body = JSON.stringify(payload);
      for (const shopDomain of [SHOP_A, SHOP_B]) {
        const row = await env.prisma.serviceWebhook.findUniqueOrThrow({ where: { shopDomain } });
        const secret = openSecret(row.secretCiphertext, config().encryptionKey);
        const response = await fetch(row.url!, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Webhook-Signature": signWebhookBody(secret, body),
          },
          body,
        });
        expect(response.status).toBe(200);
      }
    };
    const now = new Date().toISOString();
    await toEveryWebhook({
      id: "evt_held_contact",
      event_type: "contact.submitted",
      created_at: now,
      data: {
        thread_id: "web_held",
        name: "Hal Held",
        email: "hal@example.com",
        phone: "",
        message: "Any news?",
      },
    });
    const threadsOf = async (shopDomain: string) =>
      (await inbox.listInbox(shopDomain)).map((entry) => entry.threadId);
    expect(await threadsOf(SHOP_A)).not.toContain("web_held");
    expect(await threadsOf(SHOP_B)).not.toContain("web_held");

    await toEveryWebhook({
      id: "evt_held_hello",
      event_type: "chat.message_sent",
      created_at: now,
      data: { thread_id: "web_held", workspace_id: workspaceOfShop(SHOP_A), message: "Hello" },
    });
    expect(await inbox.listInbox(SHOP_A)).toContainEqual(
      expect.objectContaining({ threadId: "web_held", name: "Hal Held", message: "Any news?" }),
    );
    expect(await threadsOf(SHOP_B)).not.toContain("web_held");
    await waitFor("shop A's email", () =>
      mailTo(SHOP_A).some((message) => message.subject === "New contact request from Hal Held"),
    );
    expect(JSON.stringify(mailTo(SHOP_B))).not.toContain("Hal Held");
  });

  it("after switching accounts in Settings, the former account's events no longer arrive", async () => {
    const newKey = KEYS[SHOP_B].secret;
    const former = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_B },
    });
    const saved = await saveSettings(SHOP_B, await adminFor(SHOP_B), {
      secretKey: newKey,
      publishableKey: newKey.replace("_sk_", "_pk_"),
      workspaceOverride: "",
      // Little to move (Settings refuses nothing ticked): this test is about the events.
      syncProducts: false,
      syncPages: true,
      syncArticles: false,
    });
    expect(saved).toMatchObject({ ok: true, eventsProblem: null });

    // A shopper in B's workspace, through the former account's keys (an old storefront page).
    const before = env.emulator.state.deliveries().length;
    await askForAPerson(
      env.emulator.url,
      SHOP_B,
      "web_former_account",
      { name: "Cy Old", email: "cy@example.com", phone: "", message: "Still there?" },
      SHARED_KEY,
    );
    await env.emulator.state.deliveriesSettled();
    const newDeliveries = env.emulator.state.deliveries().slice(before);
    expect(await env.prisma.serviceEvent.count({ where: { threadId: "web_former_account" } })).toBe(
      0,
    );
    expect((await inbox.listInbox(SHOP_B)).map((entry) => entry.threadId)).toEqual([
      "web_shared_bo",
    ]);
    expect(newDeliveries.length).toBeGreaterThan(0);
    expect(newDeliveries.filter((delivery) => delivery.url === former.url)).toEqual([]);

    const row = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_B },
    });
    const hooks = env.emulator.state.webhooks();
    // The former account keeps only shop A's webhook; the new one has B's.
    expect(hooks.filter((hook) => hook.account === SHARED_ACCOUNT)).toHaveLength(1);
    expect(hooks.find((hook) => hook.id === row.webhookId)?.account).toBe(KEYS[SHOP_B].account);

    // The new account's events still arrive.
    await chat(env.emulator.url, SHOP_B, { threadId: "web_new_account", message: "Hello" }, newKey);
    await env.emulator.state.deliveriesSettled();
    expect(
      await env.prisma.serviceEvent.count({
        where: { shopDomain: SHOP_B, threadId: "web_new_account" },
      }),
    ).toBe(2);
    // The move's run ends before the environment is stopped.
    await waitFor("the move's run to end", async () => {
      const running = await env.prisma.syncRun.findFirst({ where: { activeShop: SHOP_B } });
      return running === null;
    });
  });
});
