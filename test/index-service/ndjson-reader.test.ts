import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../../app/index-service/chat-events";
import { collectChatReply } from "../../app/index-service/chat-reply";
import { readChatEvents, readNdjsonLines } from "../../app/index-service/ndjson";
import { collect } from "./helpers";

const encoder = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function* iterableOf(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

const PAYLOAD =
  line({ type: "progress", data: { message: "Searching…" } }) +
  line({ type: "text_delta", data: "Un café ☕ " }) +
  line({ type: "text_delta", data: "pour 👋 Zoë" }) +
  line({ type: "product", data: { id: "p1", name: "Crème brûlée set", price: 19.5 } }) +
  line({ type: "complete", data: {} });

const EXPECTED: ChatEvent[] = [
  { type: "progress", data: { message: "Searching…" } },
  { type: "text_delta", data: "Un café ☕ " },
  { type: "text_delta", data: "pour 👋 Zoë" },
  { type: "product", data: { id: "p1", name: "Crème brûlée set", price: 19.5 } },
  { type: "complete", data: {} },
];

describe("NDJSON chat-stream reader", () => {
  it("reads the same events whatever byte the stream is split at, even inside a character", async () => {
    const bytes = encoder.encode(PAYLOAD);
    expect(bytes.length).toBeGreaterThan(PAYLOAD.length); // multi-byte characters present
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const events = await collect(
        readChatEvents(streamOf([bytes.slice(0, cut), bytes.slice(cut)])),
      );
      expect(events, `split at byte ${cut}`).toEqual(EXPECTED);
    }
  });

  it("reads a stream delivered one byte at a time, from a ReadableStream or an async iterable", async () => {
    const bytes = encoder.encode(PAYLOAD);
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(readChatEvents(streamOf(single)))).toEqual(EXPECTED);
    expect(await collect(readChatEvents(iterableOf(single)))).toEqual(EXPECTED);
  });

  it("reads three-way splits of a short multi-byte payload", async () => {
    const bytes = encoder.encode(
      line({ type: "text_delta", data: "é👋" }) + line({ type: "complete" }),
    );
    for (let first = 0; first <= bytes.length; first += 1) {
      for (let second = first; second <= bytes.length; second += 1) {
        const chunks = [bytes.slice(0, first), bytes.slice(first, second), bytes.slice(second)];
        const events = await collect(readChatEvents(iterableOf(chunks)));
        expect(events).toEqual([
          { type: "text_delta", data: "é👋" },
          { type: "complete", data: {} },
        ]);
      }
    }
  });

  it("skips blank lines and accepts CRLF line ends and a last line without a newline", async () => {
    const text =
      "\n\n" +
      JSON.stringify({ type: "text_delta", data: "a" }) +
      "\r\n   \n\r\n" +
      JSON.stringify({ type: "complete", data: {} });
    expect(await collect(readChatEvents(streamOf([encoder.encode(text)])))).toEqual([
      { type: "text_delta", data: "a" },
      { type: "complete", data: {} },
    ]);
  });

  it("reports a malformed line in the middle and keeps the lines after it", async () => {
    const text =
      line({ type: "text_delta", data: "before " }) +
      '{"type":"text_delta","data":\n' +
      "not json at all\n" +
      line({ type: "text_delta", data: "after" }) +
      line({ type: "complete", data: {} });
    const events = await collect(readChatEvents(streamOf([encoder.encode(text)])));
    expect(events.map((event) => event.type)).toEqual([
      "text_delta",
      "error",
      "error",
      "text_delta",
      "complete",
    ]);
    const malformed = events.filter((event) => event.type === "error");
    for (const event of malformed) {
      expect(event).toMatchObject({ malformed: true, data: { error: expect.any(String) } });
    }
    expect(malformed[1]).toMatchObject({ line: "not json at all" });
  });

  it("tells a service error apart from an unreadable line", async () => {
    const text = line({ type: "error", data: { error: "Upstream model failed" } }) + "{oops\n";
    const events = await collect(readChatEvents(streamOf([encoder.encode(text)])));
    expect(events[0]).toEqual({ type: "error", data: { error: "Upstream model failed" } });
    expect(events[1]).toMatchObject({ type: "error", malformed: true });
  });

  it("ends a stream that stops before `complete` with an `incomplete` event", async () => {
    const text = line({ type: "text_delta", data: "half an ans" });
    const events = await collect(readChatEvents(streamOf([encoder.encode(text)])));
    expect(events).toEqual([
      { type: "text_delta", data: "half an ans" },
      { type: "incomplete", data: { reason: "ended" } },
    ]);
  });

  it("ends a stream that breaks with an `incomplete` event saying it failed", async () => {
    async function* breaking(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(line({ type: "text_delta", data: "a" }));
      throw new Error("socket hang up");
    }
    const events = await collect(readChatEvents(breaking()));
    expect(events).toEqual([
      { type: "text_delta", data: "a" },
      { type: "incomplete", data: { reason: "failed", error: "socket hang up" } },
    ]);
  });

  it("stops reading after `complete` and cancels the source", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(line({ type: "complete", data: {} })));
        controller.enqueue(encoder.encode(line({ type: "text_delta", data: "ignored" })));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await collect(readChatEvents(source))).toEqual([{ type: "complete", data: {} }]);
    expect(cancelled).toBe(true);
  });

  it("stops on an AbortSignal while waiting for bytes, and cancels a ReadableStream source", async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(line({ type: "text_delta", data: "first" })));
        // …and then nothing more, ever.
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const seen: ChatEvent[] = [];
    for await (const event of readChatEvents(source, { signal: controller.signal })) {
      seen.push(event);
      setTimeout(() => controller.abort(), 0);
    }
    expect(seen).toEqual([{ type: "text_delta", data: "first" }]);
    expect(cancelled).toBe(true);
  });

  it("stops on an AbortSignal with an async-iterable source that never ends", async () => {
    async function* hanging(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(line({ type: "text_delta", data: "first" }));
      await new Promise(() => undefined);
    }
    const controller = new AbortController();
    const seen: ChatEvent[] = [];
    for await (const event of readChatEvents(hanging(), { signal: controller.signal })) {
      seen.push(event);
      // Abort while the reader waits on the source, not between two events.
      setTimeout(() => controller.abort(), 0);
    }
    expect(seen).toEqual([{ type: "text_delta", data: "first" }]);
  });

  it("yields nothing for an already aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(
      readChatEvents(streamOf([encoder.encode(PAYLOAD)]), { signal: controller.signal }),
    );
    expect(events).toEqual([]);
  });

  it("flattens prompts given as strings or {prompt} objects, and keeps chunk metadata", async () => {
    const text =
      line({ type: "prompts", data: ["Show more", { prompt: "Talk to a person" }, 42] }) +
      line({
        type: "text_delta",
        data: "Sam here",
        metadata: { source: "human", agentName: "Sam", agentAvatar: "https://x.test/a.png" },
      }) +
      line({ type: "complete", data: {} });
    const events = await collect(readChatEvents(streamOf([encoder.encode(text)])));
    expect(events[0]).toEqual({ type: "prompts", data: ["Show more", "Talk to a person"] });
    expect(events[1]).toEqual({
      type: "text_delta",
      data: "Sam here",
      metadata: { source: "human", agentName: "Sam", agentAvatar: "https://x.test/a.png" },
    });
  });

  it("drops unknown chunk types by default and passes them through on request", async () => {
    const text =
      line({ type: "analytics", data: { tokens: 3 } }) + line({ type: "complete", data: {} });
    expect(await collect(readChatEvents(streamOf([encoder.encode(text)])))).toEqual([
      { type: "complete", data: {} },
    ]);
    expect(
      await collect(readChatEvents(streamOf([encoder.encode(text)]), { unknownEvents: "pass" })),
    ).toEqual([
      { type: "unknown", originalType: "analytics", data: { tokens: 3 } },
      { type: "complete", data: {} },
    ]);
  });

  it("reads Offer, Result, post and post_delta events", async () => {
    const offer = {
      domain: "live_agent",
      message: "Talk to a person?",
      ui: {
        component: "form",
        fields: [{ id: "email", type: "email", label: "Email", required: true }],
        submitAction: { id: "submit", label: "Send" },
      },
    };
    const text =
      line({ type: "domain_offer", data: offer }) +
      line({ type: "domain_offer_success", data: { domain: "live_agent", status: "success" } }) +
      line({ type: "post", data: { id: "a1", title: "Brewing guide" } }) +
      line({ type: "post_delta", data: { id: "a1", delta: "How to " } }) +
      line({ type: "post_delta", data: { id: "a1", delta: "brew." } }) +
      line({ type: "complete", data: {} });
    const reply = await collectChatReply(readChatEvents(streamOf([encoder.encode(text)])));
    expect(reply.offer).toEqual(offer);
    expect(reply.offerResult).toEqual({ domain: "live_agent", status: "success" });
    expect(reply.posts).toEqual([{ id: "a1", title: "Brewing guide", summary: "How to brew." }]);
    expect(reply.complete).toBe(true);
  });

  it("exposes the raw lines too", async () => {
    const lines = await collect(
      readNdjsonLines(iterableOf([encoder.encode("a\n\nb"), encoder.encode("c\n")])),
    );
    expect(lines).toEqual(["a", "bc"]);
  });
});
