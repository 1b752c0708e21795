/**
 * Figures for receiving the service's events (printed, never asserted):
 *   npm run build && npx tsx bench/service-events.bench.ts [--events 2000] [--concurrency 10]
 *
 * The app's production build behind a real HTTP server on loopback (in this process), a fresh
 * SQLite file, one shop with its registered webhook. Signed deliveries as the service sends them:
 * chat messages over 200 conversations, with a contact request and a three-step handoff in every
 * tenth conversation; then every event again (retries/duplicates). Printed: answer latency
 * p50/p95/p99/max (request sent to answer read) and deliveries per second, sequential and at the
 * given concurrency. Baseline: a bare node:http receiver that only checks the signature and
 * answers 200 (no storage), and the service's own limit: an answer within 30 s (spec §6.3).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { startAppServer } from "../app/server/app-server";
import { freePort } from "../testkit/free-port";
import { prepareAppEnvironment } from "../testkit/app-environment";
import prisma from "../app/models/db.server";
import { sealSecret } from "../app/secret-box.server";
import { config } from "../app/config.server";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "10" },
  },
});
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);
const SHOP = "bench-events.myshopify.com";
const WORKSPACE = "bench-events-example-com";
const SECRET = randomBytes(32).toString("hex");
const sign = (body: string) => `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;

function bodies(count: number): string[] {
  const out: string[] = [];
  const start = Date.now() - 3_600_000;
  for (let i = 0; out.length < count; i++) {
    const thread = `web_bench_${i % 200}`;
    const at = new Date(start + i * 100).toISOString();
    const event = (type: string, data: object) =>
      out.push(
        JSON.stringify({
          id: `evt_${i}_${type.replace(".", "_")}`,
          event_type: type,
          created_at: at,
          // Every event but the contact form names the workspace, as the service's do.
          data:
            type === "contact.submitted"
              ? { thread_id: thread, ...data }
              : { thread_id: thread, workspace_id: WORKSPACE, ...data },
        }),
      );
    event("chat.message_sent", { message: `Do you have item ${i % 37} in blue?` });
    if (i % 10 === 0) {
      event("handoff.requested", {
        customer: { name: `Shopper ${i}`, email: `s${i}@example.com` },
      });
      event("contact.submitted", {
        name: `Shopper ${i}`,
        email: `s${i}@example.com`,
        phone: "",
        message: "Please call me",
      });
      event("handoff.accepted", { agent: { id: "a", name: "Sam" } });
    }
  }
  return out.slice(0, count);
}

async function run(url: string, list: string[], concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) {
        const body = list[next++]!;
        const t0 = performance.now();
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Webhook-Signature": sign(body) },
          body,
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status !== 200) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    p50: at(0.5).toFixed(1),
    p95: at(0.95).toFixed(1),
    p99: at(0.99).toFixed(1),
    max: at(1).toFixed(1),
    perSecond: Math.round(list.length / seconds),
    failures,
  };
}

function print(label: string, figures: Awaited<ReturnType<typeof run>>) {
  console.log(
    `${label.padEnd(44)} p50 ${figures.p50} ms  p95 ${figures.p95} ms  p99 ${figures.p99} ms  max ${figures.max} ms  ${figures.perSecond}/s${figures.failures ? `  ${figures.failures} not 200` : ""}`,
  );
}

/** The baseline: verify the signature, answer 200, store nothing. */
async function startBaseline() {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(sign(body.toString("utf8")));
      const got = Buffer.from(String(req.headers["x-webhook-signature"] ?? ""));
      const ok = got.length === expected.length && timingSafeEqual(got, expected);
      res.writeHead(ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const port = await freePort();
await prepareAppEnvironment({
  SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
  BACKGROUND_WORK: "off",
});
const app = await startAppServer({ port });
const publicId = randomBytes(18).toString("base64url");
await prisma.shop.create({
  data: { shopDomain: SHOP, primaryDomain: "bench-events.example.com", workspaceId: WORKSPACE },
});
await prisma.serviceWebhook.create({
  data: {
    shopDomain: SHOP,
    publicId,
    secretCiphertext: sealSecret(SECRET, config().encryptionKey),
  },
});
const url = `${app.url}/service-events/${publicId}`;
const list = bodies(EVENTS);
const baseline = await startBaseline();

console.log(
  `${EVENTS} signed deliveries (Node ${process.version}, SQLite file, app in this process)`,
);
print("baseline: verify only, sequential", await run(baseline.url, list, 1));
print(`baseline: verify only, ${CONCURRENCY} at once`, await run(baseline.url, list, CONCURRENCY));
print("app: new events, sequential", await run(url, list.slice(0, EVENTS / 2), 1));
print(
  `app: new events, ${CONCURRENCY} at once`,
  await run(url, list.slice(EVENTS / 2), CONCURRENCY),
);
print(`app: the same events again, ${CONCURRENCY} at once`, await run(url, list, CONCURRENCY));
const stored = await prisma.serviceEvent.count();
const entries = await prisma.inboxItem.count();
console.log(`stored events: ${stored} of ${EVENTS} (none doubled); Inbox entries: ${entries}`);
console.log("service's limit for an answer (spec §6.3): 30000 ms");
await baseline.close();
await app.close();
await prisma.$disconnect();
