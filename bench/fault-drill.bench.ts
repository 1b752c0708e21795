/**
 * The standing fault drill (printed; exits 1 when a change was lost or the index differs from the
 * store in the end):
 *   npm run build && npx tsx bench/fault-drill.bench.ts [--modes in-app,separate] [--products 40]
 *     [--webhooks 150] [--seconds 40] [--kills 3] [--bursts 6] [--locks 2] [--lock-s 6]
 *     [--lease-ms 5000] [--converge-s 120]
 * A run takes about two minutes with the defaults; raise --webhooks, --seconds, --kills and
 * --bursts for a longer one. SQLite file by default; with TEST_POSTGRES_URL (a PostgreSQL server
 * URL, see test/support/postgres-setup.ts) each run gets a new PostgreSQL database instead.
 *
 * The app runs as in production: its production build on a real HTTP server in its own process
 * (test/support/app-server-process.ts) with its background work on, the live worker inside it
 * (LIVE_WORKER default) or, in the second mode, in an `npm run worker` process beside it
 * (LIVE_WORKER=separate). This process plays Shopify (the fake Admin API as the store) and the
 * service (the emulator, Personal limits). The shop is installed and fully synced first; then,
 * in each mode, a stream of signed products/update deliveries, each after a real change of its
 * product in the store, while the service answers 5xx and 429 (retryAfter 2 s) in bursts and
 * drops connections (`POST /__emulator/faults`), and the app process (and the worker) is killed
 * with SIGKILL and started again. On SQLite another process (python3's sqlite3) also takes the
 * database's write lock, after the last kill (a restart would clear a wedge), and holds it for
 * --lock-s seconds (longer than the app's 5 s busy timeout, so writes fail while it lasts); when
 * it lets go, an app/scopes_update (a flow that writes in a transaction) is delivered, and it and
 * every later delivery must be answered: nothing may stay wedged. A delivery not answered 2xx is sent again, the same body and
 * webhook id, as Shopify retries. Reconciliation is off (RECONCILE_EVERY_HOURS=0): it would hide a
 * lost change. LIVE_LEASE_MS is 5 s instead of 60 s so that a killed worker's shops are free
 * again within the drill.
 *
 * Printed per mode, once the stream has ended and the app is left alone (bursts not yet met by a
 * write still fire then): the outbox (rows
 * left), the index against the store (products that differ), changes lost (products changed in
 * the drill whose indexed content is not the store's), duplicate sends (items in write requests
 * the service had already acknowledged with the same content), webhook answers other than 2xx,
 * and the time from the last delivery until the outbox is empty and the index equals the store.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { FaultSpec } from "../dev/emulator/server";
import {
  ACCOUNT,
  expectedProducts,
  indexableProduct,
  indexedProducts,
  installShop,
  startLiveServices,
} from "../test/live/harness";
import { onPostgres } from "../test/support/test-database";
import { freePort } from "../test/support/free-port";

const { values } = parseArgs({
  options: {
    modes: { type: "string", default: "in-app,separate" },
    products: { type: "string", default: "40" },
    webhooks: { type: "string", default: "150" },
    seconds: { type: "string", default: "40" },
    kills: { type: "string", default: "3" },
    bursts: { type: "string", default: "6" },
    locks: { type: "string", default: "2" },
    "lock-s": { type: "string", default: "6" },
    "lease-ms": { type: "string", default: "5000" },
    "converge-s": { type: "string", default: "120" },
  },
});
const MODES = values.modes.split(",").map((mode) => {
  if (mode !== "in-app" && mode !== "separate") throw new Error(`--modes: no mode "${mode}"`);
  return mode;
});
const PRODUCTS = Number(values.products);
const WEBHOOKS = Number(values.webhooks);
const SECONDS = Number(values.seconds);
const KILLS = Number(values.kills);
const BURSTS = Number(values.bursts);
/** A PostgreSQL database has no file lock to take. */
const LOCKS = onPostgres() ? 0 : Number(values.locks);
const LOCK_SECONDS = Number(values["lock-s"]);
/** What installShop records (test/live/harness.ts). */
const SHOP_SCOPES = ["read_products", "read_online_store_pages", "read_inventory"];
const LEASE_MS = Number(values["lease-ms"]);
const CONVERGE_MS = Number(values["converge-s"]) * 1000;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(join(tmpdir(), "fault-drill-"));
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const services = await startLiveServices({
  products: PRODUCTS,
  logBodies: true,
  appEnvironment: { SHOPIFY_APP_URL: appUrl },
});
const { emulator, shopify, prisma, catalog } = services;
shopify.state.setApp({ appUrl });

// ── The processes: the app server and `npm run worker`, killed and started again ──────────────
type Role = "app" | "worker";
const ENTRY: Record<Role, { script: string; ready: RegExp }> = {
  app: { script: "test/support/app-server-process.ts", ready: /listening / },
  worker: { script: "app/cli/worker.ts", ready: /worker .* started/ },
};
const logs = {
  app: createWriteStream(join(work, "app.log")),
  worker: createWriteStream(join(work, "worker.log")),
};
const trouble: Record<Role, string[]> = { app: [], worker: [] };
/** Every process started, so that none outlives the drill, however it ends. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

function startProcess(role: Role, mode: Mode): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY[role].script], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      BACKGROUND_WORK: "on",
      RECONCILE_EVERY_HOURS: "0",
      LIVE_WORKER: mode,
      LIVE_LEASE_MS: String(LEASE_MS),
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
  for (const request of emulator.state.requests()) {
    const write = /^\/(products|posts)(\/bulk)?$/.exec(request.path);
    // A faulted request is answered before its key is read: it names no account.
    const ours = request.account === ACCOUNT || request.account === undefined;
    if (!ours || request.method !== "POST" || !write) continue;
    requests += 1;
    if (request.status < 200 || request.status > 299) continue;
    acknowledgedRequests += 1;
    const body = request.body as Record<string, unknown>;
    const sent = write[2] ? ((body.products ?? body.posts ?? body.entities) as unknown[]) : [body];
    for (const item of sent as Record<string, unknown>[]) {
      const key = `${write[1]}:${String(item.id)}`;
      const hash = catalog.contentHash(item);
      items += 1;
      if (acknowledged.get(key) === hash) duplicates += 1;
      acknowledged.set(key, hash);
    }
  }
  emulator.state.clearRequests();
  return { requests, acknowledgedRequests, items, duplicates };
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

// ── One mode: the stream, the faults, the kills; then quiet ──────────────────────────────────
type Mode = "in-app" | "separate";

async function drill(mode: Mode, round: number) {
  const processes: Partial<Record<Role, ChildProcess>> = {};
  const start = async (role: Role) => (processes[role] = await startProcess(role, mode));
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
    ].sort((a, b) => a.at - b.at);
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
        locksHeld.push(
          holdSqliteLock().then(() => deliverScopesUpdate(`drill-${round}-scopes-${event.i}`)),
        );
        continue;
      }
      // With a separate worker: the app, then the worker, then both at once, in turn.
      const victims: Role[] =
        mode === "in-app"
          ? ["app"]
          : ([["app"], ["worker"], ["app", "worker"]] as Role[][])[event.i % 3]!;
      for (const role of victims) await exited(processes[role]!, "SIGKILL");
      kills.push(victims.join("+"));
      await sleep(1000);
      for (const role of victims) await start(role);
    }
  };

  await Promise.all([...Array.from({ length: LANES }, lane), chaos()]);
  await Promise.all(locksHeld);
  const streamEnded = performance.now();

  let convergedMs = NaN;
  while (performance.now() < streamEnded + CONVERGE_MS) {
    if ((await outboxRows()) === 0 && (await compareIndex(changed)).differences === 0) {
      convergedMs = performance.now() - streamEnded;
      break;
    }
    await sleep(100);
  }
  // Faults a burst injected that no write met (the app sent nothing more) are taken back now.
  const faultsLeft = emulator.state.faults().reduce((sum, fault) => sum + fault.remaining, 0);
  const faultsInjected = burstsInjected(burstsSent);
  emulator.state.clearFaults();
  const outbox = await outboxRows();
  const index = await compareIndex(changed);
  const writes = countWrites();
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
    faultsFired: faultsInjected - faultsLeft,
    faultsInjected,
  };
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
  await installShop(services);
  countWrites(); // the first sync: what the service holds before the drill
  console.log(
    `Fault drill: ${PRODUCTS} products; per mode ${WEBHOOKS} products/update deliveries over ${SECONDS} s ` +
      `(${LANES} in flight), ${BURSTS} fault bursts on the service's writes (${BURST_KINDS.map((b) => b.label).join(", ")} in turn), ` +
      `${KILLS} kill -9, ${LOCKS} SQLite write locks of ${LOCK_SECONDS} s by another process; Personal limits; ${onPostgres() ? "PostgreSQL" : "SQLite file"}; LIVE_LEASE_MS ${LEASE_MS}; logs in ${work}`,
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
    console.log(`${pad}  converged ${seconds} after the last delivery`);
    if (r.lost > 0 || r.differences > 0 || r.delivered < WEBHOOKS) failed = true;
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
  await services.close();
  await prisma.$disconnect();
  logs.app.end();
  logs.worker.end();
}
if (failed) process.exitCode = 1;
