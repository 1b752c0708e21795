/**
 * Oversized webhook bodies against the built server in its own process: refused with 413 before
 * they are buffered, so the server's peak memory (VmHWM) stays flat while several arrive at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  OVERSIZED_DRAIN_BYTES,
  WEBHOOK_BODY_LIMIT_BYTES,
} from "../../app/shopify/webhook-body-limit.server";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { requireCurrentBuild } from "../../testkit/live-stack";

const ROOT = join(import.meta.dirname, "..", "..");
const MB = 1024 * 1024;
let server: ChildProcess;
let url: string;

beforeAll(async () => {
  requireCurrentBuild();
  await prepareAppEnvironment({ BACKGROUND_WORK: "off", NODE_ENV: "production" });
  server = spawn(process.execPath, ["--import", "tsx", "testkit/app-server-process.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    server.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}, 60_000);

afterAll(() => {
  if (server?.exitCode === null) server.kill("SIGKILL");
});

/** Peak resident memory of the server process so far, in bytes. */
function peakMemory(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * Streams `size` bytes (generated as they are sent, never held) to a webhook route with a bogus
 * signature; resolves with the status, or "reset" when the connection broke before an answer.
 */
function upload(path: string, size: number, declareLength: boolean): Promise<number | "reset"> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const req = httpRequest(`${url}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Topic": "products/update",
        "X-Shopify-Shop-Domain": "shop-a.myshopify.com",
        "X-Shopify-Hmac-Sha256": "bm90IGEgc2lnbmF0dXJl",
        "X-Shopify-Webhook-Id": "oversized",
        "X-Shopify-API-Version": "2026-10",
        ...(declareLength ? { "Content-Length": String(size) } : {}),
      },
    });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => {
      if (!answered) resolve("reset");
    });
    const pump = () => {
      while (sent < size && !answered && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump();
  });
}

describe("oversized webhook bodies", () => {
  it("are refused with 413 by four routes at once, and the server's peak memory stays flat", async () => {
    const before = peakMemory();
    const [realistic, giants] = await Promise.all([
      // Over the limit, as an unlucky day could send: the sender always reads a 413.
      Promise.all([
        upload("/webhooks/products", 6 * MB, false),
        upload("/webhooks/shop/redact", 6 * MB, true),
      ]),
      // Hostile: refused too, but a sender still streaming when the drain time is up is cut off,
      // and a reset can then overtake the 413 (docs/webhook-limits.md).
      Promise.all([
        upload("/webhooks/products", 96 * MB, false),
        upload("/webhooks/shop/redact", 96 * MB, false),
        upload("/webhooks/app/uninstalled", 96 * MB, false),
        upload("/webhooks/products", 400 * MB, true),
      ]),
    ]);
    const growth = peakMemory() - before;
    console.log(
      `statuses ${[...realistic, ...giants].join(", ")}; server peak memory grew ${(growth / MB).toFixed(1)} MB`,
    );
    expect(realistic).toEqual([413, 413]);
    for (const status of giants) expect([413, "reset"]).toContain(status);
    // Bodies of 6-400 MB: buffering any one of them would show here. Each request touches at
    // most the limit plus the drain bound, held or thrown away, whatever the sender sends.
    const requests = realistic.length + giants.length;
    expect(growth).toBeLessThan(requests * (WEBHOOK_BODY_LIMIT_BYTES + OVERSIZED_DRAIN_BYTES));
    // And the server still answers.
    expect([400, 401]).toContain(await upload("/webhooks/products", 1024, true));
  }, 120_000);
});
