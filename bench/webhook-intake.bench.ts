/**
 * Webhook intake figures (printed, never asserted):
 *   npm run build && npx tsx bench/webhook-intake.bench.ts [--deliveries 5000] [--concurrency 20]
 *     [--running-after 5000] [--products 1000] [--postgres cluster|postgresql://…|'']
 *     [--through-remix]
 *   (`--postgres cluster`, the default: a throwaway PostgreSQL cluster with fsync on, started in a
 *   temporary folder and removed after (testkit/postgres-cluster.ts); a URL: that server,
 *   the database created when missing and its outbox emptied; `''`: SQLite only)
 *
 * Only the intake: signed products/update deliveries (the fake store's REST payloads, every
 * header Shopify sends) at `--concurrency` in flight against the app's server (`npm start` as
 * package.json runs it: the build, the command bundled, plain node) in its own process, the live
 * worker off, on a new SQLite file and on PostgreSQL; then the naive baseline (check the
 * signature, one POST /products to the service, answer) in its own process. `--through-remix` adds, per
 * database, the same deliveries to the route through express and Remix (`/webhooks/products/`,
 * which the server's fast path leaves to them), as every webhook was served before.
 * The deliveries are what the app's subscription receives: the payload cut to its include_fields
 * (the fake store's DEFAULT_INCLUDE_FIELDS, checked against shopify.app.toml by a test), about
 * 1.5 KB a product here instead of the whole product's 6 KB.
 * Each process is measured twice: "just started", the `--deliveries` after its first 500 (not
 * counted: connections); "running", as many again after `--running-after` more (not counted:
 * V8 compiles the hot paths with its optimising tiers over the first few thousand, which about
 * doubles the naive baseline's rate). Printed per run: answer p50/p99 (request written to answer
 * read), deliveries per second, CPU per delivery, non-200 answers; for the app also whether every
 * delivery was in the database when the run ended (receipts and outbox rows) and that a second
 * delivery of 1,000 of them changed nothing.
 */
import { type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPostgresCluster, type PostgresCluster } from "../testkit/postgres-cluster";
import { cpuTimeMs } from "./process-cpu";
import { startRoleProcess, startUntilReady, stopRoleProcess } from "../testkit/role-process";
import { npmCommand } from "../testkit/npm-command";
import { createPrismaClient } from "../app/models/db.server";
import { requireAppBuild } from "../app/server/app-server";

/** `CPU_PROF=<dir>`: each receiving process writes a CPU profile there. */
const cpuProfile = process.env.CPU_PROF
  ? ["--cpu-prof", "--cpu-prof-dir", process.env.CPU_PROF]
  : [];

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000" },
    deliveries: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "20" },
    "running-after": { type: "string", default: "5000" },
    postgres: { type: "string", default: "cluster" },
    "through-remix": { type: "boolean", default: false },
    role: { type: "string", default: "driver" },
  },
});
const PRODUCTS = Number(values.products);
const DELIVERIES = Number(values.deliveries);
const CONCURRENCY = Number(values.concurrency);
const RUNNING_AFTER = Number(values["running-after"]);
const WARM_UP = 500;
const REPEATED = 1_000;
const SHOP = "intake-bench.myshopify.com";
const API_SECRET = "bench-app-secret";
const BASELINE_KEY = "svc_sk_bench_baseline";

if (values.role === "baseline") await runBaseline();
else await drive();

function ready(url: string) {
  process.stdout.write(`ready ${url}\n`);
}

function stopOnSignal(stop: () => Promise<void>) {
  process.once("SIGTERM", () => void stop().then(() => process.exit(0)));
}

/** `prisma migrate deploy` does not create a PostgreSQL database: made here when missing. */
async function createPostgresDatabase(url: string) {
  const { default: pg } = await import("pg");
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function runBaseline() {
  const { startNaiveWebhookApp } = await import("./baseline/naive-webhook-app");
  const app = await startNaiveWebhookApp({
    apiSecret: API_SECRET,
    emulatorUrl: process.env.INDEX_API_URL ?? "",
    secretKey: BASELINE_KEY,
    workspace: "baseline-example-com",
  });
  stopOnSignal(() => app.close());
  ready(app.url);
}

interface Delivery {
  productId: number;
  body: string;
  hmac: string;
  webhookId: string;
  triggeredAt: string;
}

interface RunFigures {
  p50: number;
  p99: number;
  perSecond: number;
  refused: number;
  /** CPU time of the receiving process per delivery (user + system), from /proc. */
  cpuMs: number;
}

// ── The driver: Shopify's side ──────────────────────────────────────────────────────────────────
async function drive() {
  requireAppBuild();
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify } = await import("../dev/fake-shopify/server");
  const { applyIncludeFields, DEFAULT_INCLUDE_FIELDS } =
    await import("../dev/fake-shopify/webhooks");

  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    accounts: [
      {
        name: "baseline",
        tier: "enterprise",
        secretKeys: [BASELINE_KEY],
        rateLimits: { perMinute: 1e9, perHour: 1e9 },
        quotas: { products: 1e9 },
      },
    ],
  });
  // The fake store only makes the payloads: the REST Product resource as Shopify sends it.
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: "intake-bench.example.com",
    apiSecret: API_SECRET,
    store: { generated: { products: PRODUCTS, pages: 0, articles: 0, seed: 2026 } },
  });
  const fields = DEFAULT_INCLUDE_FIELDS["products/update"]!;
  const payloads = shopify.state.products().map((product) => {
    const body = JSON.stringify(
      applyIncludeFields(shopify.state.productWebhookPayload(product.id), fields),
    );
    const id = Number(String(product.id).split("/").pop());
    return { id, body, hmac: createHmac("sha256", API_SECRET).update(body).digest("base64") };
  });
  await shopify.close();
  let clock = Date.now();
  const deliveries = (count: number): Delivery[] =>
    Array.from({ length: count }, (_, k) => {
      const payload = payloads[k % payloads.length]!;
      clock += 1;
      return {
        productId: payload.id,
        body: payload.body,
        hmac: payload.hmac,
        webhookId: randomUUID(),
        triggeredAt: new Date(clock).toISOString(),
      };
    });

  const send = (agent: Agent, url: URL, delivery: Delivery) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(delivery.body),
            "X-Shopify-Topic": "products/update",
            "X-Shopify-Shop-Domain": SHOP,
            "X-Shopify-Hmac-Sha256": delivery.hmac,
            "X-Shopify-Webhook-Id": delivery.webhookId,
            "X-Shopify-API-Version": "2026-10",
            "X-Shopify-Event-Id": randomUUID(),
            "X-Shopify-Triggered-At": delivery.triggeredAt,
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(delivery.body);
    });

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

  /** Sends every delivery with `CONCURRENCY` in flight; latency is Shopify's side. */
  const burst = async (
    target: { url: string; child: ChildProcess },
    batch: Delivery[],
    path = "/webhooks/products",
  ): Promise<RunFigures> => {
    const baseUrl = target.url;
    const cpuBefore = cpuTimeMs(target.child.pid!);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const url = new URL(path, baseUrl);
    const durations: number[] = [];
    let refused = 0;
    let next = 0;
    const started = performance.now();
    const lane = async () => {
      for (let k = next++; k < batch.length; k = next++) {
        const at = performance.now();
        const status = await send(agent, url, batch[k]!);
        durations.push(performance.now() - at);
        if (status !== 200) refused += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const elapsed = performance.now() - started;
    const cpuMs = (cpuTimeMs(target.child.pid!) - cpuBefore) / batch.length;
    agent.destroy();
    durations.sort((a, b) => a - b);
    return {
      p50: percentile(durations, 50),
      p99: percentile(durations, 99),
      perSecond: (batch.length / elapsed) * 1000,
      refused,
      cpuMs,
    };
  };

  /**
   * `npm start` as package.json runs it (the bundled command under plain node), the live worker
   * off, on a database it migrates itself; then the shop the deliveries are for, its outbox empty.
   */
  const startApp = async (url: string) => {
    if (url.startsWith("postgres")) await createPostgresDatabase(url);
    const app = await startUntilReady(
      [...cpuProfile, ...npmCommand("start")],
      { ...childEnv, DATABASE_URL: url, PORT: "0", HOST: "127.0.0.1" },
      /"component":"catalog-chat","url":"([^"]+)"/,
    );
    const db = createPrismaClient(url);
    await db.pendingChange.deleteMany({ where: { shopDomain: SHOP } });
    await db.webhookReceipt.deleteMany({ where: { shopDomain: SHOP } });
    await db.shop.upsert({
      where: { shopDomain: SHOP },
      create: { shopDomain: SHOP, state: "active", syncProducts: true },
      update: { state: "active", syncProducts: true },
    });
    await db.$disconnect();
    return app;
  };

  /** A process just started, then running: every delivery sent, in order, and both figures. */
  const measure = async (target: { url: string; child: ChildProcess }) => {
    const first = deliveries(WARM_UP);
    await burst(target, first);
    const early = deliveries(DELIVERIES);
    const started = await burst(target, early);
    const between = deliveries(RUNNING_AFTER);
    await burst(target, between);
    const late = deliveries(DELIVERIES);
    const running = await burst(target, late);
    return { sent: [...first, ...early, ...between, ...late], started, running };
  };

  const work = mkdtempSync(join(tmpdir(), "intake-bench-"));
  const childEnv = {
    NODE_ENV: "production",
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_APP_URL: "https://catalog-chat.bench",
    ENCRYPTION_KEY: "q2P0pXn8cVd5sT7wYz1bRk4mHj6gFe3aLu9oIt0yWx8=",
    INDEX_API_URL: emulator.url,
    BACKGROUND_WORK: "off",
  };

  const lines: string[] = [];
  const row = (name: string, f: RunFigures, extra = "") =>
    lines.push(
      `  ${name.padEnd(31)} p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ` +
        `${Math.round(f.perSecond)} deliveries/s, CPU ${f.cpuMs.toFixed(2)} ms per delivery, ` +
        `non-200 ${f.refused}${extra}`,
    );

  const databases: [string, string][] = [["app, SQLite", `file:${join(work, "intake.db")}`]];
  let cluster: PostgresCluster | undefined;
  if (values.postgres === "cluster") {
    cluster = await startPostgresCluster({ durable: true });
    const url = new URL(cluster.url);
    url.pathname = "/webhook_intake_bench";
    databases.push(["app, PostgreSQL", url.href]);
  } else if (values.postgres) {
    databases.push(["app, PostgreSQL", values.postgres]);
  }
  try {
    for (const [name, url] of databases) {
      const app = await startApp(url);
      try {
        const { sent, started, running } = await measure(app);
        const db = createPrismaClient(url);
        const receipts = await db.webhookReceipt.count({ where: { shopDomain: SHOP } });
        const again = await burst(app, sent.slice(0, REPEATED));
        const receiptsAfter = await db.webhookReceipt.count({ where: { shopDomain: SHOP } });
        const pending = await db.pendingChange.count({ where: { shopDomain: SHOP } });
        const newest = await db.pendingChange.findMany({
          where: { shopDomain: SHOP },
          select: { productId: true, changedAt: true },
        });
        await db.$disconnect();
        // Each product's row must hold the newest change sent for it.
        const expected = new Map<string, number>();
        for (const d of sent) {
          expected.set(String(d.productId), Date.parse(d.triggeredAt));
        }
        const stale = newest.filter(
          (r) => expected.has(r.productId) && r.changedAt.getTime() !== expected.get(r.productId),
        ).length;
        const distinct = new Set(payloads.map((p) => p.id)).size;
        row(`${name}, just started`, started);
        row(
          `${name}, running`,
          running,
          `\n${" ".repeat(34)}in the database: ${receipts} receipts of ${sent.length} deliveries, ` +
            `${pending} outbox rows of ${Math.min(distinct, sent.length)} products, ${stale} not the newest change; ` +
            `${REPEATED} sent again: non-200 ${again.refused}, receipts after ${receiptsAfter}`,
        );
        if (values["through-remix"]) {
          // The same route through express and Remix, as every webhook was served before: the
          // server answers only a webhook route's exact path itself, not this spelling of it.
          await burst(app, deliveries(WARM_UP), "/webhooks/products/");
          row(`${name} via Remix`, await burst(app, deliveries(DELIVERIES), "/webhooks/products/"));
        }
      } finally {
        await stopRoleProcess(app.child);
      }
    }

    const baseline = await startRoleProcess(import.meta.filename, "baseline", childEnv, cpuProfile);
    try {
      const { started, running } = await measure(baseline);
      row("naive baseline, just started", started);
      row("naive baseline, running", running);
    } finally {
      await stopRoleProcess(baseline.child);
    }
  } finally {
    await emulator.close();
    await cluster?.stop();
  }

  console.log(
    `Webhook intake: ${DELIVERIES} products/update deliveries over ${payloads.length} products, ` +
      `${CONCURRENCY} in flight, just started (after ${WARM_UP} not counted) and running (after ${RUNNING_AFTER} more); ` +
      `goal p99 < 50 ms and >= 2,000/s (issue 28, item 5)`,
  );
  for (const line of lines) console.log(line);
}
