/**
 * The NDJSON chat-stream reader (spec §6.4). Pure — no node: imports — because the storefront
 * widget bundles it.
 *
 * - Splits at "\n" (a trailing "\r" is dropped), keeps an incomplete trailing line for the next
 *   chunk, skips blank lines, and decodes UTF-8 with `stream: true`, so a chunk may end anywhere,
 *   even inside a multi-byte character.
 * - An unreadable line becomes `{type: "error", malformed: true, line}`; reading goes on.
 * - Reading stops after `complete`. A stream that ends (or breaks) before `complete` yields a last,
 *   synthetic `{type: "incomplete"}` event.
 * - An abort of `signal` ends the iteration quietly (no `incomplete`), and cancels the source.
 * - Unknown chunk types are dropped unless `unknownEvents: "pass"` (see UNKNOWN_CHAT_EVENTS).
 */
import { parseChatEventLine, type ChatEvent, type ParseOptions } from "./chat-events";

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface ReadOptions {
  signal?: AbortSignal;
}

function isReadableStream(source: ByteSource): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream<Uint8Array>).getReader === "function";
}

async function* chunksOfStream(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  // Cancelling the reader settles a pending read() with {done: true}.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  try {
    while (!signal?.aborted) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    try {
      reader.releaseLock();
    } catch {
      // Already released by the cancel above.
    }
  }
}

async function* chunksOfIterable(
  iterable: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  let finished = false;
  try {
    while (!signal?.aborted) {
      const next = iterator.next();
      // If the abort wins the race, a later rejection of `next` must not go unhandled.
      next.catch(() => undefined);
      const result = signal ? await Promise.race([next, aborted]) : await next;
      if (result === "aborted") return;
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    // Not awaited: an iterator stuck in a pending next() would hold us up.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

/** The lines of an NDJSON byte stream, blank lines skipped. Throws if the source fails. */
export async function* readNdjsonLines(
  source: ByteSource,
  options: ReadOptions = {},
): AsyncGenerator<string> {
  const { signal } = options;
  const decoder = new TextDecoder("utf-8");
  const chunks = isReadableStream(source)
    ? chunksOfStream(source, signal)
    : chunksOfIterable(source, signal);
  let pending = "";
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = pending.indexOf("\n", start);
    while (newline !== -1) {
      const line = stripCarriageReturn(pending.slice(start, newline));
      start = newline + 1;
      if (line.trim() !== "") {
        yield line;
        if (signal?.aborted) return;
      }
      newline = pending.indexOf("\n", start);
    }
    pending = pending.slice(start);
  }
  if (signal?.aborted) return;
  pending += decoder.decode();
  const last = stripCarriageReturn(pending);
  if (last.trim() !== "") yield last;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** The typed events of a chat stream; see the module comment for the rules. */
export async function* readChatEvents(
  source: ByteSource,
  options: ReadOptions & ParseOptions = {},
): AsyncGenerator<ChatEvent> {
  const { signal } = options;
  try {
    for await (const line of readNdjsonLines(source, { signal })) {
      const event = parseChatEventLine(line, options);
      if (!event) continue;
      yield event;
      if (event.type === "complete") return;
    }
  } catch (error) {
    if (signal?.aborted) return;
    yield {
      type: "incomplete",
      data: { reason: "failed", error: error instanceof Error ? error.message : String(error) },
    };
    return;
  }
  if (signal?.aborted) return;
  yield { type: "incomplete", data: { reason: "ended" } };
}
