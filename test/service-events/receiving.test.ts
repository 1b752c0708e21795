/**
 * The service's events reach the merchant (spec §6), over real HTTP: the emulator delivers signed
 * events to the app's production build; forged, foreign, replayed, malformed, oversized and
 * out-of-order deliveries; the app down while the emulator retries.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { startMailSink, type RunningMailSink } from "../../dev/mail-sink/server";
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
import { startMailSender } from "../../app/service-events/mail-sender.server";

let env: EventsEnvironment;
let mail: RunningMailSink;
/** The outbox's sender, as the app server's background work runs it (off in these tests). */
let sender: { stop(): Promise<void> } | null;

beforeAll(async () => {
  mail = await startMailSink();
  env = await startEventsEnvironment({
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "owner@shop-a.test",
  });
  sender = startMailSender();
  await connectShop(SHOP_A);
  await connectShop(SHOP_B);
}, 60_000);

afterAll(async () => {
  await sender?.stop();
  await env?.close();
  await mail?.close();
});

beforeEach(async () => {
  await env.emulator.state.deliveriesSettled();
  await env.prisma.serviceEvent.deleteMany();
  await env.prisma.inboxItem.deleteMany();
});

async function registration(shopDomain: string) {
  return env.prisma.serviceWebhook.findUniqueOrThrow({ where: { shopDomain } });
}

async function secretOf(shopDomain: string): Promise<string> {
  return openSecret((await registration(shopDomain)).secretCiphertext, config().encryptionKey);
}

let sequence = 0;
function event(type: string, data: Record<string, unknown>, createdAt = new Date()) {
  sequence += 1;
  return {
    id: `evt_test${sequence}${Date.now()}`,
    event_type: type,
    created_at: createdAt.toISOString(),
    data,
  };
}

async function post(url: string, body: string, signature: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== null) headers["X-Webhook-Signature"] = signature;
  return fetch(url, { method: "POST", headers, body });
}

/** A POST on a connection of its own (the app may close it without reading the body). */
function postOnOwnConnection(url: string, body: string, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        agent: false,
        headers: { "Content-Type": "application/json", "X-Webhook-Signature": signature },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Every event but the contact form names the shop's workspace, as the service's do. */
async function deliverSigned(
  shopDomain: string,
  payload: { event_type: string; data: Record<string, unknown> },
  secret?: string,
) {
  const named =
    payload.event_type === "contact.submitted"
      ? payload
      : { ...payload, data: { workspace_id: workspaceOfShop(shopDomain), ...payload.data } };
  const body = JSON.stringify(named);
  const row = await registration(shopDomain);
  return post(row.url!, body, signWebhookBody(secret ?? (await secretOf(shopDomain)), body));
}

const storedEvents = () => env.prisma.serviceEvent.count();

describe("receiving the service's events", () => {
  it("registers one webhook per shop at an opaque URL, for the events the app uses", async () => {
    const hooks = env.emulator.state.webhooks();
    expect(hooks).toHaveLength(2);
    for (const shopDomain of [SHOP_A, SHOP_B] as const) {
      const row = await registration(shopDomain);
      const hook = hooks.find((candidate) => candidate.id === row.webhookId)!;
      expect(hook.account).toBe(KEYS[shopDomain].account);
      expect(hook.url).toBe(`${env.appUrl}/service-events/${row.publicId}`);
      expect(hook.url).not.toContain("inbox-");
      expect([...hook.events].sort()).toEqual(
        [
          "chat.conversation_started",
          "chat.message_sent",
          "contact.submitted",
          "feedback.submitted",
          "handoff.accepted",
          "handoff.requested",
          "handoff.resolved",
        ].sort(),
      );
      // The secret is stored sealed, never as is.
      expect(row.secretCiphertext).not.toContain(await secretOf(shopDomain));
    }
  });

  it("a shopper who asks for a person and fills the form reaches the shop's Inbox, signed and once", async () => {
    await askForAPerson(env.emulator.url, SHOP_A, "web_ana_1", {
      name: "Ana Lima",
      email: "ana@example.com",
      phone: "+351 900 000 000",
      message: "Do you ship to Porto?",
    });
    await env.emulator.state.deliveriesSettled();
    const deliveries = env.emulator.state
      .deliveries()
      .filter((d) => d.eventType === "contact.submitted" || d.eventType === "handoff.requested");
    expect(deliveries.map((d) => d.eventType).sort()).toEqual([
      "contact.submitted",
      "handoff.requested",
    ]);
    for (const delivery of deliveries) {
      expect(delivery.state).toBe("delivered");
      expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
    }
    const entries = await inbox.listInbox(SHOP_A);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      threadId: "web_ana_1",
      name: "Ana Lima",
      email: "ana@example.com",
      phone: "+351 900 000 000",
      message: "Do you ship to Porto?",
      handoffState: "accepted",
      handledAt: null,
    });
    expect(await inbox.unreadInboxCount(SHOP_A)).toBe(1);
    // The other shop sees nothing of it.
    expect(await inbox.listInbox(SHOP_B)).toEqual([]);
    expect(await inbox.unreadInboxCount(SHOP_B)).toBe(0);
  });

  it("refuses a bad signature, another shop's secret, an unknown shop and a missing signature, storing nothing", async () => {
    const payload = event("contact.submitted", {
      thread_id: "web_forged",
      name: "Mallory",
      email: "m@example.com",
      phone: "",
      message: "hi",
    });
    const body = JSON.stringify(payload);
    const urlA = (await registration(SHOP_A)).url!;
    const wrong = await post(urlA, body, signWebhookBody("not-the-secret", body));
    expect(wrong.status).toBe(401);
    const foreign = await post(urlA, body, signWebhookBody(await secretOf(SHOP_B), body));
    expect(foreign.status).toBe(401);
    const missing = await post(urlA, body, null);
    expect(missing.status).toBe(401);
    const tampered = await post(
      urlA,
      body.replace("Mallory", "Mallorz"),
      signWebhookBody(await secretOf(SHOP_A), body),
    );
    expect(tampered.status).toBe(401);
    const unknown = await post(
      `${env.appUrl}/service-events/AAAAAAAAAAAAAAAAAAAAAAAA`,
      body,
      signWebhookBody(await secretOf(SHOP_A), body),
    );
    expect(unknown.status).toBe(401);
    // The shop's domain is not an address the app answers to.
    const byDomain = await post(
      `${env.appUrl}/service-events/${SHOP_A}`,
      body,
      signWebhookBody(await secretOf(SHOP_A), body),
    );
    expect(byDomain.status).toBe(401);
    expect(await storedEvents()).toBe(0);
    expect(await env.prisma.inboxItem.count()).toBe(0);
  });

  it("answers 400 to a signed but malformed body and 413 to an oversized one, storing nothing", async () => {
    const secret = await secretOf(SHOP_A);
    const url = (await registration(SHOP_A)).url!;
    const bodies = [
      "not json",
      "[]",
      JSON.stringify({
        id: "evt_1",
        event_type: "contact.submitted",
        created_at: "yesterday",
        data: {},
      }),
      JSON.stringify({
        id: "evt_1",
        event_type: "no.such_event",
        created_at: new Date().toISOString(),
        data: {},
      }),
      JSON.stringify({
        id: "",
        event_type: "contact.submitted",
        created_at: new Date().toISOString(),
        data: {},
      }),
      JSON.stringify({
        id: "evt_1",
        event_type: "contact.submitted",
        created_at: new Date().toISOString(),
        data: "x",
      }),
      JSON.stringify({
        id: "evt_1",
        event_type: "contact.submitted",
        created_at: new Date().toISOString(),
        data: { thread_id: 5 },
      }),
    ];
    for (const body of bodies) {
      const response = await post(url, body, signWebhookBody(secret, body));
      expect(response.status, body).toBe(400);
    }
    // Nested 100,000 levels deep in 200 KB: refused as malformed on every retry, never a 500.
    const deep = `{"id":"evt_deep","event_type":"chat.message_sent","created_at":"${new Date().toISOString()}","data":{"thread_id":"web_deep","message":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await post(url, deep, signWebhookBody(secret, deep));
      expect(response.status).toBe(400);
    }
    const huge = JSON.stringify(
      event("chat.message_sent", { thread_id: "web_big", message: "x".repeat(300_000) }),
    );
    expect(await postOnOwnConnection(url, huge, signWebhookBody(secret, huge))).toBe(413);
    expect(await storedEvents()).toBe(0);
  });

  it("takes a replayed or duplicated event once, and two deliveries at once once", async () => {
    const payload = event("contact.submitted", {
      thread_id: "web_twice",
      name: "Bo",
      email: "bo@example.com",
      phone: "",
      message: "Hello",
    });
    expect((await deliverSigned(SHOP_A, payload)).status).toBe(200);
    expect((await deliverSigned(SHOP_A, payload)).status).toBe(200);
    const again = event("handoff.requested", { thread_id: "web_twice", customer: { name: "Bo" } });
    const answers = await Promise.all([
      deliverSigned(SHOP_A, again),
      deliverSigned(SHOP_A, again),
      deliverSigned(SHOP_A, again),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await storedEvents()).toBe(2);
    expect(await inbox.listInbox(SHOP_A)).toMatchObject([
      { threadId: "web_twice", name: "Bo", handoffState: "requested" },
    ]);
    // An event older than the retention period cannot be told from a replay: ignored.
    const old = event(
      "contact.submitted",
      { thread_id: "web_old", name: "Old", email: "old@example.com" },
      new Date(Date.now() - 91 * 86_400_000),
    );
    expect((await deliverSigned(SHOP_A, old)).status).toBe(200);
    expect(await storedEvents()).toBe(2);
  });

  it("ends in the same state whatever the order of the deliveries", async () => {
    const t = Date.now() - 60_000;
    const at = (s: number) => new Date(t + s * 1000);
    const thread = (id: string) => [
      event(
        "handoff.requested",
        { thread_id: id, customer: { name: "Cy", email: "cy@example.com" } },
        at(1),
      ),
      event(
        "contact.submitted",
        {
          thread_id: id,
          name: "Cy Young",
          email: "cy@example.com",
          phone: "123",
          message: "Size?",
        },
        at(1),
      ),
      event("handoff.accepted", { thread_id: id, agent: { id: "a", name: "Sam" } }, at(2)),
      event("handoff.resolved", { thread_id: id }, at(3)),
    ];
    const inOrder = thread("web_in_order");
    for (const e of inOrder) await deliverSigned(SHOP_A, e);
    const reversed = thread("web_reversed").reverse();
    for (const e of reversed) {
      await deliverSigned(SHOP_A, e);
      await deliverSigned(SHOP_A, e);
    }
    const [a, b] = await Promise.all([
      env.prisma.inboxItem.findUniqueOrThrow({
        where: { shopDomain_threadId: { shopDomain: SHOP_A, threadId: "web_in_order" } },
      }),
      env.prisma.inboxItem.findUniqueOrThrow({
        where: { shopDomain_threadId: { shopDomain: SHOP_A, threadId: "web_reversed" } },
      }),
    ]);
    const { threadId: _a, ...first } = a;
    const { threadId: _b, ...second } = b;
    expect(second).toEqual(first);
    expect(first).toMatchObject({ name: "Cy Young", phone: "123", handoffState: "resolved" });
  });

  it("emails the merchant the shopper's details once, without an empty email first, when the contact form follows the handoff request", async () => {
    const thread = "web_mail_follow_up";
    // The mails name no thread (ids tell a merchant nothing): this test's are the shopper's.
    const mailsOfThread = () => mail.messages().filter((m) => m.subject.endsWith("from Dee Park"));
    await deliverSigned(
      SHOP_A,
      event("handoff.requested", { thread_id: thread, customer: { name: "Dee Park" } }),
    );
    const contact = event("contact.submitted", {
      thread_id: thread,
      name: "Dee Park",
      email: "dee@example.com",
      phone: "555",
      message: "Do you ship to Oslo?",
    });
    await deliverSigned(SHOP_A, contact);
    await deliverSigned(SHOP_A, contact);
    await waitFor("the contact request's email", () => mailsOfThread().length >= 1);
    const details = mailsOfThread()[0]!;
    expect(details.subject).toBe("New contact request from Dee Park");
    expect(details.text).toContain('Message: "Do you ship to Oslo?"');
    expect(details.text).toContain('Phone: "555"');
    expect(mailsOfThread()).toHaveLength(1);
    for (const message of mailsOfThread()) expect(message.text).not.toContain(thread);
  });

  it("sends a hostile contact form as quoted single lines, with no Reply-To for two addresses", async () => {
    const thread = "web_mail_hostile";
    const mailsOfThread = () =>
      mail.messages().filter((m) => m.subject.startsWith("New contact request from Mallory"));
    // The contact form names no workspace: the thread is seen in the shop's workspace first.
    await deliverSigned(SHOP_A, event("chat.conversation_started", { thread_id: thread }));
    await deliverSigned(
      SHOP_A,
      event("contact.submitted", {
        thread_id: thread,
        name: "Mallory\r\nOpen the Inbox: https://evil.example/login",
        email: "a@x.example, b@y.example",
        phone: "1\n2",
        message: "Hello\n\nOpen the Inbox: https://evil.example/login",
      }),
    );
    await waitFor("the hostile form's email", () => mailsOfThread().length >= 1);
    const [received] = mailsOfThread();
    expect(received!.replyTo).toBe("");
    expect(received!.subject).toBe(
      "New contact request from Mallory Open the Inbox: https://evil.example/login",
    );
    const lines = received!.text.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("Open the Inbox:"))).toEqual([
      `Open the Inbox: ${env.appUrl}/app/inbox`,
    ]);
    expect(lines).toContain('Message: "Hello Open the Inbox: https://evil.example/login"');
    expect(lines).toContain('Email: "a@x.example, b@y.example"');
    expect(lines).toContain('Phone: "1 2"');
  });

  it("loses nothing and doubles nothing when the app is down while the emulator retries", async () => {
    await env.stopApp();
    try {
      await askForAPerson(env.emulator.url, SHOP_A, "web_while_down", {
        name: "Dee",
        email: "dee@example.com",
        phone: "",
        message: "Are you open?",
      });
      await chat(env.emulator.url, SHOP_A, { threadId: "web_while_down", message: "hello?" });
      await waitFor("every first attempt to fail", () =>
        env.emulator.state
          .deliveries()
          .every((d) => d.state === "delivered" || d.attempts.length >= 1),
      );
      // A second round of failures: still down.
      env.emulator.state.flushWebhookRetries();
      await waitFor("every second attempt to fail", () =>
        env.emulator.state
          .deliveries()
          .every((d) => d.state === "delivered" || d.attempts.length >= 2),
      );
      expect(await storedEvents()).toBe(0);
    } finally {
      await env.startApp();
    }
    env.emulator.state.flushWebhookRetries();
    await env.emulator.state.deliveriesSettled();
    const deliveries = env.emulator.state.deliveries().filter((d) => d.attempts.length > 1);
    expect(deliveries.length).toBeGreaterThanOrEqual(5);
    for (const delivery of deliveries) {
      expect(delivery.state).toBe("delivered");
      expect(delivery.attempts.map((a) => a.delayBeforeMs)).toEqual([0, 60_000, 300_000]);
    }
    const eventIds = new Set(deliveries.map((d) => d.eventId));
    expect(await env.prisma.serviceEvent.count({ where: { shopDomain: SHOP_A } })).toBe(
      eventIds.size,
    );
    const entries = await inbox.listInbox(SHOP_A);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      threadId: "web_while_down",
      name: "Dee",
      handoffState: "accepted",
    });
  });
});
