/** Contract: webhook management, signed deliveries, the retry schedule and failure (§3, §6.1–6.3). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BadRequestError, NotFoundError } from "../../app/index-service/errors";
import { verifyWebhookSignature } from "../../app/index-service/webhook-signature";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor, product, startReceiver, type Receiver } from "./helpers";

const SECRET = "whsec_contract_test";
let emulator: RunningEmulator;
let receivers: Receiver[] = [];

beforeAll(async () => {
  // Retry delays of 1 min … 2 h become 0.6 ms … 72 ms.
  emulator = await startEmulator({ tokenDelayMs: 0, timeScale: 0.00001, webhookTimeoutMs: 10_000 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.state.reset();
});
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

const shop = () => clientFor(emulator, KEYS.personal, { workspaceId: "shop.example.com" });

describe("webhook management", () => {
  it("creates, lists, reads, updates and deletes webhooks", async () => {
    const client = shop();
    const created = await client.createWebhook({
      name: "Catalogue",
      url: "https://hooks.example.com/in",
      events: ["product.created"],
      secret: SECRET,
    });
    expect(created.status).toBe(201);
    const { id } = created.data;
    expect(created.data).toMatchObject({
      id: expect.any(String),
      name: "Catalogue",
      url: "https://hooks.example.com/in",
      events: ["product.created"],
    });
    expect(JSON.stringify(created.data)).not.toContain(SECRET);
    expect((await client.listWebhooks()).data.map((webhook) => webhook.id)).toEqual([id]);
    expect((await client.getWebhook(id)).data.name).toBe("Catalogue");
    const updated = await client.updateWebhook(id, {
      events: ["product.created", "product.deleted"],
    });
    expect(updated.data.events).toEqual(["product.created", "product.deleted"]);
    await client.deleteWebhook(id);
    expect(await caught(() => client.getWebhook(id))).toBeInstanceOf(NotFoundError);
    expect((await client.listWebhooks()).data).toEqual([]);
    // Another account does not see it.
    await client.createWebhook({
      name: "x",
      url: "https://h.example.com",
      events: ["post.created"],
      secret: SECRET,
    });
    expect((await clientFor(emulator, KEYS.starter).listWebhooks()).data).toEqual([]);
  });

  it.each([
    ["a plain http URL off loopback", { url: "http://hooks.example.com/in" }],
    ["an unknown event", { events: ["product.exploded"] }],
    ["no events", { events: [] }],
    ["no secret", { secret: "" }],
    ["no name", { name: "" }],
  ])("refuses %s with 400", async (_label, change) => {
    const input = {
      name: "x",
      url: "https://hooks.example.com/in",
      events: ["product.created"],
      secret: SECRET,
      ...change,
    };
    expect(await caught(() => shop().createWebhook(input as never))).toBeInstanceOf(
      BadRequestError,
    );
  });
});

describe("deliveries", () => {
  it("sends a signed test delivery and reports its outcome", async () => {
    const hooks = await receiver();
    const { data: webhook } = await shop().createWebhook({
      name: "test",
      url: hooks.url,
      events: ["product.created"],
      secret: SECRET,
    });
    const result = await shop().testWebhook(webhook.id, {
      event_type: "contact.submitted",
      data: { thread_id: "web_1", name: "Zoë", email: "z@example.com", phone: "", message: "Hi" },
    });
    expect(result.data).toMatchObject({ delivered: true, status_code: 200 });

    const [delivery] = hooks.received;
    expect(delivery?.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      event_type: "contact.submitted",
      created_at: expect.any(String),
      data: { thread_id: "web_1", name: "Zoë", email: "z@example.com", phone: "", message: "Hi" },
    });
    expect(new Date(delivery?.body.created_at ?? "").toISOString()).toBe(delivery?.body.created_at);
    expect(delivery?.headers["content-type"]).toContain("application/json");
    const signature = delivery?.headers["x-webhook-signature"];
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(SECRET, delivery?.raw ?? "", signature)).toBe(true);
    expect(verifyWebhookSignature("wrong", delivery?.raw ?? "", signature)).toBe(false);
  });

  it("delivers the events the service's own actions cause, to subscribed webhooks only", async () => {
    const hooks = await receiver();
    await shop().createWebhook({
      name: "content",
      url: hooks.url,
      events: [
        "product.created",
        "product.updated",
        "product.deleted",
        "post.created",
        "post.updated",
        "post.deleted",
        "chat.conversation_started",
        "chat.message_sent",
      ],
      secret: SECRET,
    });
    const client = shop();
    await client.upsertProduct(product("p1", "Mug", { price: 9, categories: ["Kitchen"] }));
    await client.bulkUpsertProducts([product("p1", "Mug 2"), product("p2", "Cup")]);
    await client.deleteProduct("p2");
    await client.upsertPost({ id: "a1", title: "Guide" });
    await client.upsertPost({ id: "a1", title: "Guide 2" });
    await client.bulkDeletePosts(["a1"]);
    await client.chat({ message: "mug", threadId: "web_1" });
    await client.chat({ message: "cup", threadId: "web_1" });
    await client.submitFeedback({ threadId: "web_1", rating: "positive" }); // not subscribed
    await emulator.state.deliveriesSettled();

    // Receivers treat a repeated event id as a duplicate (§6.3); so does this test.
    const unique = [...new Map(hooks.received.map((d) => [d.body.id, d])).values()];
    const seen = unique.map((delivery) => delivery.body.event_type).sort();
    expect(seen).toEqual(
      [
        "product.created",
        "product.updated",
        "product.created",
        "product.deleted",
        "post.created",
        "post.updated",
        "post.deleted",
        "chat.conversation_started",
        "chat.message_sent",
        "chat.message_sent",
      ].sort(),
    );
    const created = hooks.received.find(
      (delivery) => delivery.body.event_type === "product.created",
    );
    expect(created?.body.data).toMatchObject({
      id: "p1",
      name: "Mug",
      price: 9,
      categories: ["Kitchen"],
    });
    const ids = hooks.received.map((delivery) => delivery.body.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const delivery of hooks.received) {
      expect(
        verifyWebhookSignature(SECRET, delivery.raw, delivery.headers["x-webhook-signature"]),
      ).toBe(true);
    }
  });

  it("retries a failed delivery after 1, 5, 30 minutes, with the same event id", async () => {
    const hooks = await receiver((_delivery, count) => (count <= 3 ? 500 : 200));
    await shop().createWebhook({
      name: "flaky",
      url: hooks.url,
      events: ["product.created"],
      secret: SECRET,
    });
    await shop().upsertProduct(product("p1", "Mug"));
    await emulator.state.deliveriesSettled();

    const [delivery] = emulator.state.deliveries();
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 200]);
    expect(delivery?.attempts.map((attempt) => attempt.delayBeforeMs)).toEqual([
      0,
      60_000,
      5 * 60_000,
      30 * 60_000,
    ]);
    expect(new Set(hooks.received.map((received) => received.body.id)).size).toBe(1);
    expect(emulator.state.emails()).toEqual([]);
  });

  it("marks the webhook failed after the 5th failure and emails the account owner", async () => {
    const hooks = await receiver(() => 503);
    const { data: webhook } = await shop().createWebhook({
      name: "down",
      url: hooks.url,
      events: ["product.created"],
      secret: SECRET,
    });
    await shop().upsertProduct(product("p1", "Mug"));
    await emulator.state.deliveriesSettled();

    const [delivery] = emulator.state.deliveries();
    expect(delivery?.state).toBe("failed");
    expect(delivery?.attempts.map((attempt) => attempt.delayBeforeMs)).toEqual([
      0,
      60_000,
      5 * 60_000,
      30 * 60_000,
      2 * 60 * 60_000,
    ]);
    expect(hooks.received).toHaveLength(5);
    expect((await shop().getWebhook(webhook.id)).data.status).toBe("failed");
    expect(emulator.state.emails()).toEqual([
      expect.objectContaining({ to: expect.stringContaining("@"), webhookId: webhook.id }),
    ]);
  });

  it("counts a receiver that does not answer in time as a failure", async () => {
    const impatient = await startEmulator({ timeScale: 0.00001, webhookTimeoutMs: 100 });
    try {
      const hooks = await receiver((_delivery, count) => (count === 1 ? "hang" : 200));
      const client = clientFor(impatient, KEYS.personal, { workspaceId: "shop.example.com" });
      await client.createWebhook({
        name: "slow",
        url: hooks.url,
        events: ["product.created"],
        secret: SECRET,
      });
      await client.upsertProduct(product("p1", "Mug"));
      await impatient.state.deliveriesSettled();
      const [delivery] = impatient.state.deliveries();
      expect(delivery?.state).toBe("delivered");
      expect(delivery?.attempts[0]?.error).toMatch(/no answer/);
      expect(delivery?.attempts.at(-1)?.statusCode).toBe(200);
    } finally {
      await impatient.close();
    }
  });
});

describe("retries on the real schedule", () => {
  it("waits a real minute before attempt 2 unless flushed", async () => {
    const slow = await startEmulator({ timeScale: 1 });
    try {
      const hooks = await receiver((_delivery, count) => (count === 1 ? 500 : 200));
      const client = clientFor(slow, KEYS.personal, { workspaceId: "shop.example.com" });
      await client.createWebhook({
        name: "x",
        url: hooks.url,
        events: ["product.created"],
        secret: SECRET,
      });
      await client.upsertProduct(product("p1", "Mug"));
      await hooks.waitFor((all) => all.length === 1);
      await expect
        .poll(() => slow.state.deliveries()[0]?.state, { timeout: 10_000 })
        .toBe("pending");
      const pending = slow.state.deliveries()[0];
      expect((pending?.nextAttemptAt ?? 0) - Date.now()).toBeGreaterThan(50_000);
      slow.state.flushWebhookRetries();
      await slow.state.deliveriesSettled();
      expect(slow.state.deliveries()[0]?.state).toBe("delivered");
    } finally {
      await slow.close();
    }
  });
});
