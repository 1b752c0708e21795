/** Contract: chat (§4, §6.4) streamed and not, offers and handoff, feedback. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatEvent, Offer } from "../../app/index-service/chat-events";
import { collectChatReply } from "../../app/index-service/chat-reply";
import { BadRequestError, QuotaExceededError } from "../../app/index-service/errors";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor, collect, product, startReceiver, type Receiver } from "./helpers";

let emulator: RunningEmulator;
let receiver: Receiver;

beforeAll(async () => {
  emulator = await startEmulator({
    tokenDelayMs: 1,
    timeScale: 0,
    accounts: [
      {
        name: "chatty",
        tier: "starter",
        secretKeys: ["svc_sk_test_chatty"],
        quotas: { chatMessages: 2 },
      },
    ],
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await emulator.close();
  await receiver.close();
});
beforeEach(async () => {
  emulator.state.reset();
  receiver.received.length = 0;
  await shop().bulkUpsertProducts([
    product("mug", "Café mug", { price: 12.5, url: "https://shop.example.com/products/mug" }),
    product("hose", "Garden hose", { price: 30 }),
  ]);
  await shop().upsertPost({
    id: "guide",
    title: "Mug care guide",
    excerpt: "How to keep your café mug like new for years",
    url: "https://shop.example.com/blogs/news/mug-care",
  });
  emulator.state.clearRequests();
});

const shop = (key: string = KEYS.personal) =>
  clientFor(emulator, key, { workspaceId: "shop.example.com" });

const types = (events: ChatEvent[]) => events.map((event) => event.type);

describe("streamed chat", () => {
  it("delivers events while the answer is still being written", async () => {
    const events = await shop().chatStream({
      message: "a mug __emulator_hold__",
      threadId: "web_1",
    });
    const iterator = events[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ type: "progress" });
    // The server is paused mid-answer: the first event reached us before the stream ended.
    expect(emulator.state.heldStreams()).toBe(1);
    expect(emulator.state.activeStreams()).toBe(1);
    emulator.state.releaseHeldStreams();
    const rest: ChatEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest.push(next.value);
    expect(rest.at(-1)).toEqual({ type: "complete", data: {} });
  });

  it("answers from the workspace's products and posts, in the order of §6.4", async () => {
    const events = await collect(await shop().chatStream({ message: "mug", threadId: "web_1" }));
    const order = types(events);
    expect(order[0]).toBe("progress");
    expect(order.at(-1)).toBe("complete");
    expect(order.indexOf("product")).toBeGreaterThan(order.lastIndexOf("text_delta"));
    expect(order.indexOf("post_delta")).toBeGreaterThan(order.indexOf("post"));
    expect(order.indexOf("prompts")).toBeGreaterThan(order.indexOf("bubble_termination"));
    expect(events.filter((event) => event.type === "text_delta").length).toBeGreaterThan(3);

    const reply = await collectChatReply(
      (async function* () {
        yield* events;
      })(),
    );
    expect(reply.text).toContain("Café mug");
    expect(reply.products).toEqual([
      { id: "mug", name: "Café mug", price: 12.5, url: "https://shop.example.com/products/mug" },
    ]);
    expect(reply.posts[0]).toMatchObject({ id: "guide", title: "Mug care guide" });
    expect(reply.posts[0]?.summary).toContain("café mug");
    expect(reply.prompts.length).toBeGreaterThanOrEqual(2);
    for (const prompt of reply.prompts) expect(typeof prompt).toBe("string");
  });

  it("streams NDJSON with its content type, one JSON object per line", async () => {
    const response = await fetch(`${emulator.url}/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEYS.personal}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "mug", threadId: "web_1" }),
    });
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await response.text()).split("\n").filter((line) => line !== "");
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ type: expect.any(String) });
  });

  it("reports a failure inside the stream as an error event", async () => {
    const events = await collect(
      await shop().chatStream({ message: "__emulator_error__", threadId: "web_1" }),
    );
    expect(events.find((event) => event.type === "error")).toEqual({
      type: "error",
      data: { error: expect.any(String) },
    });
    expect(events.at(-1)).toEqual({ type: "incomplete", data: { reason: "ended" } });
  });

  it("reports a stream cut mid-line as incomplete, keeping what came before", async () => {
    const events = await collect(
      await shop().chatStream({ message: "mug __emulator_cut__", threadId: "web_1" }),
    );
    expect(types(events).slice(0, 2)).toEqual(["progress", "text_delta"]);
    expect(events.at(-1)).toMatchObject({ type: "incomplete", data: { reason: "failed" } });
  });

  it("survives malformed lines and skips unknown event types", async () => {
    const events = await collect(
      await shop().chatStream({
        message: "mug __emulator_malformed__ __emulator_unknown__",
        threadId: "web_1",
      }),
    );
    expect(events.filter((event) => event.type === "error" && event.malformed)).toHaveLength(2);
    expect(types(events)).not.toContain("unknown");
    expect(events.at(-1)).toEqual({ type: "complete", data: {} });
  });

  it("stops when the caller aborts, and the server sees the stream end", async () => {
    const controller = new AbortController();
    const events = await shop().chatStream(
      { message: "mug __emulator_hold__", threadId: "web_1" },
      { signal: controller.signal },
    );
    const seen: ChatEvent[] = [];
    for await (const event of events) {
      seen.push(event);
      controller.abort();
    }
    expect(types(seen)).toEqual(["progress"]);
    await expect.poll(() => emulator.state.activeStreams(), { timeout: 10_000 }).toBe(0);
  });

  it("scopes a publishable key's chat to the workspace of its Origin", async () => {
    await clientFor(emulator, KEYS.personal, { workspaceId: "other.example.com" }).upsertProduct(
      product("other-mug", "Other mug"),
    );
    const browserFetch: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Origin", "https://other.example.com");
      return fetch(input, { ...init, headers });
    };
    const browser = clientFor(emulator, KEYS.personalPublishable, { fetch: browserFetch });
    const reply = await collectChatReply(
      await browser.chatStream({ message: "mug", threadId: "web_1" }),
    );
    expect(reply.products.map((card) => card.id)).toEqual(["other-mug"]);
  });

  it("needs a non-empty thread id and message", async () => {
    for (const request of [
      { message: "mug", threadId: "" },
      { message: "mug", threadId: "   " },
      { message: "", threadId: "web_1" },
    ]) {
      const error = await caught(() => shop().chatStream(request));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ requestSent: false });
    }
    expect(emulator.state.requests()).toEqual([]);
    const response = await fetch(`${emulator.url}/chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEYS.personal}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "mug", threadId: "" }),
    });
    expect(response.status).toBe(400);
  });

  it("counts against the monthly chat quota", async () => {
    const chatty = clientFor(emulator, "svc_sk_test_chatty");
    await collect(await chatty.chatStream({ message: "hi", threadId: "web_1" }));
    const second = await chatty.chat({ message: "hi", threadId: "web_1" });
    expect(second.usage?.quota).toMatchObject({ current: 2, limit: 2 });
    expect(
      await caught(() => chatty.chatStream({ message: "hi", threadId: "web_1" })),
    ).toBeInstanceOf(QuotaExceededError);
  });
});

describe("non-streamed chat (stream: false)", () => {
  it("returns the whole answer in the success envelope", async () => {
    const response = await shop().chat({ message: "garden hose", threadId: "web_2" });
    expect(response.data.text).toContain("Garden hose");
    expect(response.data.products.map((card) => card.id)).toEqual(["hose"]);
    expect(response.data.complete).toBe(true);
    expect(response.data.prompts.every((prompt) => typeof prompt === "string")).toBe(true);
    expect(response.tier).toBe("personal");
    expect(response.usage?.quota).toMatchObject({ current: 1, limit: 250 });
  });
});

describe("answers from a product's attributes and the shop's content", () => {
  it("cites the attribute a question names, with its value, and a policy post as a card", async () => {
    await shop().bulkUpsertProducts([
      product("jacket", "Alpine jacket", {
        price: 180,
        attributes: {
          Material: ["Recycled nylon"],
          Waterproof: ["Yes"],
          Colour: ["Red"],
          "Care instructions": ["Wash cold, hang to dry."],
        },
      }),
    ]);
    await shop().upsertPost({
      id: "policy-1",
      title: "Refund policy",
      content: "Items can be returned within 30 days for a full refund.",
      url: "https://shop.example.com/policies/refund-policy",
      post_type: "page",
      categories: ["policy"],
    });
    const material = await shop().chat({
      message: "What material is the Alpine jacket?",
      threadId: "web_a",
    });
    expect(material.data.text).toContain("Material: Recycled nylon.");
    // Only what was asked about.
    expect(material.data.text).not.toContain("Waterproof");
    const care = await shop().chat({
      message: "How do I care for the Alpine jacket?",
      threadId: "web_c",
    });
    expect(care.data.text).toContain("Care instructions: Wash cold, hang to dry.");
    const refund = await shop().chat({ message: "What is your refund policy?", threadId: "web_b" });
    expect(refund.data.posts[0]).toMatchObject({
      title: "Refund policy",
      url: "https://shop.example.com/policies/refund-policy",
    });
  });
});

describe("offer and live-agent handoff", () => {
  it("offers a contact form, accepts it, hands off to an agent and fires the webhooks", async () => {
    await shop().createWebhook({
      name: "handoffs",
      url: receiver.url,
      events: ["handoff.requested", "handoff.accepted", "handoff.resolved", "contact.submitted"],
      secret: "whsec_test",
    });
    const first = await collect(
      await shop().chatStream({ message: "Can I talk to a human?", threadId: "web_9" }),
    );
    const offerEvent = first.find((event) => event.type === "domain_offer");
    expect(offerEvent).toBeDefined();
    const offer = offerEvent?.data as Offer;
    expect(offer.ui.component).toBe("form");
    if (offer.ui.component !== "form") throw new Error("expected a form");
    expect(offer.ui.fields.map((field) => field.id)).toEqual(
      expect.arrayContaining(["name", "email", "message"]),
    );

    const second = await collect(
      await shop().chatStream({
        message: "",
        threadId: "web_9",
        offerResponse: {
          domain: offer.domain,
          actionId: offer.ui.submitAction.id,
          formData: { name: "Zoë", email: "zoe@example.com", message: "Where is my order?" },
        },
      }),
    );
    const success = second.find((event) => event.type === "domain_offer_success");
    expect(success?.data).toMatchObject({
      domain: offer.domain,
      status: "success",
      agent: { id: expect.any(String), name: expect.any(String) },
    });

    await receiver.waitFor((all) => all.length >= 3);
    const byType = Object.fromEntries(
      receiver.received.map((d) => [d.body.event_type, d.body.data]),
    );
    expect(byType["contact.submitted"]).toEqual({
      thread_id: "web_9",
      name: "Zoë",
      email: "zoe@example.com",
      phone: "",
      message: "Where is my order?",
    });
    expect(byType["handoff.requested"]).toMatchObject({ thread_id: "web_9" });
    expect(byType["handoff.accepted"]).toMatchObject({ thread_id: "web_9" });

    // The agent now speaks in the thread, marked as a human.
    const third = await collect(await shop().chatStream({ message: "Hello?", threadId: "web_9" }));
    const agentToken = third.find((event) => event.type === "text_delta");
    expect(agentToken).toMatchObject({
      metadata: { source: "human", agentName: expect.any(String) },
    });

    expect(emulator.state.resolveHandoff("web_9")).toBe(1);
    await receiver.waitFor((all) => all.some((d) => d.body.event_type === "handoff.resolved"));
  });

  it("answers an invalid or cancelled form without a handoff", async () => {
    const invalid = await collect(
      await shop().chatStream({
        message: "",
        threadId: "web_8",
        offerResponse: {
          domain: "live_agent",
          actionId: "submit",
          formData: { name: "", email: "x" },
        },
      }),
    );
    expect(invalid.find((event) => event.type === "domain_offer_success")?.data).toMatchObject({
      status: "error",
    });
    const cancelled = await collect(
      await shop().chatStream({
        message: "",
        threadId: "web_8",
        offerResponse: { domain: "live_agent", actionId: "cancel" },
      }),
    );
    expect(types(cancelled)).not.toContain("domain_offer_success");
    expect(emulator.state.threads()[0]?.handoff).toBeUndefined();
  });
});

describe("feedback", () => {
  it("accepts feedback from a publishable key and fires feedback.submitted", async () => {
    await shop().createWebhook({
      name: "feedback",
      url: receiver.url,
      events: ["feedback.submitted"],
      secret: "whsec_test",
    });
    const browser = shop(KEYS.personalPublishable);
    await browser.submitFeedback({
      threadId: "web_1",
      rating: "negative",
      comment: "Too slow",
      messageIndex: 2,
    });
    expect(emulator.state.feedback()).toEqual([
      expect.objectContaining({
        threadId: "web_1",
        rating: "negative",
        comment: "Too slow",
        messageIndex: 2,
      }),
    ]);
    await receiver.waitFor((all) => all.length === 1);
    expect(receiver.received[0]?.body).toMatchObject({
      event_type: "feedback.submitted",
      data: { thread_id: "web_1", rating: "negative", comment: "Too slow", message_index: 2 },
    });
  });

  it("refuses an unknown rating with 400", async () => {
    const error = await caught(() =>
      shop().submitFeedback({ threadId: "web_1", rating: "meh" as never }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
  });
});
