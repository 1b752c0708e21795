/**
 * The chat stream as widget events. Reading NDJSON is the project's one reader's job
 * (app/index-service/ndjson.ts, bundled into the chat asset); this only maps its events.
 */
import { readChatEvents } from "../app/index-service/ndjson";
import { interpret, type WidgetEvent } from "./events";

export type StreamEvent = WidgetEvent | { type: "cut" };

export async function* streamEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  for await (const event of readChatEvents(body, { signal })) {
    // The reader's own last word when the stream ended or broke before `complete`.
    const widgetEvent = event.type === "incomplete" ? { type: "cut" as const } : interpret(event);
    if (widgetEvent) yield widgetEvent;
  }
}
