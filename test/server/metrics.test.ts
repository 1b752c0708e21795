/**
 * GET /metrics as an operator scrapes it (app/server/metrics.ts, metrics-route.ts), over real
 * HTTP: the app server counts the signed webhook deliveries it answers and shows the outbox;
 * `npm run worker` on its WORKER_PORT counts what it sends, the service's answers (a 429 waited
 * out included), the Admin API points it spends and the lease it holds. Without the token: 401;
 * without METRICS_TOKEN: 404. Never a shop domain, a key or the token in the output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parse as parseToml } from "@iarna/toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_API_SECRET } from "../../testkit/app-environment";
import { freePort } from "../../testkit/free-port";
import {
  indexableProduct,
  installShop,
  PRIMARY_DOMAIN,
  SECRET_KEYS,
  SHOP,
  startLiveEnvironment,
  waitFor,
  WORKSPACE,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { parsePrometheusText, sumOf } from "../../testkit/prometheus-text";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import { metricsRoute } from "../../app/server/metrics-route";
import { createAppMetrics, scrapeMetrics, WEBHOOK_TOPICS } from "../../app/server/metrics";
import { ShopLeases } from "../../app/sync/engine/process-leases.server";
import { receiveServiceEvent } from "../../app/service-events/receive.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { queryAdmin } from "../../app/shopify/admin-graphql";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
const TOKEN = "metrics-token-0123456789abcdef";
let env: LiveEnvironment;
const children: ChildProcess[] = [];

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 12, appEnvironment: { METRICS_TOKEN: TOKEN } });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await env?.close();
});

async function scrape(base: string, token: string | null = TOKEN) {
  const response = await fetch(`${base}/metrics`, {
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text(), response };
}

/** A metric's value in a scrape (0 when absent): the sum of its samples whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  return sumOf(parsePrometheusText(text), name, labels);
}

function expectNothingSecret(text: string): void {
  for (const secret of [SHOP, PRIMARY_DOMAIN, WORKSPACE, ...SECRET_KEYS, TEST_API_SECRET, TOKEN]) {
    expect(text).not.toContain(secret);
  }
  expect(text).not.toContain("live-store");
}

function postWebhook(topic: string, body: string, hmac: string): Promise<Response> {
  return fetch(`${env.app.url}/webhooks/products`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": SHOP,
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Webhook-Id": `metrics-${Math.random()}`,
      "X-Shopify-API-Version": "2026-10",
    },
    body,
  });
}

describe("the app server's /metrics", () => {
  it("counts signed webhook deliveries by topic and outcome, with their intake time, and shows the outbox", async () => {
    const before = (await scrape(env.app.url)).text;
    const product = indexableProduct(env, 0);
    const body = JSON.stringify({
      id: Number(product.id.split("/").pop()),
      admin_graphql_api_id: product.id,
      updated_at: new Date().toISOString(),
    });
    expect(
      (await postWebhook("products/update", body, shopifyHmac(TEST_API_SECRET, body))).status,
    ).toBe(200);
    // A forged delivery with a topic of the sender's choosing: counted, the topic not kept.
    const hostileTopic = `products/${"x".repeat(40)}-${SHOP}`;
    expect((await postWebhook(hostileTopic, body, shopifyHmac("wrong", body))).status).toBe(401);

    const { status, text, response } = await scrape(env.app.url);
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const accepted = { topic: "products/update", outcome: "accepted" };
    const forged = { topic: "other", outcome: "unauthorized" };
    const deliveries = "catalog_chat_webhook_deliveries_total";
    expect(sample(text, deliveries, accepted) - sample(before, deliveries, accepted)).toBe(1);
    expect(sample(text, deliveries, forged) - sample(before, deliveries, forged)).toBe(1);
    const intake = "catalog_chat_webhook_intake_seconds_count";
    const updates = { topic: "products/update" };
    expect(sample(text, intake, updates) - sample(before, intake, updates)).toBe(1);
    // The change waits in the outbox: no worker runs yet.
    expect(sample(text, "catalog_chat_outbox_changes", { state: "waiting" })).toBe(1);
    expect(sample(text, "catalog_chat_outbox_oldest_change_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^catalog_chat_outbox_oldest_change_age_seconds \S+$/m);
    expect(text).not.toContain("x".repeat(40));
    expectNothingSecret(text);
  });

  it("answers 401 without the token or with another one, and says nothing more", async () => {
    for (const token of [null, "wrong-token-0123456789", `${TOKEN}x`]) {
      const answer = await scrape(env.app.url, token);
      expect(answer.status).toBe(401);
      expect(answer.response.headers.get("www-authenticate")).toContain("Bearer");
      expect(answer.text).not.toContain("catalog_chat_");
    }
    const basic = await fetch(`${env.app.url}/metrics`, {
      headers: { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
    });
    expect(basic.status).toBe(401);
  });
});

describe("/metrics without METRICS_TOKEN", () => {
  it("answers 404, as if there were no such path", async () => {
    const route = metricsRoute(() => ({ token: undefined, scrape: scrapeMetrics }));
    const server = createServer((req, res) => {
      if (!route(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await scrape(base)).status).toBe(404);
      expect((await scrape(base, null)).status).toBe(404);
      expect((await fetch(`${base}/other`)).status).toBe(418);
    } finally {
      server.close();
    }
  });
});

describe("npm run worker's /metrics on WORKER_PORT", () => {
  it("counts items sent, the service's answers, a 429 waited out, Admin API points, the lease held and the changes applied", async () => {
    const product = indexableProduct(env, 1);
    env.shopify.state.updateProduct(product.id, { title: "Counted" }, { webhook: true });
    await env.shopify.state.settled();
    // The first bulk upsert is answered 429.
    env.emulator.state.injectFault({
      status: 429,
      retryAfter: 1,
      match: { method: "POST", path: "/products/bulk" },
    });
    const port = await freePort();
    const child = spawn(process.execPath, npmCommand("worker"), {
      cwd: ROOT,
      env: {
        ...process.env,
        WORKER_PORT: String(port),
        METRICS_TOKEN: TOKEN,
        LIVE_POLL_MS: "50",
        LIVE_COALESCE_MS: "100",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    let text = "";
    await waitFor("the worker to send the change and say so on /metrics", async () => {
      const answer = await scrape(base);
      text = answer.text;
      return sample(text, "catalog_chat_items_total", { kind: "product", outcome: "sent" }) >= 1;
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}; the worker said: ${output}`);
    });
    expect(sample(text, "catalog_chat_service_rate_limited_waits_total")).toBe(1);
    expect(sample(text, "catalog_chat_service_rate_limited_wait_seconds_total")).toBeGreaterThan(0);
    const bulk = { endpoint: "POST /products/bulk" };
    expect(sample(text, "catalog_chat_service_answers_total", { ...bulk, status: "429" })).toBe(1);
    expect(sample(text, "catalog_chat_service_answers_total", { ...bulk, status: "200" })).toBe(1);
    expect(sample(text, "catalog_chat_admin_api_points_total")).toBeGreaterThan(0);
    // Held while it sends, given back when the outbox is empty: present either way.
    expect(text).toMatch(/^catalog_chat_leases_held [01]$/m);
    const lastLoop = sample(text, "catalog_chat_live_worker_last_loop_timestamp_seconds");
    expect(Math.abs(lastLoop - Date.now() / 1000)).toBeLessThan(60);
    // The outbox empties once the worker has sent what it holds (it may hold more than the one).
    await waitFor("the worker's /metrics to show an empty outbox", async () => {
      text = (await scrape(base)).text;
      return sample(text, "catalog_chat_outbox_changes", { state: "waiting" }) === 0;
    });
    // The changes it applied, and the CPU the process spent while it served the shop.
    await waitFor("the worker's /metrics to count the change it applied", async () => {
      text = (await scrape(base)).text;
      return sample(text, "catalog_chat_live_worker_changes_total") >= 1;
    });
    expect(sample(text, "catalog_chat_live_worker_cpu_seconds_total")).toBeGreaterThan(0);
    expectNothingSecret(text);
    expect((await scrape(base, null)).status).toBe(401);
    child.kill("SIGKILL");
  }, 60_000);
});

describe("the metrics of the process that ran the first full sync", () => {
  it("count the full sync that succeeded and the items it sent", async () => {
    // installShop ran the sync in this process: its own metrics counted it (as the run was given
    // up, a moment after its row says it finished).
    await waitFor(
      "the finished run to count in /metrics",
      async () =>
        sample((await scrapeMetrics()).text, "catalog_chat_full_syncs_total", {
          outcome: "succeeded",
        }) > 0,
    );
    const { text } = await scrapeMetrics();
    expect(sample(text, "catalog_chat_full_syncs_total", { outcome: "succeeded" })).toBe(1);
    expect(
      sample(text, "catalog_chat_items_total", { kind: "product", outcome: "sent" }),
    ).toBeGreaterThan(0);
    expect(
      sample(text, "catalog_chat_items_total", { kind: "post", outcome: "sent" }),
    ).toBeGreaterThan(0);
    expectNothingSecret(text);
  });
});

describe("the service events metric", () => {
  it("counts a delivery for no known shop as unknown-shop", async () => {
    const read = async () =>
      sample((await scrapeMetrics()).text, "catalog_chat_service_events_total", {
        outcome: "unknown-shop",
      });
    const before = await read();
    const answer = await receiveServiceEvent({
      publicId: "no-such-webhook-id-0123",
      rawBody: "{}",
      signature: null,
    });
    expect(answer.status).toBe(401);
    expect(await read()).toBe(before + 1);
  });
});

describe("the Admin API metrics", () => {
  it("count a THROTTLED answer waited out, and the points the answer after it cost", async () => {
    const read = async (name: string) => sample((await scrapeMetrics()).text, name);
    const throttled = await read("catalog_chat_admin_api_throttled_total");
    const points = await read("catalog_chat_admin_api_points_total");
    // Through Shopify's own client (only its transport points at the fake), which throws on it.
    env.shopify.state.throttleNextRequests(1);
    const data = await queryAdmin<{ shop: { name: string } }>(
      await adminFor(SHOP),
      "query ShopName { shop { name } }",
    );
    expect(data.shop.name).toBeTruthy();
    expect(await read("catalog_chat_admin_api_throttled_total")).toBe(throttled + 1);
    expect(await read("catalog_chat_admin_api_points_total")).toBeGreaterThan(points);
  }, 30_000);
});

describe("the lease metrics", () => {
  it("show the leases a process holds and count one another process took over", async () => {
    const leases = new ShopLeases("metrics-test-holder", 300);
    const read = async (name: string) => sample((await scrapeMetrics()).text, name);
    const heldBefore = await read("catalog_chat_leases_held");
    const takenBefore = await read("catalog_chat_leases_taken_over_total");
    const held = await leases.hold("lease-metrics.myshopify.com");
    expect(held).not.toBeNull();
    expect(await read("catalog_chat_leases_held")).toBe(heldBefore + 1);
    // Another process takes the shop over: its token replaces this one's.
    await env.prisma.shopLease.update({
      where: { shopDomain: "lease-metrics.myshopify.com" },
      data: { holder: "another-process", token: "another-token" },
    });
    await waitFor("the renewal to find the lease taken over", () => held!.lost());
    expect(await read("catalog_chat_leases_taken_over_total")).toBe(takenBefore + 1);
    await held!.release();
    expect(await read("catalog_chat_leases_held")).toBe(heldBefore);
  });
});

describe("the webhook topic label", () => {
  it("knows every topic shopify.app.toml subscribes to, and no other", () => {
    const toml = parseToml(readFileSync(join(ROOT, "shopify.app.toml"), "utf8")) as {
      webhooks: { subscriptions: { topics?: string[]; compliance_topics?: string[] }[] };
    };
    const subscribed = toml.webhooks.subscriptions.flatMap((s) => [
      ...(s.topics ?? []),
      ...(s.compliance_topics ?? []),
    ]);
    expect([...WEBHOOK_TOPICS].sort()).toEqual([...subscribed].sort());
  });
});

describe("METRICS_SHOP_LABELS: the _by_shop series", () => {
  const WATCHED = "watched-shop.myshopify.com";
  const UNWATCHED = "unwatched-shop.myshopify.com";

  it("show the listed shops alone, by shop, while the series without a shop label count every shop", async () => {
    const { metrics, scrape } = createAppMetrics([WATCHED]);
    metrics.countItems(WATCHED, "product", "sent", 3);
    metrics.countItems(UNWATCHED, "product", "sent", 2);
    metrics.countItems(UNWATCHED, "product", "refused", 1);
    expect(metrics.shopLabel(UNWATCHED)).toBeUndefined();
    expect(metrics.shopLabel(" Watched-Shop.myshopify.com ")).toBe(WATCHED);
    const old = new Date(Date.now() - 90_000);
    await env.prisma.pendingChange.createMany({
      data: [
        { shopDomain: WATCHED, productId: "1", change: "update", changedAt: old, receivedAt: old },
        {
          shopDomain: WATCHED,
          productId: "2",
          change: "update",
          changedAt: old,
          lastError: "[quota] held",
        },
        { shopDomain: UNWATCHED, productId: "1", change: "update", changedAt: old },
      ],
    });
    try {
      const text = await scrape();
      const items = "catalog_chat_items_total";
      const itemsByShop = "catalog_chat_items_by_shop_total";
      expect(sample(text, items, { kind: "product", outcome: "sent" })).toBe(5);
      expect(sample(text, itemsByShop, { shop: WATCHED, outcome: "sent" })).toBe(3);
      expect(sample(text, itemsByShop, { outcome: "refused" })).toBe(0);
      const byShop = "catalog_chat_outbox_changes_by_shop";
      expect(sample(text, byShop, { shop: WATCHED, state: "waiting" })).toBe(1);
      expect(sample(text, byShop, { shop: WATCHED, state: "held_for_quota" })).toBe(1);
      expect(
        sample(text, "catalog_chat_outbox_oldest_change_age_by_shop_seconds", { shop: WATCHED }),
      ).toBeGreaterThanOrEqual(90);
      // The first scrape already shows the age (it once showed the scrape before's).
      expect(sample(text, "catalog_chat_outbox_oldest_change_age_seconds")).toBeGreaterThanOrEqual(
        90,
      );
      // Every shop in the outbox series, without a shop label, as the alert rules read them.
      expect(
        sample(text, "catalog_chat_outbox_changes", { state: "waiting" }),
      ).toBeGreaterThanOrEqual(2);
      expect(text).toMatch(/^catalog_chat_outbox_changes\{state="waiting"\} \d+$/m);
      expect(text).not.toContain(UNWATCHED);
      for (const line of text.split("\n")) {
        if (line.includes('shop="'))
          expect(line).toMatch(/^catalog_chat_\w+_by_shop(_total|_seconds)?\{/);
      }
    } finally {
      await env.prisma.pendingChange.deleteMany({
        where: { shopDomain: { in: [WATCHED, UNWATCHED] } },
      });
    }
  });

  it("are empty where METRICS_SHOP_LABELS names no shop: the installed shop is in no label", async () => {
    const { metrics, scrape } = createAppMetrics([]);
    metrics.countItems(SHOP, "product", "sent", 4);
    const text = await scrape();
    expect(sample(text, "catalog_chat_items_total", { outcome: "sent" })).toBe(4);
    expect(text).not.toMatch(/_by_shop\S*\{/);
    expectNothingSecret(text);
  });
});
