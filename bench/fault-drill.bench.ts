/**
 * The standing fault drill (printed; exits 1 when a change was lost or the index differs from the
 * store in the end):
 *   npm run build && npx tsx bench/fault-drill.bench.ts [--modes in-app,separate] [--products 40]
 *     [--webhooks 150] [--shoppers 20] [--seconds 40] [--kills 3] [--bursts 6] [--locks 2]
 *     [--lock-s 6] [--lease-ms 5000] [--converge-s 120] [--coalesce-ms 3000] [--poll-ms 1000]
 *     [--handoff-wait-s 5] [--mail-poll-s 2]
 * A run takes about two minutes with the defaults; raise --webhooks, --seconds, --kills and
 * --bursts for a longer one. SQLite file by default; with TEST_POSTGRES_URL (a PostgreSQL server
 * URL, see testkit/postgres-setup.ts) each run gets a new PostgreSQL database instead.
 *
 * The app runs as in production: its production build on a real HTTP server in its own process
 * (testkit/app-server-process.ts) with its background work on, the live worker inside it
 * (LIVE_WORKER default) or, in the second mode, in an `npm run worker` process beside it
 * (LIVE_WORKER=separate). This process plays Shopify (the fake Admin API as the store) and the
 * service (the emulator, Personal limits). The shop is installed and fully synced first; then,
 * in each mode, a stream of signed products/update deliveries, each after a real change of its
 * product in the store, while the service answers 5xx and 429 (retryAfter 2 s) in bursts and
 * drops connections (`POST /__emulator/faults`), and the app process (and the worker) is killed
 * with SIGKILL and started again. On SQLite another process (python3's sqlite3) also takes the
 * database's write lock, after the last kill (a restart would clear a wedge), and holds it for
 * --lock-s seconds (longer than the app's 3 s busy wait, BUSY_TIMEOUT_MS, so writes fail while it
 * lasts); when it lets go, an app/scopes_update (a flow that writes in a transaction) is delivered, and it and
 * every later delivery must be answered: nothing may stay wedged. A delivery not answered 2xx is sent again, the same body and
 * webhook id, as Shopify retries. Reconciliation is off (RECONCILE_EVERY_HOURS=0): it would hide a
 * lost change. LIVE_LEASE_MS is 5 s instead of 60 s so that a killed worker's shops are free
 * again within the drill. --coalesce-ms, --poll-ms, --handoff-wait-s and --mail-poll-s set
 * LIVE_COALESCE_MS, LIVE_POLL_MS, HANDOFF_MAIL_WAIT_SECONDS and MAIL_POLL_SECONDS (by default
 * the app's own, but a 5 s handoff wait); a test sets them short, as the waits they make are not
 * what it tests.
 *
 * Notification emails ride the same faults. The shop's service webhook is registered as Settings
 * does it (installShop saves the keys), and the mail server is a mail sink (dev/mail-sink) in this
 * process. Interleaved with the deliveries, --shoppers shoppers per mode ask the emulator's chat
 * for a person and fill the contact form; the service's deliveries of their events to the app
 * fail while it is down (or the database locked), and the drill runs the emulator's retries
 * every few seconds while the app is up (the service retries over hours; its 5 attempts would run
 * out if run at once). The mail sink is stopped from 35 % of the stream until a send has failed and
 * 62 % has passed, a stretch that spans a kill, and started again on its port. Each contact
 * request owes its merchant one email: owed ones never received are lost (exit 1); extra copies
 * of one Message-ID are duplicates, at most one per sender killed (or claim outlasted, logged)
 * while it sent (docs/service-events.md), more is a failure too. A request to talk to a person whose form came
 * after HANDOFF_MAIL_WAIT_SECONDS (--handoff-wait-s) has an email of its own, by design: counted
 * apart.
 *
 * Printed per mode, once the stream has ended and the app is left alone (bursts not yet met by a
 * write still fire then): the outbox (rows
 * left), the index against the store (products that differ), changes lost (products changed in
 * the drill whose indexed content is not the store's), duplicate sends (items in write requests
 * the service had already acknowledged with the same content), webhook answers other than 2xx,
 * and the time from the last delivery until the outbox is empty and the index equals the store.
 *
 * The same figures as an operator sees them: the drill scrapes GET /metrics (METRICS_TOKEN) of
 * the app server and of the worker (WORKER_PORT) every 2 s, right before each kill and at the end
 * (testkit/prometheus-text.ts), sums each counter over the processes' lives as Prometheus does
 * over restarts, and prints the outbox (depth, oldest change's age), webhook deliveries by
 * outcome, 429 waits, full syncs by outcome and leases taken over beside what it reads itself
 * (the database, its own answers, the service's request log); the run fails (exit 1) when two
 * readings disagree. A kill may end a process after its last scrape with a request or two
 * answered: the counters may fall short by that many (the slack printed), the outbox may not.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { FaultSpec } from "../dev/emulator/server";
import { startMailSink, type RunningMailSink } from "../dev/mail-sink/server";
import {
  ACCOUNT,
  expectedProducts,
  indexableProduct,
  indexedProducts,
  installShop,
  PUBLISHABLE_KEY,
  SHOP,
  startLiveServices,
  WORKSPACE,
} from "../testkit/live-stack";
import { onPostgres } from "../testkit/test-database";
import { freePort } from "../testkit/free-port";
import { mailStanding } from "../app/models/notification-mails.server";
import { agreement, ScrapedFigures } from "../testkit/prometheus-text";
import { npmCommand } from "../testkit/npm-command";
import { startAppServer } from "../app/server/app-server";

const { values } = parseArgs({
  options: {
    modes: { type: "string", default: "in-app,separate" },
    products: { type: "string", default: "40" },
    webhooks: { type: "string", default: "150" },
    shoppers: { type: "string", default: "20" },
    seconds: { type: "string", default: "40" },
    kills: { type: "string", default: "3" },
    bursts: { type: "string", default: "6" },
    locks: { type: "string", default: "2" },
    "lock-s": { type: "string", default: "6" },
    "lease-ms": { type: "string", default: "5000" },
    "converge-s": { type: "string", default: "120" },
    "coalesce-ms": { type: "string", default: "3000" },
    "poll-ms": { type: "string", default: "1000" },
    "handoff-wait-s": { type: "string", default: "5" },
    "mail-poll-s": { type: "string", default: "2" },
  },
});
const MODES = values.modes.split(",").map((mode) => {
  if (mode !== "in-app" && mode !== "separate") throw new Error(`--modes: no mode "${mode}"`);
  return mode;
});
const PRODUCTS = Number(values.products);
const WEBHOOKS = Number(values.webhooks);
const SHOPPERS = Number(values.shoppers);
const SECONDS = Number(values.seconds);
const KILLS = Number(values.kills);
const BURSTS = Number(values.bursts);
/** A PostgreSQL database has no file lock to take. */
const LOCKS = onPostgres() ? 0 : Number(values.locks);
const LOCK_SECONDS = Number(values["lock-s"]);
/** What installShop records (testkit/live-stack.ts). */
const SHOP_SCOPES = ["read_products", "read_online_store_pages", "read_inventory"];
const LEASE_MS = Number(values["lease-ms"]);
const CONVERGE_MS = Number(values["converge-s"]) * 1000;
const COALESCE_MS = Number(values["coalesce-ms"]);
const POLL_MS = Number(values["poll-ms"]);
/** Deliveries in flight at once, as Shopify sends several. */
const LANES = 4;
const RESEND_AFTER_MS = 500;
const ROOT = join(import.meta.dirname, "..");
/** The faults a burst injects, in turn, on the service's content writes. */
const BURST_KINDS: { label: string; fault: FaultSpec }[] = [
  { label: "503", fault: { status: 503, count: 4 } },
  { label: "429", fault: { status: 429, retryAfter: 2, count: 3 } },
  { label: "dropped", fault: { disconnect: true, count: 3 } },
  { label: "500", fault: { status: 500, count: 3 } },
];

/** Where the mail outage begins and, once a send has failed, ends: fractions of the stream. */
const MAIL_DOWN_AT = 0.35;
const MAIL_UP_AT = 0.62;
/** How often the service's retries of failed event deliveries are run while the app is up. */
const SERVICE_RETRY_EVERY_MS = 3_000;
const HANDOFF_WAIT_SECONDS = Number(values["handoff-wait-s"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(join(tmpdir(), "fault-drill-"));
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
/** /metrics of the app server and of `npm run worker` (WORKER_PORT), as an operator scrapes them. */
const METRICS_TOKEN = "fault-drill-metrics-token-0123456789";
const workerPort = await freePort();
const metricsUrl = { app: appUrl, worker: `http://127.0.0.1:${workerPort}` };
const SCRAPE_EVERY_MS = 2_000;

// ── The mail server: a mail sink on a fixed port, stopped and started again ──────────────────
const smtpPort = await freePort();
let mailSink: RunningMailSink | null = await startMailSink({ smtpPort });
type CaughtMail = ReturnType<RunningMailSink["messages"]>[number];
/** What the sinks stopped so far caught: a sink started again begins empty. */
const caughtEarlier: CaughtMail[] = [];
const caughtMail = () => [...caughtEarlier, ...(mailSink?.messages() ?? [])];
async function stopMailSink() {
  if (!mailSink) return;
  const sink = mailSink;
  mailSink = null;
  await sink.close();
  caughtEarlier.push(...sink.messages());
}

const services = await startLiveServices({
  products: PRODUCTS,
  logBodies: true,
  appEnvironment: {
    SHOPIFY_APP_URL: appUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "merchant@live-store.test",
    HANDOFF_MAIL_WAIT_SECONDS: String(HANDOFF_WAIT_SECONDS),
    MAIL_RETRY_SECONDS: "0.5",
    // A killed sender's claimed email is free again after 6 s (120 s by default).
    MAIL_LEASE_SECONDS: "6",
    MAIL_POLL_SECONDS: values["mail-poll-s"],
  },
});
const { emulator, shopify, prisma, catalogue } = services;
shopify.state.setApp({ appUrl });

// ── The processes: the app server and `npm run worker`, killed and started again ──────────────
type Role = "app" | "worker";
const ENTRY: Record<Role, { command: string[]; ready: RegExp }> = {
  app: { command: ["--import", "tsx", "testkit/app-server-process.ts"], ready: /listening / },
  worker: { command: npmCommand("worker"), ready: /worker .* started/ },
};
const logs = {
  app: createWriteStream(join(work, "app.log")),
  worker: createWriteStream(join(work, "worker.log")),
};
const trouble: Record<Role, string[]> = { app: [], worker: [] };
/** The senders' "… could not be sent" lines (component mail), both processes together. */
let mailSendsFailed = 0;
/**
 * Emails sent after their claim ran out (MAIL_LEASE_SECONDS, e.g. while another process held the
 * SQLite lock): another sender may have taken and sent them too, the other case of a second copy.
 */
let claimsOutlasted = 0;
/** Every process started, so that none outlives the drill, however it ends. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

function startProcess(role: Role, mode: Mode): Promise<ChildProcess> {
  const child = spawn(process.execPath, ENTRY[role].command, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      BACKGROUND_WORK: "on",
      RECONCILE_EVERY_HOURS: "0",
      LIVE_WORKER: mode,
      LIVE_LEASE_MS: String(LEASE_MS),
      LIVE_COALESCE_MS: String(COALESCE_MS),
      LIVE_POLL_MS: String(POLL_MS),
      METRICS_TOKEN,
      ...(role === "worker" ? { WORKER_PORT: String(workerPort) } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      logs[role].write(text);
      for (const line of text.split("\n")) {
        if (/database is locked|SQLITE_BUSY|Unhandled|uncaught/i.test(line))
          trouble[role].push(line);
        if (/notification email could not be sent/.test(line)) mailSendsFailed += 1;
        if (/notification was sent after its claim ran out/.test(line)) claimsOutlasted += 1;
      }
      output += text;
      if (ENTRY[role].ready.test(output)) resolve(child);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code, signal) => {
      if (signal !== "SIGKILL" && signal !== "SIGTERM") {
        reject(
          new Error(`the ${role} process exited (${code ?? signal}); see ${work}/${role}.log`),
        );
      }
    });
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

// ── What the service acknowledged: duplicate sends ───────────────────────────────────────────
/** kind:id → the content the service last acknowledged for it (a 2xx write). */
const acknowledged = new Map<string, string>();

/** Reads the emulator's request log since the last call: write requests and duplicate items. */
function countWrites() {
  let requests = 0;
  let acknowledgedRequests = 0;
  let items = 0;
  let duplicates = 0;
  let rateLimited = 0;
  for (const request of emulator.state.requests()) {
    const write = /^\/(products|posts)(\/bulk)?$/.exec(request.path);
    // A faulted request is answered before its key is read: it names no account.
    const ours = request.account === ACCOUNT || request.account === undefined;
    // The app's requests answered 429 (the shoppers' chats are this process's, not the app's).
    if (ours && request.status === 429 && !/^\/(chat|__emulator)/.test(request.path)) {
      rateLimited += 1;
    }
    if (!ours || request.method !== "POST" || !write) continue;
    requests += 1;
    if (request.status < 200 || request.status > 299) continue;
    acknowledgedRequests += 1;
    const body = request.body as Record<string, unknown>;
    const sent = write[2] ? ((body.products ?? body.posts ?? body.entities) as unknown[]) : [body];
    for (const item of sent as Record<string, unknown>[]) {
      const key = `${write[1]}:${String(item.id)}`;
      const hash = catalogue.contentHash(item);
      items += 1;
      if (acknowledged.get(key) === hash) duplicates += 1;
      acknowledged.set(key, hash);
    }
  }
  emulator.state.clearRequests();
  return { requests, acknowledgedRequests, items, duplicates, rateLimited };
}

// ── The index against the store ──────────────────────────────────────────────────────────────
async function compareIndex(changed: Set<string>) {
  const expected = await expectedProducts(services);
  const indexed = indexedProducts(services);
  let differences = 0;
  let lost = 0;
  for (const id of new Set([...expected.keys(), ...indexed.keys()])) {
    if (expected.get(id) === indexed.get(id)) continue;
    differences += 1;
    if (changed.has(id)) lost += 1;
  }
  return { differences, lost };
}

/** The outbox's rows; SQLite may refuse a read for a moment while another process commits. */
async function outboxRows(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await prisma.pendingChange.count();
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(100);
    }
  }
}

/** The shop's notification emails still owed; retried like outboxRows. */
async function mailsOwed(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await mailStanding(SHOP)).waiting;
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(100);
    }
  }
}

/** Python's sqlite3 in a process of its own: takes the write lock, writes, holds it, commits. */
const HOLD_LOCK = `
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
db.execute("BEGIN IMMEDIATE")
db.execute('UPDATE "Shop" SET "updatedAt" = "updatedAt"')
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
`;

function holdSqliteLock(): Promise<void> {
  const path = (process.env.DATABASE_URL ?? "").replace(/^file:/, "");
  const holder = spawn("python3", ["-c", HOLD_LOCK, path, String(LOCK_SECONDS)], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) =>
    holder.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`the SQLite lock holder exited with ${code}`)),
    ),
  );
}

// ── Shoppers: a request for a person and its contact form, through the service's chat ────────
async function chat(body: Record<string, unknown>): Promise<void> {
  for (;;) {
    const answer = await fetch(`${emulator.url}/chat`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${PUBLISHABLE_KEY}`,
        "Content-Type": "application/json",
        "X-Workspace-ID": WORKSPACE,
      },
      body: JSON.stringify({ stream: false, ...body }),
    });
    // The account's rate limit counts the shoppers' chats with the app's writes: try again later.
    if (answer.status === 429) {
      await answer.body?.cancel();
      await sleep(Number(answer.headers.get("retry-after") ?? "1") * 1000);
      continue;
    }
    if (!answer.ok) throw new Error(`chat answered ${answer.status}: ${await answer.text()}`);
    await answer.body?.cancel();
    return;
  }
}

const shopperName = (round: number, k: number) => `Shopper ${round}-${String(k).padStart(3, "0")}`;

async function askForAPerson(round: number, k: number): Promise<void> {
  const threadId = `drill_${round}_${k}`;
  await chat({ threadId, message: "Can I talk to a person?" });
  await chat({
    threadId,
    message: "Send",
    offerResponse: {
      domain: "live_agent",
      actionId: "submit",
      formData: {
        name: shopperName(round, k),
        email: `shopper-${round}-${k}@example.com`,
        phone: "",
        message: `Question ${k}`,
      },
    },
  });
}

/** The emails this mode's shoppers caused, against one owed per contact request. */
function countMail(round: number, secondCopiesAllowed: number) {
  // By name, or by address when an entry had no name yet (a handoff email before its form).
  const ours = caughtMail().filter(
    (m) =>
      m.subject.includes(` from Shopper ${round}-`) ||
      m.subject.includes(` from shopper-${round}-`),
  );
  const contactIds = new Map<number, Set<string>>();
  for (const m of ours) {
    const k = /^New contact request from Shopper \d+-(\d+)$/.exec(m.subject);
    if (!k) continue;
    const ids = contactIds.get(Number(k[1])) ?? new Set<string>();
    contactIds.set(Number(k[1]), ids.add(m.messageId));
  }
  const distinct = new Set(ours.map((m) => m.messageId)).size;
  let lost = 0;
  let split = 0;
  for (let k = 0; k < SHOPPERS; k++) {
    const ids = contactIds.get(k)?.size ?? 0;
    if (ids === 0) lost += 1;
    if (ids > 1) split += 1;
  }
  return {
    owed: SHOPPERS,
    received: ours.length,
    distinct,
    handoffMails: ours.filter((m) => m.subject.startsWith("New request to talk to a person"))
      .length,
    lost,
    split,
    duplicates: ours.length - distinct,
    secondCopiesAllowed,
  };
}

// ── One mode: the stream, the faults, the kills; then quiet ──────────────────────────────────
type Mode = "in-app" | "separate";

async function drill(mode: Mode, round: number) {
  const processes: Partial<Record<Role, ChildProcess>> = {};
  /** The app takes the service's deliveries: not while it is down or the database locked. */
  let appListening = false;
  let locksActive = 0;
  const sendsFailedBefore = mailSendsFailed;
  const outlastedBefore = claimsOutlasted;
  const deliveriesBefore = emulator.state.deliveries().length;
  const modeBegan = new Date();
  const figures = new ScrapedFigures(METRICS_TOKEN);
  /** Each process life's name in the figures: app#1, app#2 after a kill, ... */
  const lives: Partial<Record<Role, string>> = {};
  let livesStarted = 0;
  const scrape = (role: Role) => figures.tryScrape(lives[role]!, metricsUrl[role]);
  const start = async (role: Role) => {
    processes[role] = await startProcess(role, mode);
    lives[role] = `${role}#${++livesStarted}`;
    if (role === "app") appListening = true;
  };
  await start("app");
  if (mode === "separate") await start("worker");

  const candidates = Array.from({ length: PRODUCTS }, (_, i) => i).flatMap((i) => {
    try {
      return [indexableProduct(services, i)];
    } catch {
      return [];
    }
  });
  const changed = new Set<string>();
  /** Answers other than 2xx, by status (0: no answer, the app was down or dropped it). */
  const nonOk = new Map<number, number>();
  let delivered = 0;
  const began = performance.now();
  const giveUpAt = began + SECONDS * 1000 + CONVERGE_MS;

  /** Delivery k at its time: a real change of its product, then sent until answered 2xx. */
  const deliver = async (k: number) => {
    const product = candidates[k % candidates.length]!;
    const numeric = product.id.slice(product.id.lastIndexOf("/") + 1);
    const price = (round * 1000 + k + 10).toFixed(2);
    shopify.state.updateProduct(product.id, { variants: [{ index: 0, price }] });
    changed.add(numeric);
    const payload = shopify.state.productWebhookPayload(product.id);
    const webhookId = `drill-${round}-${k}`;
    while (performance.now() < giveUpAt) {
      const answer = await shopify.state.sendWebhook("products/update", payload, { webhookId });
      if (answer.status >= 200 && answer.status < 300) {
        delivered += 1;
        return;
      }
      nonOk.set(answer.status, (nonOk.get(answer.status) ?? 0) + 1);
      await sleep(RESEND_AFTER_MS);
    }
  };
  /** app/scopes_update with the scopes the shop has: changes nothing, in a transaction. */
  let scopesUpdatesAnswered = 0;
  const deliverScopesUpdate = async (webhookId: string) => {
    const payload = {
      id: 1,
      previous: SHOP_SCOPES,
      current: SHOP_SCOPES,
      updated_at: new Date().toISOString(),
    };
    while (performance.now() < giveUpAt) {
      const answer = await shopify.state.sendWebhook("app/scopes_update", payload, { webhookId });
      if (answer.status >= 200 && answer.status < 300) {
        scopesUpdatesAnswered += 1;
        return;
      }
      nonOk.set(answer.status, (nonOk.get(answer.status) ?? 0) + 1);
      await sleep(RESEND_AFTER_MS);
    }
  };
  let next = 0;
  const lane = async () => {
    for (let k = next++; k < WEBHOOKS; k = next++) {
      const due = began + (k * SECONDS * 1000) / WEBHOOKS;
      await sleep(Math.max(0, due - performance.now()));
      await deliver(k);
    }
  };
  /** The shoppers, one after another, spread over the stream like the deliveries. */
  const shoppers = async () => {
    for (let k = 0; k < SHOPPERS; k++) {
      const due = began + ((k + 0.5) * SECONDS * 1000) / SHOPPERS;
      await sleep(Math.max(0, due - performance.now()));
      await askForAPerson(round, k);
    }
  };
  let streaming = true;
  let endStream = () => {};
  const streamEnded = new Promise<void>((resolve) => (endStream = resolve));
  /** Waits `ms`, or until the stream ends: the loops that run beside it stop with it. */
  const whileStreaming = (ms: number) => Promise.race([sleep(ms), streamEnded]);
  /** The service's retries of failed event deliveries, run while the app can take them. */
  const serviceRetries = async () => {
    while (streaming) {
      await whileStreaming(SERVICE_RETRY_EVERY_MS);
      if (appListening && locksActive === 0) emulator.state.flushWebhookRetries();
    }
  };
  let mailDownMs = 0;

  /**
   * Bursts, kills and SQLite locks, spread over the stream; a kill takes its process down for a
   * second, a lock is held while the rest goes on.
   */
  const kills: string[] = [];
  let burstsSent = 0;
  const locksHeld: Promise<void>[] = [];
  const chaos = async () => {
    const events = [
      ...Array.from({ length: BURSTS }, (_, i) => ({ at: (i + 0.5) / BURSTS, kind: "burst", i })),
      ...Array.from({ length: LOCKS }, (_, i) => ({
        at: 0.82 + (0.15 * i) / LOCKS,
        kind: "lock",
        i,
      })),
      ...Array.from({ length: KILLS }, (_, i) => ({
        at: (i + 0.7) / (KILLS + 0.4),
        kind: "kill",
        i,
      })),
      ...(SHOPPERS > 0
        ? [
            { at: MAIL_DOWN_AT, kind: "mail-down", i: 0 },
            { at: MAIL_UP_AT, kind: "mail-up", i: 0 },
          ]
        : []),
    ].sort((a, b) => a.at - b.at);
    let mailDownAt = 0;
    let failedBefore = 0;
    for (const event of events) {
      await sleep(Math.max(0, began + event.at * SECONDS * 1000 - performance.now()));
      if (event.kind === "burst") {
        const { fault } = BURST_KINDS[event.i % BURST_KINDS.length]!;
        const answer = await fetch(`${emulator.url}/__emulator/faults`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...fault, match: { method: "POST", path: "/products" } }),
        });
        if (!answer.ok) throw new Error(`the emulator refused a fault: ${answer.status}`);
        burstsSent += 1;
        continue;
      }
      if (event.kind === "lock") {
        locksActive += 1;
        locksHeld.push(
          holdSqliteLock()
            .finally(() => (locksActive -= 1))
            .then(() => deliverScopesUpdate(`drill-${round}-scopes-${event.i}`)),
        );
        continue;
      }
      if (event.kind === "mail-down") {
        failedBefore = mailSendsFailed;
        mailDownAt = performance.now();
        await stopMailSink();
        continue;
      }
      if (event.kind === "mail-up") {
        // Not before a send has met the outage (bounded: with no shopper due, none may).
        const until = performance.now() + 20_000;
        while (mailSendsFailed === failedBefore && performance.now() < until) await sleep(100);
        mailSink = await startMailSink({ smtpPort });
        mailDownMs = performance.now() - mailDownAt;
        continue;
      }
      // With a separate worker: the app, then the worker, then both at once, in turn.
      const victims: Role[] =
        mode === "in-app"
          ? ["app"]
          : ([["app"], ["worker"], ["app", "worker"]] as Role[][])[event.i % 3]!;
      if (victims.includes("app")) appListening = false;
      // The last scrape of these lives: what they counted until now.
      const alive = victims.map((role) => lives[role]);
      for (const role of victims) await scrape(role);
      for (const role of victims) await exited(processes[role]!, "SIGKILL");
      for (const role of victims)
        if (lives[role] === alive[victims.indexOf(role)]) lives[role] = undefined;
      kills.push(victims.join("+"));
      await sleep(1000);
      for (const role of victims) await start(role);
    }
  };

  const retrying = serviceRetries();
  /** /metrics every few seconds, as Prometheus would: a failed scrape keeps the earlier one. */
  const scraping = (async () => {
    while (streaming) {
      await whileStreaming(SCRAPE_EVERY_MS);
      for (const role of ["app", "worker"] as const) if (lives[role]) await scrape(role);
    }
  })();
  await Promise.all([...Array.from({ length: LANES }, lane), shoppers(), chaos()]);
  await Promise.all(locksHeld);
  streaming = false;
  endStream();
  await retrying;
  await scraping;
  const quietSince = performance.now();

  /** The service's deliveries still to succeed; those it gave up on (5 attempts) are lost to it. */
  const deliveriesOpen = () =>
    emulator.state.deliveries().filter((d) => d.state === "pending" || d.state === "delivering")
      .length;
  let convergedMs = NaN;
  let lastRetries = 0;
  while (performance.now() < quietSince + CONVERGE_MS) {
    if (performance.now() - lastRetries > 1000) {
      emulator.state.flushWebhookRetries();
      lastRetries = performance.now();
    }
    if (
      (await outboxRows()) === 0 &&
      (await compareIndex(changed)).differences === 0 &&
      deliveriesOpen() === 0 &&
      (await mailsOwed()) === 0 &&
      countMail(round, 0).lost === 0
    ) {
      convergedMs = performance.now() - quietSince;
      break;
    }
    await sleep(100);
  }
  const serviceDeliveries = emulator.state.deliveries().slice(deliveriesBefore);
  const deliveriesGivenUp = serviceDeliveries.filter((d) => d.state === "failed").length;
  const mailsLeft = await mailsOwed();
  const killedSenders = kills.reduce((sum, kill) => sum + kill.split("+").length, 0);
  const outlasted = claimsOutlasted - outlastedBefore;
  // Faults a burst injected that no write met (the app sent nothing more) are taken back now.
  const faultsLeft = emulator.state.faults().reduce((sum, fault) => sum + fault.remaining, 0);
  const faultsInjected = burstsInjected(burstsSent);
  emulator.state.clearFaults();
  const outbox = await outboxRows();
  const index = await compareIndex(changed);
  const writes = countWrites();
  // The last scrape of every process, after the outbox was read (nothing changes it now).
  const scraped: Record<Role, boolean> = { app: false, worker: false };
  for (const role of ["app", "worker"] as const) {
    for (let attempt = 0; lives[role] && !scraped[role] && attempt < 10; attempt++) {
      scraped[role] = await scrape(role);
      if (!scraped[role]) await sleep(500);
    }
  }
  const runsFinished = await prisma.syncRun.groupBy({
    by: ["state"],
    where: { finishedAt: { gte: modeBegan } },
    _count: true,
  });
  const appKills = kills.filter((kill) => kill.includes("app")).length;
  for (const role of ["worker", "app"] as const) {
    if (processes[role]) await exited(processes[role], "SIGTERM");
  }
  return {
    mode,
    outbox,
    ...index,
    ...writes,
    changed: changed.size,
    delivered,
    nonOk,
    convergedMs,
    kills,
    locks: locksHeld.length,
    scopesUpdatesAnswered,
    mail: countMail(round, killedSenders + outlasted),
    killedSenders,
    outlasted,
    mailsLeft,
    mailDownMs,
    mailSendsFailed: mailSendsFailed - sendsFailedBefore,
    serviceDeliveries: serviceDeliveries.length,
    deliveriesGivenUp,
    faultsFired: faultsInjected - faultsLeft,
    faultsInjected,
    operator: {
      scraped,
      figures,
      lastApp: lives.app!,
      appKills,
      senderKills: killedSenders,
      runsFinished: Object.fromEntries(runsFinished.map((run) => [run.state, run._count])),
    },
  };
}

/**
 * The figures of /metrics beside the drill's own readings of them, printed; false when two
 * disagree (beyond what a kill after the last scrape explains).
 */
function printOperatorFigures(r: Awaited<ReturnType<typeof drill>>, pad: string): boolean {
  const { figures, lastApp, scraped } = r.operator;
  if (!scraped.app || (r.mode === "separate" && !scraped.worker)) {
    console.log(
      `${pad}  /metrics: the last scrape FAILED (app ${scraped.app}, worker ${scraped.worker})`,
    );
    return false;
  }
  const outboxGauge = figures.latest(lastApp, "catalog_chat_outbox_changes");
  const oldest = figures.latest(lastApp, "catalog_chat_outbox_oldest_change_age_seconds");
  const deliveries = "catalog_chat_webhook_deliveries_total";
  const accepted = figures.counter(deliveries, { outcome: "accepted" });
  const failed = figures.counter(deliveries, { outcome: "failed" });
  const answered2xx = r.delivered + r.scopesUpdatesAnswered;
  const answered5xx = [...r.nonOk]
    .filter(([status]) => status >= 500)
    .reduce((s, [, n]) => s + n, 0);
  const waits = figures.counter("catalog_chat_service_rate_limited_waits_total");
  const syncs = "catalog_chat_full_syncs_total";
  // Deliveries in flight at a kill may be answered after the last scrape of the killed life.
  const inFlight = (LANES + LOCKS) * r.operator.appKills;
  const checks = {
    outbox: agreement(outboxGauge, r.outbox),
    oldest: agreement(oldest === 0 ? 0 : 1, r.outbox === 0 ? 0 : 1),
    accepted: agreement(accepted, answered2xx, inFlight),
    failed: agreement(failed, answered5xx, inFlight),
    waits: agreement(waits, r.rateLimited, r.operator.senderKills),
    succeeded: agreement(
      figures.counter(syncs, { outcome: "succeeded" }),
      r.operator.runsFinished.succeeded ?? 0,
      r.operator.senderKills,
    ),
    syncsFailed: agreement(
      figures.counter(syncs, { outcome: "failed" }),
      r.operator.runsFinished.failed ?? 0,
      r.operator.senderKills,
    ),
  };
  console.log(
    `${pad}  /metrics (scraped as an operator, summed over the processes' lives; vs the drill's own reading): ` +
      `outbox ${checks.outbox.text} rows, oldest change ${oldest.toFixed(1)} s (${checks.oldest.agrees ? "0 iff the outbox is empty" : "DISAGREES with the outbox"}); ` +
      `webhook deliveries accepted ${checks.accepted.text}, failed (5xx) ${checks.failed.text}, ` +
      `unauthorized ${figures.counter(deliveries, { outcome: "unauthorized" })}, refused ${figures.counter(deliveries, { outcome: "refused" })}`,
  );
  console.log(
    `${pad}  /metrics: 429 waits ${checks.waits.text} (the service's 429 answers to the app), ` +
      `${figures.counter("catalog_chat_service_rate_limited_wait_seconds_total").toFixed(0)} s waited; ` +
      `full syncs succeeded ${checks.succeeded.text}, failed ${checks.syncsFailed.text} (runs finished in the database); ` +
      `leases taken over ${figures.counter("catalog_chat_leases_taken_over_total")}; ` +
      `items sent ${figures.counter("catalog_chat_items_total", { outcome: "sent" })}, ` +
      `left out ${figures.counter("catalog_chat_items_total", { outcome: "refused" }) + figures.counter("catalog_chat_items_total", { outcome: "over_quota" })}; ` +
      `mails sent ${figures.counter("catalog_chat_notification_mails_total", { outcome: "sent" })}, failed ${figures.counter("catalog_chat_notification_mails_total", { outcome: "failed" })}`,
  );
  return Object.values(checks).every((check) => check.agrees);
}

/** The requests the first `bursts` bursts fault, together. */
function burstsInjected(bursts: number): number {
  let total = 0;
  for (let i = 0; i < bursts; i++) total += BURST_KINDS[i % BURST_KINDS.length]!.fault.count ?? 1;
  return total;
}

// ── The drill ─────────────────────────────────────────────────────────────────────────────────
let failed = false;
try {
  // An app server in this process takes the first sync's bulk_operations/finish webhooks, which
  // would otherwise find nobody at the app's URL and leave the sync to wait out their grace.
  const installer = await startAppServer({ port });
  try {
    await installShop(services);
  } finally {
    await installer.close();
  }
  // Saving the keys registered the shop's service webhook, as Settings does: its events reach the app.
  const hook = await prisma.serviceWebhook.findUnique({ where: { shopDomain: SHOP } });
  if (!hook?.webhookId || !hook.url?.startsWith(appUrl))
    throw new Error(`the shop's service webhook is not registered at ${appUrl}`);
  countWrites(); // the first sync: what the service holds before the drill
  console.log(
    `Fault drill: ${PRODUCTS} products; per mode ${WEBHOOKS} products/update deliveries over ${SECONDS} s ` +
      `(${LANES} in flight), ${BURSTS} fault bursts on the service's writes (${BURST_KINDS.map((b) => b.label).join(", ")} in turn), ` +
      `${KILLS} kill -9, ${LOCKS} SQLite write locks of ${LOCK_SECONDS} s by another process; ` +
      `${SHOPPERS} shoppers' contact requests through the service's chat, the mail server down from ${MAIL_DOWN_AT * 100} % of the stream until a send failed and ${MAIL_UP_AT * 100} % passed; Personal limits; ${onPostgres() ? "PostgreSQL" : "SQLite file"}; LIVE_LEASE_MS ${LEASE_MS}, LIVE_COALESCE_MS ${COALESCE_MS}, LIVE_POLL_MS ${POLL_MS}, MAIL_POLL_SECONDS ${values["mail-poll-s"]}; logs in ${work}`,
  );
  for (const [round, mode] of MODES.entries()) {
    const r = await drill(mode, round + 1);
    const seconds = Number.isNaN(r.convergedMs)
      ? `not within ${CONVERGE_MS / 1000} s`
      : `${(r.convergedMs / 1000).toFixed(1)} s`;
    const label = mode === "in-app" ? "in-app worker " : "separate worker";
    const pad = " ".repeat(label.length + 2);
    console.log(
      `  ${label}  outbox empty: ${r.outbox === 0 ? "yes" : "NO"} (${r.outbox} rows left); ` +
        `index equals store: ${r.differences === 0 ? "yes" : "NO"} (${r.differences} differences); ` +
        `changes lost ${r.lost} of ${r.changed} products changed (must be 0)`,
    );
    const nonOk = [...r.nonOk.values()].reduce((sum, n) => sum + n, 0);
    const byStatus = [...r.nonOk.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n} ${status === 0 ? "unanswered" : `answered ${status}`}`)
      .join(", ");
    console.log(
      `${pad}  duplicate sends ${r.duplicates} (items sent again after the service acknowledged them; ` +
        `${r.items} items in ${r.acknowledgedRequests} acknowledged write requests, ${r.requests} in all)`,
    );
    console.log(
      `${pad}  webhooks answered non-2xx ${nonOk}${byStatus ? ` (${byStatus})` : ""}, each sent again until ` +
        `answered: ${r.delivered} of ${WEBHOOKS} delivered`,
    );
    console.log(
      `${pad}  faults met ${r.faultsFired} of ${r.faultsInjected} injected; kill -9: ${r.kills.join(", ") || "none"}; ` +
        `SQLite locks held by another process: ${r.locks}, app/scopes_update after each answered: ${r.scopesUpdatesAnswered} of ${r.locks}`,
    );
    const m = r.mail;
    console.log(
      `${pad}  notifications owed ${m.owed} (one per contact request), emails received ${m.received}, ` +
        `distinct Message-IDs ${m.distinct}${m.handoffMails > 0 ? ` (${m.handoffMails} for a request to talk to a person whose form came after the ${HANDOFF_WAIT_SECONDS} s wait, as designed)` : ""}`,
    );
    console.log(
      `${pad}  notifications lost ${m.lost} (owed, never received; must be 0); duplicates ${m.duplicates} ` +
        `(extra copies of one Message-ID; at most one per sender killed or claim outlasted: ${r.killedSenders} killed, ${r.outlasted} outlasted); ` +
        `contact requests mailed as two different emails ${m.split}`,
    );
    console.log(
      `${pad}  mail server down ${(r.mailDownMs / 1000).toFixed(1)} s, ${r.mailSendsFailed} sends failed; ` +
        `emails still owed ${r.mailsLeft}; service event deliveries ${r.serviceDeliveries}, given up after 5 attempts ${r.deliveriesGivenUp}`,
    );
    console.log(`${pad}  converged ${seconds} after the last delivery`);
    if (!printOperatorFigures(r, pad)) failed = true;
    if (r.lost > 0 || r.differences > 0 || r.delivered < WEBHOOKS) failed = true;
    if (m.lost > 0 || m.split > 0 || m.duplicates > m.secondCopiesAllowed) failed = true;
    if (r.mailsLeft > 0 || r.deliveriesGivenUp > 0) failed = true;
    if (r.scopesUpdatesAnswered < r.locks) failed = true;
  }
  for (const role of ["app", "worker"] as const) {
    if (trouble[role].length > 0) {
      console.log(
        `  ${role} log: ${trouble[role].length} lines of trouble, first: ${trouble[role][0]}`,
      );
    }
  }
} finally {
  await stopMailSink();
  await services.close();
  await prisma.$disconnect();
  logs.app.end();
  logs.worker.end();
}
if (failed) process.exitCode = 1;
