/**
 * Structured logs (app/server/log.ts, docs/operations.md "Logs"), as an operator's log collector
 * stores them: one JSON object per line with level, time and msg, the shop, run and request they
 * are about; never a secret or a shopper's contact details or words, whatever path logged them;
 * LOG_LEVEL filters, and an invalid one stops start-up in one message.
 */
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, type RunningMailSink } from "../../dev/mail-sink/server";
import { captureLogs, type CapturedLogs } from "../../testkit/capture-logs";
import { generatedStore, writeExport } from "../../testkit/catalogue-files";
import { freePort } from "../../testkit/free-port";
import { waitFor } from "../../testkit/live-stack";
import { commandEnvironment, runCommand } from "../../testkit/run-command";
import {
  askForAPerson,
  connectShop,
  KEYS,
  SHOP_A,
  startEventsEnvironment,
  workspaceOfShop,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import { createMigratedDatabase } from "../../testkit/test-database";
import { TEST_API_SECRET } from "../../testkit/app-environment";
import { IndexServiceClient } from "../../app/index-service/client";
import { fileSource } from "../../app/shopify/bulk-source";
import { startMailSender } from "../../app/service-events/mail-sender.server";
import { retireServiceWebhook } from "../../app/service-events/registration.server";
import { runFullSync } from "../../app/sync/engine/sync-export.server";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
const SECRET_KEY = KEYS[SHOP_A].secret;
const ACCESS_TOKEN = "shpat_0123456789abcdef0123456789abcdef";
const METRICS_TOKEN = "metrics-token-7f3a9c2e5b1d";
const SHOPPER = {
  name: "Olga Privatova",
  email: "olga.privatova@example.com",
  phone: "+44 20 7946 0958",
  message: "Is the blue raincoat back in size 38?",
};

let env: EventsEnvironment;
let mail: RunningMailSink;
let logs: CapturedLogs;

beforeAll(async () => {
  // A mail server that refuses every message, quoting its Reply-To (the shopper's address).
  mail = await startMailSink({
    smtpPort: await freePort(),
    refuse: (caught) => `5.7.1 <${caught.replyTo}>: Reply-To address rejected`,
  });
  env = await startEventsEnvironment({
    METRICS_TOKEN,
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "owner@shop-a.test",
    HANDOFF_MAIL_WAIT_SECONDS: "1",
    MAIL_RETRY_SECONDS: "60",
  });
  logs = captureLogs();
  await connectShop(SHOP_A);
}, 60_000);

afterAll(async () => {
  logs?.restore();
  await env?.close();
  await mail?.close();
});

/** A signed webhook whose sender closes the connection mid-body, with the caller's request id. */
function abandonedWebhook(requestId: string): Promise<void> {
  const body = JSON.stringify({ id: 1, title: "Lamp", variants: [] });
  const url = new URL(env.appUrl);
  return new Promise((resolve) => {
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      method: "POST",
      path: "/webhooks/products",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(body.length + 10_000),
        "X-Request-Id": requestId,
        "X-Shopify-Topic": "products/update",
        "X-Shopify-Shop-Domain": SHOP_A,
        "X-Shopify-Hmac-Sha256": shopifyHmac(TEST_API_SECRET, body),
        "X-Shopify-Webhook-Id": "wh-abandoned",
        "X-Shopify-API-Version": "2026-10",
      },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(body.slice(0, 10), () => setImmediate(() => req.destroy()));
  });
}

describe("what the app logs", () => {
  it("names the shop, the run and the request, and holds no secret and no shopper's data", async () => {
    // A shopper's contact request: received, owed as a notification email, refused by the mail
    // server with the shopper's address in its reply, logged as a failed send.
    await askForAPerson(env.emulator.url, SHOP_A, "web_logs", SHOPPER);
    await env.emulator.state.deliveriesSettled();
    const sender = startMailSender();
    try {
      await waitFor("a failed send to be logged", () =>
        logs.lines().some((line) => /notification email could not be sent/.test(line.msg)),
      );
    } finally {
      await sender?.stop();
    }

    // A failing service call whose answer quotes the key, an access token, the metrics token and
    // the shopper's address (a proxy's error page).
    env.emulator.state.injectFault({
      status: 502,
      message: `upstream refused Authorization: Bearer ${SECRET_KEY} (X-Shopify-Access-Token ${ACCESS_TOKEN}, metrics ${METRICS_TOKEN}) for ${SHOPPER.email}`,
      match: { method: "DELETE", path: "/webhooks" },
    });
    await retireServiceWebhook(SHOP_A, {
      secretKey: SECRET_KEY,
      workspaceId: workspaceOfShop(SHOP_A),
    });

    // A full sync whose export has a line before its product: a warning about the run.
    const store = generatedStore({ products: 5, pages: 0, articles: 0, seed: 27 });
    const variantAt = store.findIndex((line) => /\/ProductVariant\//.test(line.id));
    const [variant] = store.splice(variantAt, 1);
    store.splice(0, 0, variant!);
    const workspaceId = workspaceOfShop(SHOP_A);
    const file = writeExport(store);
    const { run } = await runFullSync({
      shopDomain: SHOP_A,
      workspaceId,
      primaryDomain: SHOP_A,
      client: new IndexServiceClient({
        baseUrl: env.emulator.url,
        apiKey: SECRET_KEY,
        workspaceId,
      }),
      sources: [{ label: file, open: fileSource(file) }],
      types: ["product"],
      trigger: "resync",
    });

    // A webhook cut off mid-body, logged while its request is answered.
    await abandonedWebhook("req-logs-test-1");
    await waitFor("the cut-off webhook to be logged", () =>
      logs.lines().some((line) => /Webhook connection closed/.test(line.msg)),
    );

    const lines = logs.lines();
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({ level: expect.any(String), time: expect.any(String) }),
      );
      expect(typeof line.msg).toBe("string");
    }
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "warn",
        component: "mail",
        shop: SHOP_A,
        msg: expect.stringMatching(/a notification email could not be sent .*\[email\]/),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "warn",
        component: "service-events",
        shop: SHOP_A,
        msg: expect.stringMatching(/former account's webhook could not be deleted/),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "warn", shop: SHOP_A, runId: run.id }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        requestId: "req-logs-test-1",
        msg: expect.stringMatching(/^Webhook connection closed by its sender/),
      }),
    );

    const written = logs.text();
    for (const secret of [SECRET_KEY, ACCESS_TOKEN, METRICS_TOKEN, ...Object.values(SHOPPER)]) {
      expect(written).not.toContain(secret);
    }
  }, 60_000);

  it("answers every request with its id: the caller's X-Request-Id, else a new one", async () => {
    const given = await fetch(`${env.appUrl}/healthz`, {
      headers: { "X-Request-Id": "probe-42" },
    });
    expect(given.headers.get("X-Request-Id")).toBe("probe-42");
    const made = await fetch(`${env.appUrl}/healthz`);
    expect(made.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(`${env.appUrl}/healthz`, {
      headers: { "X-Request-Id": "not an id\u00e9" },
    });
    expect(odd.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("LOG_LEVEL and LOG_FORMAT", () => {
  let base: Record<string, string>;

  beforeAll(async () => {
    const db = await createMigratedDatabase();
    base = commandEnvironment({
      NODE_ENV: "test",
      DATABASE_URL: db.url,
    });
  }, 60_000);

  /** `npm run worker` until its /readyz answers 200, then SIGTERM: everything it wrote. */
  async function workerOutput(extra: Record<string, string>): Promise<string> {
    const port = await freePort();
    const child = spawn(process.execPath, npmCommand("worker"), {
      cwd: ROOT,
      env: { ...base, WORKER_PORT: String(port), ...extra } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      // Ready once its loop has run, which is after its start-up lines were written.
      await waitFor(
        "the worker to be ready",
        async () =>
          (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200,
        30_000,
      );
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    return output;
  }

  it("writes JSON lines at info by default, and only warnings and errors at LOG_LEVEL=warn", async () => {
    const info = await workerOutput({});
    const lines = info
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "info",
        component: "live",
        msg: expect.stringMatching(/^worker .* started$/),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "SIGTERM: stopping after the work under way" }),
    );

    const warn = await workerOutput({ LOG_LEVEL: "warn" });
    expect(warn).not.toMatch(/started|stopping|"level":"info"/);
  }, 90_000);

  it("writes readable lines with LOG_FORMAT=pretty", async () => {
    const output = await workerOutput({ LOG_FORMAT: "pretty" });
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: \[live\] worker \S+ started$/m);
    expect(output).not.toMatch(/^\{/m);
  }, 60_000);

  it("refuses an invalid LOG_LEVEL at start-up, in the configuration's message, exit code 2", async () => {
    const worker = await runCommand(npmCommand("worker"), {
      ...base,
      LOG_LEVEL: "verbose",
    });
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/The app cannot start: its configuration has 1 problem/);
    expect(worker.stderr).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );

    const sync = await runCommand(
      [...npmCommand("sync"), "--input", "README.md", "--domain", "a.example"],
      { ...base, INDEX_SECRET_KEY: SECRET_KEY, LOG_LEVEL: "loud" },
    );
    expect(sync.code).toBe(2);
    expect(sync.stderr).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  }, 60_000);
});
