import { describe, expect, it } from "vitest";
import {
  MalformedEventError,
  MAX_DATA_DEPTH,
  MAX_DATA_TEXT,
  parseServiceEventBody,
} from "../../app/service-events/event-body";

const bodyWith = (data: unknown) =>
  JSON.stringify({
    id: "evt_1",
    event_type: "chat.message_sent",
    created_at: "2026-12-07T10:00:00Z",
    data,
  });

/** `data` holding arrays nested until `data` itself is `depth` levels deep. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = "leaf";
  for (let level = 1; level < depth; level++) value = [value];
  return { thread_id: "web_1", message: value };
}

describe("a service event's data", () => {
  it(`may nest ${MAX_DATA_DEPTH} levels deep, and is malformed one level deeper`, () => {
    expect(parseServiceEventBody(bodyWith(nested(MAX_DATA_DEPTH))).data).toBeDefined();
    expect(() => parseServiceEventBody(bodyWith(nested(MAX_DATA_DEPTH + 1)))).toThrow(
      MalformedEventError,
    );
  });

  it("nested 100,000 levels deep is refused without overflowing the stack", () => {
    const deep = bodyWith({}).replace(
      '"data":{}',
      `"data":{"message":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    );
    expect(() => parseServiceEventBody(deep)).toThrow(/nested more than 32 levels/);
  });

  it(`keeps at most ${MAX_DATA_TEXT} characters of any text: a 100 KB message is kept cut`, () => {
    const message = "Hello ".repeat(20_000);
    const { data } = parseServiceEventBody(
      bodyWith({ thread_id: "web_1", message, customer: { name: "Ann", notes: [message] } }),
    );
    expect(data.message).toBe(message.slice(0, MAX_DATA_TEXT));
    expect(data.customer).toEqual({ name: "Ann", notes: [message.slice(0, MAX_DATA_TEXT)] });
    expect(data.thread_id).toBe("web_1");
  });
});
