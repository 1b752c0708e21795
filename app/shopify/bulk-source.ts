import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

export type ByteChunk = Uint8Array | string;

/**
 * A bulk export that can be read more than once: each call opens it afresh (a local file, or a
 * GET of the operation's result URL, which stays valid for seven days).
 */
export type BulkSource = () => AsyncIterable<ByteChunk> | Promise<AsyncIterable<ByteChunk>>;

export function fileSource(path: string): BulkSource {
  return () => createReadStream(path, { highWaterMark: 256 * 1024 });
}

export class BulkDownloadError extends Error {
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(`Downloading the bulk export failed with HTTP ${status} (${new URL(url).host})`);
    this.name = "BulkDownloadError";
  }
}

async function openUrl(url: string, fetchImpl: typeof fetch): Promise<Readable> {
  const response = await fetchImpl(url);
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new BulkDownloadError(response.status, url);
  }
  return Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
}

/**
 * Streams a bulk operation's `url` (or `partialDataUrl`); no credentials are needed or sent. The
 * assembly reads its source at least twice, so each read downloads the file again: for a large
 * export prefer `downloadBulkExport` to a temporary file and `fileSource`.
 */
export function urlSource(url: string, fetchImpl: typeof fetch = fetch): BulkSource {
  return () => openUrl(url, fetchImpl);
}

/** Saves a bulk operation's result to `path`, streaming (never held in memory). */
export async function downloadBulkExport(
  url: string,
  path: string,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  await pipeline(await openUrl(url, fetchImpl), createWriteStream(path));
}

export type LineHandler = (text: string, number: number) => void;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines holding no more than one chunk and one partial line. Lines are
 * cut on the newline byte, which never occurs inside a UTF-8 sequence, and decoded one by one: a
 * character split between chunks is decoded whole, and an ASCII-only line stays a compact
 * one-byte string even when other lines hold accents or CJK. A trailing "\r" is dropped. Line
 * numbers are 1-based and count every physical line, empty ones included. Each line is decoded
 * straight from its chunk; only a line cut between chunks is copied, never a whole chunk (a
 * 256 KB chunk copied for every chunk read was among a sync's largest allocations).
 */
export class LineSplitter {
  /** The start of a line cut between chunks: its pieces, copied. */
  private carry: Buffer[] = [];
  private pendingText = "";
  private count = 0;

  push(chunk: ByteChunk, onLine: LineHandler): void {
    if (typeof chunk === "string") {
      this.pushText(chunk, onLine);
      return;
    }
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    let end = bytes.indexOf(NEWLINE, start);
    if (this.carry.length > 0) {
      if (end === -1) {
        this.carry.push(Buffer.from(bytes));
        return;
      }
      this.emit(Buffer.concat([...this.carry, bytes.subarray(0, end)]).toString("utf8"), onLine);
      this.carry = [];
      start = end + 1;
      end = bytes.indexOf(NEWLINE, start);
    }
    while (end !== -1) {
      this.emit(bytes.toString("utf8", start, end), onLine);
      start = end + 1;
      end = bytes.indexOf(NEWLINE, start);
    }
    if (start < bytes.length) this.carry.push(Buffer.from(bytes.subarray(start)));
  }

  end(onLine: LineHandler): void {
    const rest =
      this.pendingText + (this.carry.length > 0 ? Buffer.concat(this.carry).toString("utf8") : "");
    this.pendingText = "";
    this.carry = [];
    if (rest.length > 0) this.emit(rest, onLine);
  }

  get lines(): number {
    return this.count;
  }

  private emit(line: string, onLine: LineHandler): void {
    this.count += 1;
    onLine(line.endsWith("\r") ? line.slice(0, -1) : line, this.count);
  }

  private pushText(text: string, onLine: LineHandler): void {
    const buffer = this.pendingText.length > 0 ? this.pendingText + text : text;
    let start = 0;
    let end = buffer.indexOf("\n", start);
    while (end !== -1) {
      this.emit(buffer.slice(start, end), onLine);
      start = end + 1;
      end = buffer.indexOf("\n", start);
    }
    this.pendingText = start === 0 ? buffer : buffer.slice(start);
  }
}

/** Calls `onLine` for every line of the source, in order. */
export async function forEachLine(source: BulkSource, onLine: LineHandler): Promise<number> {
  const splitter = new LineSplitter();
  for await (const chunk of await source()) splitter.push(chunk, onLine);
  splitter.end(onLine);
  return splitter.lines;
}
