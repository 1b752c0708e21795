/**
 * Events per second of the NDJSON chat-stream reader over a large synthetic stream, cut into
 * chunks of random sizes (so lines and multi-byte characters are split anywhere).
 *   npx tsx bench/ndjson-reader.bench.ts
 * Prints figures; asserts nothing.
 */
import { readChatEvents } from "../app/index-service/ndjson";

const EVENTS = 200_000;
const ROUNDS = 5;

function syntheticStream(): { bytes: Uint8Array; events: number } {
  const lines: string[] = [JSON.stringify({ type: "progress", data: { message: "Searching…" } })];
  for (let i = 0; lines.length < EVENTS - 1; i += 1) {
    if (i % 50 === 49) {
      lines.push(
        JSON.stringify({
          type: "product",
          data: {
            id: `p${i}`,
            name: `Crème brûlée set ${i}`,
            price: 19.5,
            url: `https://shop.example.com/p/${i}`,
          },
        }),
      );
    } else {
      lines.push(
        JSON.stringify({ type: "text_delta", data: i % 7 === 0 ? "café ☕ " : `word${i} ` }),
      );
    }
  }
  lines.push(JSON.stringify({ type: "complete", data: {} }));
  return { bytes: new TextEncoder().encode(`${lines.join("\n")}\n`), events: lines.length };
}

/** Deterministic chunk sizes from 1 byte to 16 KiB. */
function chunked(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let seed = 42;
  for (let offset = 0; offset < bytes.length;) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const size = 1 + (seed % 16_384);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

const { bytes, events } = syntheticStream();
const chunks = chunked(bytes);
console.log(
  `NDJSON reader: ${events.toLocaleString("en")} events, ${(bytes.length / 1_048_576).toFixed(1)} MiB, ${chunks.length.toLocaleString("en")} chunks`,
);
const rates: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const started = performance.now();
  let count = 0;
  for await (const _event of readChatEvents(streamOf(chunks))) count += 1;
  const seconds = (performance.now() - started) / 1_000;
  if (count !== events) throw new Error(`read ${count} events, expected ${events}`);
  rates.push(count / seconds);
  console.log(
    `  round ${round + 1}: ${Math.round(count / seconds).toLocaleString("en")} events/s, ${(bytes.length / 1_048_576 / seconds).toFixed(1)} MiB/s`,
  );
}
rates.sort((a, b) => a - b);
console.log(
  `  median: ${Math.round(rates[Math.floor(rates.length / 2)] ?? 0).toLocaleString("en")} events/s`,
);
