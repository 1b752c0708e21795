/**
 * What one delivered change costs the live worker (issue 28, item 4), printed, never asserted:
 *   npm run build && npx tsx bench/worker-statements.bench.ts [--baseline <checkout>]
 *     [--single 20] [--batches 3] [--products 150] [--postgres cluster|''|<server url>]
 *     [--presences sample|primary-only]
 *
 * `--baseline`: another checkout with `npm ci` and `npm run build` done (main's build, say); its
 * app runs the same phases in the same run, before this checkout's, so both are printed side by
 * side. `--presences`: where the fake store sells ("sample", the default: besides the primary
 * domain, a French market on a domain of its own, whose workspace each change also goes to;
 * "primary-only": the primary domain alone). The app of each build runs from its own checkout (its production build behind a real
 * HTTP server, `NODE_ENV=production`, the shop's offline session read by the Shopify library as
 * in production, the live worker inside on its defaults, background work otherwise off); this
 * process plays Shopify (the fake Admin API with one generated store) and the service (the
 * emulator). Each build gets a new SQLite file and a new PostgreSQL database (a throwaway cluster
 * with fsync on unless `--postgres` names a server; `''`: SQLite only).
 *
 * Two phases, each a real change in the fake store (a variant's price) followed by the
 * `products/update` Shopify sends for it:
 * - one at a time (`--single` changes): each change waits until the index shows it and the
 *   outbox is empty before the next is made, so each travels in a batch of its own (the worker
 *   on its default 3 s coalescing window);
 * - batches of 100 (`--batches` of them): 100 products changed and delivered one after another,
 *   then the index and outbox waited for; the worker runs with a coalescing window of 10 min, so
 *   only a full batch starts a pass and every batch holds exactly 100.
 *
 * Counted in the app's process: every SQL statement it sends (node-postgres `Client.query`,
 * libSQL `prepare`/`exec`, BEGIN and COMMIT included), by text, and its CPU (user + system from
 * /proc), and apart the CPU it spends a second with nothing to do (5 s measured before each
 * phase: the poll, timers), so that "beyond idle" is what the changes cost; and, where the build
 * counts it (`live_worker_cpu_seconds_total`), the process's CPU while its live worker served the
 * shop, per change applied: the worker's own, without the idle seconds between changes, nor the
 * process's CPU while a pass waited out Shopify's bucket (its re-read of a batch of 100 asks far
 * more points than the bucket holds) or the service's window.
 * Deliveries go one after another, so the intake writes each alone; the figures do not
 * depend on timing. Printed per change: the intake's statements (the shop check, the change, the
 * receipt), the worker's (everything else), and apart what the worker does by the clock whatever
 * the changes (the outbox polled every second, the worker's beat every 10 s), which grows with the
 * time a phase takes, not with its changes. Also per change, counted by this process's fakes: the
 * app's requests to Shopify (by operation) and to the service, most of a lone change's CPU
 * (bench/request-cpu.bench.ts). `--show` prints every statement's count per phase.
 * `CPU_PROF=<dir>` makes each app process write a CPU profile there (Node's `--cpu-prof`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { cpuTimeMs } from "./process-cpu";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    single: { type: "string", default: "20" },
    batches: { type: "string", default: "3" },
    products: { type: "string", default: "150" },
    postgres: { type: "string", default: "cluster" },
    presences: { type: "string", default: "sample" },
    show: { type: "boolean", default: false },
    role: { type: "string", default: "driver" },
    root: { type: "string" },
    install: { type: "boolean", default: false },
  },
});
if (!["sample", "primary-only"].includes(values.presences)) {
  throw new Error(`--presences is "sample" or "primary-only", not "${values.presences}"`);
}
/** `CPU_PROF=<dir>`: each app process writes a CPU profile there. */
const cpuProfile = process.env.CPU_PROF
  ? ["--cpu-prof", "--cpu-prof-dir", process.env.CPU_PROF]
  : [];

const SHOP = "statements-store.myshopify.com";
const DOMAIN = "statements-store.example.com";
const WORKSPACE = "statements-store-example-com";
const API_SECRET = "bench-app-secret";
const KEY = "svc_sk_bench_statements";
const PUBLISHABLE = "svc_pk_bench_statements";
const BATCH = 100;

/** Statements the worker sends by the clock, not per change: the poll and the beat. */
const CLOCK_STATEMENTS = [
  // The poll in one statement (outboxBacklogs, decision 0054); before, two.
  /^SELECT 'change' AS "kind", "shopDomain", SUM\(CASE WHEN "lastError" LIKE/,
  /^SELECT "shopDomain", SUM\(CASE WHEN "lastError" LIKE/,
  /^SELECT "shopDomain", MIN\("receivedAt"\) AS "oldest" FROM "PendingLookup"/,
  /^INSERT INTO "LiveWorkerBeat"/,
  /^DELETE FROM "LiveWorkerBeat"/,
];
/** The intake's statements (app/models/outbox.server.ts, recordProductDeliveries). */
const INTAKE_STATEMENTS = [
  /^SELECT 'shop' AS "kind", "shopDomain" AS "key" FROM "Shop"/,
  // Its change, written with the payload's fingerprint (a lookup's products are written with NULL).
  /^INSERT INTO "PendingChange" .*, 0, (\?|\$\d+)\)/,
  /^INSERT INTO "WebhookReceipt"/,
];

if (values.role === "app") await runApp();
else await drive();

// ── The app of one build, in its own process, counting what it sends to the database ─────────
async function runApp() {
  const root = resolve(values.root ?? ".");
  const counts = countStatements(root);
  const at = (path: string) => import(pathToFileURL(join(root, path)).href);
  // The shop's host to the fake store before the Shopify library is loaded (it keeps its fetch).
  const { routeShopHosts } = (await at(
    "testkit/shop-hosts.ts",
  )) as typeof import("../testkit/shop-hosts");
  routeShopHosts({ [SHOP]: process.env.BENCH_FAKE_SHOPIFY_URL! });
  const { connectShop, raiseProductQuota, serveAppRole } = (await at(
    "testkit/app-role.ts",
  )) as typeof import("../testkit/app-role");
  const { startLiveWorker } = (await at(
    "app/sync/live/worker.server.ts",
  )) as typeof import("../app/sync/live/worker.server");
  const prisma = ((await at("app/models/db.server.ts")) as typeof import("../app/models/db.server"))
    .default;
  const scopes = "read_products,read_online_store_pages,read_inventory";
  await serveAppRole({
    // Installed as after OAuth: the offline session the Shopify library reads, as in production.
    ...(values.install
      ? {
          prepare: async () => {
            await prisma.session.create({
              data: {
                id: `offline_${SHOP}`,
                shop: SHOP,
                state: "installed",
                isOnline: false,
                scope: scopes,
                accessToken: process.env.BENCH_ACCESS_TOKEN!,
              },
            });
            await raiseProductQuota(SHOP);
          },
        }
      : {}),
    started: async () => {
      if (values.install) {
        await connectShop(SHOP, scopes, {
          secretKey: KEY,
          publishableKey: PUBLISHABLE,
          workspaceOverride: "",
          syncProducts: true,
          syncPages: false,
          syncArticles: false,
        });
      }
      // Chores once at the start (before anything is counted), then not within the run.
      const worker = startLiveWorker({
        log: () => undefined,
        coalesceMs: Number(process.env.LIVE_COALESCE_MS ?? 3_000),
        maintenanceEveryMs: 24 * 3_600_000,
      });
      return () => worker.stop();
    },
  });
  // The live worker's own counts, where the build has them (`live_worker_cpu_seconds_total`).
  const metrics = (
    (await at("app/server/metrics.ts")) as typeof import("../app/server/metrics")
  ).appMetrics() as Partial<ReturnType<typeof import("../app/server/metrics").appMetrics>>;
  process.on("message", () => {
    void (async () => {
      const served = {
        cpuSeconds: (await metrics.liveWorkerCpuSeconds?.get())?.values[0]?.value,
        changes: (await metrics.liveWorkerChanges?.get())?.values[0]?.value,
      };
      process.send?.({ counts: Object.fromEntries(counts), served });
    })();
  });
}

/** Counts each SQL statement the process sends, by its text (whitespace folded). */
function countStatements(root: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (sql: unknown) => {
    const text = typeof sql === "string" ? sql : ((sql as { text?: string } | null)?.text ?? "");
    const key = text.replace(/\s+/g, " ").trim().slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const load = createRequire(join(root, "package.json"));
  const pg = load("pg") as typeof import("pg");
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    add(args[0]);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const sqlite = (load("libsql") as { prototype: Record<string, (sql: string) => unknown> })
    .prototype;
  for (const method of ["prepare", "exec"] as const) {
    const original = sqlite[method]!;
    sqlite[method] = function (this: unknown, sql: string) {
      add(sql);
      return original.call(this, sql);
    };
  }
  return counts;
}

/** What the app role tells of its live worker's own counts (a build without them: undefined). */
interface Served {
  cpuSeconds?: number;
  changes?: number;
}

// ── The driver ─────────────────────────────────────────────────────────────────────────────────
interface PhaseFigures {
  changes: number;
  /** Changes per batch: 1 one at a time. */
  batch: number;
  intake: number;
  worker: number;
  clock: number;
  cpuMs: number;
  /**
   * The process's CPU while its live worker served the shop, and the changes it applied
   * (`live_worker_cpu_seconds_total`, `live_worker_changes_total`); undefined for a build without
   * them.
   */
  servedCpuMs: number | undefined;
  servedChanges: number | undefined;
  /** The same after the phase's first batch (modules loaded, hot code compiled). */
  servedLater: { cpuMs: number; changes: number } | undefined;
  /** CPU the process spent a second with nothing to do, measured just before the phase. */
  idleMsPerSecond: number;
  seconds: number;
  load: number;
  byText: Map<string, number>;
  /** The app's requests over the phase: Shopify's by operation, the service's by method and path. */
  shopifyRequests: Map<string, number>;
  serviceRequests: Map<string, number>;
}

async function drive() {
  const { requireAppBuild } = await import("../app/server/app-server");
  requireAppBuild();
  const builds = [
    ...(values.baseline ? [{ name: "baseline", root: resolve(values.baseline) }] : []),
    { name: "this", root: resolve(".") },
  ];
  const databases: { name: string; url: () => Promise<string> }[] = [];
  const work = mkdtempSync(join(tmpdir(), "worker-statements-"));
  let files = 0;
  databases.push({ name: "SQLite", url: async () => `file:${join(work, `${++files}.db`)}` });
  const cleanups: (() => Promise<unknown>)[] = [];
  if (values.postgres !== "") {
    let server = values.postgres;
    if (server === "cluster") {
      const { startPostgresCluster } = await import("../testkit/postgres-cluster");
      const cluster = await startPostgresCluster({ durable: true });
      cleanups.push(() => cluster.stop());
      server = cluster.url;
    }
    const { createPostgresDatabase } = await import("../dev/postgres-database");
    databases.push({
      name: "PostgreSQL",
      url: async () => (await createPostgresDatabase(server, "statements")).url,
    });
  }
  const results: { build: string; commit: string; database: string; phases: PhaseFigures[] }[] = [];
  try {
    for (const database of databases) {
      for (const build of builds) {
        const phases = await runBuild(build.root, await database.url());
        const { execFileSync } = await import("node:child_process");
        const commit = execFileSync("git", ["-C", build.root, "rev-parse", "--short", "HEAD"])
          .toString()
          .trim();
        results.push({ build: build.name, commit, database: database.name, phases });
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }

  const single = Number(values.single);
  const batches = Number(values.batches);
  console.log(
    `Worker statements and CPU per delivered products/update (${single} one at a time, then ${batches} batches of ${BATCH}; ` +
      `the store sells on ${values.presences === "primary-only" ? "its primary domain only" : "its primary domain and a French market's domain"}); ` +
      `statements counted in the app's process, CPU its user + system time`,
  );
  const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  const listed = (counts: Map<string, number>) =>
    [...counts]
      .sort(([, a], [, b]) => b - a)
      .map(([name, n]) => `${name} ${n}`)
      .join(", ");
  for (const result of results) {
    for (const phase of result.phases) {
      const name = phase.batch === 1 ? "one at a time" : `batches of ${BATCH}`;
      const per = (n: number) => (n / phase.changes).toFixed(2);
      console.log(
        `  ${result.database.padEnd(10)} ${result.build} (${result.commit}) ${name.padEnd(14)}: ` +
          `${per(phase.intake + phase.worker)} statements per change (intake ${per(phase.intake)}, worker ${per(phase.worker)}); ` +
          `CPU ${(phase.cpuMs / phase.changes).toFixed(1)} ms per change, ` +
          `${((phase.cpuMs - phase.idleMsPerSecond * phase.seconds) / phase.changes).toFixed(1)} beyond idle (${phase.idleMsPerSecond.toFixed(1)} ms a second) (load average ${phase.load.toFixed(1)} on 2 cores); ` +
          `while the worker served the shop ${
            phase.servedCpuMs === undefined || !phase.servedChanges
              ? "— (not counted by this build)"
              : `${(phase.servedCpuMs / phase.servedChanges).toFixed(1)} ms per change applied (${phase.servedChanges} applied)` +
                (phase.servedLater && phase.servedLater.changes > 0
                  ? `, ${(phase.servedLater.cpuMs / phase.servedLater.changes).toFixed(1)} ms after the first ${phase.batch === 1 ? "change" : "batch"}`
                  : "")
          }; ` +
          `by the clock ${phase.clock} statements in ${phase.seconds.toFixed(0)} s; ` +
          `requests per change: Shopify ${per(sum(phase.shopifyRequests))} (${listed(phase.shopifyRequests)}), ` +
          `the service ${per(sum(phase.serviceRequests))}`,
      );
      if (values.show) {
        const sorted = [...phase.byText].sort((a, b) => b[1] - a[1]);
        for (const [text, n] of sorted) console.log(`      ${String(n).padStart(5)}  ${text}`);
      }
    }
  }
}

/** One build on one new database: installed, then both phases, each in an app process of its own. */
async function runBuild(root: string, databaseUrl: string): Promise<PhaseFigures[]> {
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify, DEFAULT_ACCESS_TOKEN } = await import("../dev/fake-shopify/server");
  const { catalogueEntry } = await import("../app/sync/engine/catalogue-entry");
  const { contentHash, documentCurrencyOf } = await import("../app/catalogue");
  type ShopifyProduct = import("../app/catalogue").ShopifyProduct;
  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    accounts: [
      {
        name: "statements",
        tier: "enterprise",
        secretKeys: [KEY],
        publishableKeys: [PUBLISHABLE],
        rateLimits: { perMinute: 1e9, perHour: 1e9 },
        quotas: { products: 1e9, posts: 1e9 },
      },
    ],
  });
  const shopify = await startFakeShopify({
    port: 0,
    shopDomain: SHOP,
    primaryDomain: DOMAIN,
    apiSecret: API_SECRET,
    store: {
      generated: { products: Number(values.products), pages: 1, articles: 1, seed: 28 },
      presences: values.presences === "primary-only" ? "primary-only" : "sample",
    },
  });
  const env = {
    NODE_ENV: "production",
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_APP_URL: "https://catalog-chat.bench",
    SCOPES: "read_products,read_online_store_pages,read_inventory",
    ENCRYPTION_KEY: "q2P0pXn8cVd5sT7wYz1bRk4mHj6gFe3aLu9oIt0yWx8=",
    DATABASE_URL: databaseUrl,
    INDEX_API_URL: emulator.url,
    BACKGROUND_WORK: "off",
    BENCH_FAKE_SHOPIFY_URL: shopify.url,
    BENCH_ACCESS_TOKEN: DEFAULT_ACCESS_TOKEN,
  };
  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const { createPrismaClient } = await import("../app/models/db.server");
  const database = createPrismaClient(databaseUrl);
  // As the app maps them: the primary workspace's products carry the shop's currency (decision 0036).
  const mapping = { primaryDomain: DOMAIN, ...documentCurrencyOf(shopify.state.shop()) };
  const products = shopify.state
    .products()
    .map((p) => p.id)
    .filter((id) => {
      const entry = catalogueEntry(
        { type: "Product", value: shopify.state.product(id) as unknown as ShopifyProduct },
        mapping,
      );
      return entry.indexable;
    });
  const shows = (id: string) => {
    const entry = catalogueEntry(
      { type: "Product", value: shopify.state.product(id) as unknown as ShopifyProduct },
      mapping,
    );
    if (!entry.indexable) return false;
    const item = emulator.state
      .workspace("statements", WORKSPACE)
      ?.products.find((indexed) => String(indexed.id) === entry.id);
    return item !== undefined && contentHash(item) === entry.hash;
  };
  let price = 100;
  /** A real change and its delivery; resolves once answered. */
  const change = async (id: string) => {
    price += 1;
    shopify.state.updateProduct(id, { variants: [{ index: 0, price: `${price}.00` }] });
    const delivery = await shopify.state.sendWebhook("products/update", id);
    if (delivery.status !== 200) throw new Error(`delivery answered ${delivery.status}`);
  };
  const settled = async (ids: string[]) => {
    for (const started = Date.now(); Date.now() - started < 120_000; await sleep(50)) {
      if (ids.every(shows) && (await database.pendingChange.count()) === 0) return;
    }
    throw new Error("the index did not show the changes within 2 min");
  };

  const phases: PhaseFigures[] = [];
  try {
    const modes = [
      { coalesceMs: 3_000, changes: Number(values.single), batch: 1 },
      { coalesceMs: 600_000, changes: Number(values.batches) * BATCH, batch: BATCH },
    ].filter((m) => m.changes > 0);
    for (const mode of modes) {
      // The first phase that runs installs the shop (`--single 0` runs the batches alone).
      const app = await startApp(
        root,
        { ...env, LIVE_COALESCE_MS: String(mode.coalesceMs) },
        mode === modes[0],
      );
      try {
        shopify.state.setApp({ appUrl: app.url, apiSecret: API_SECRET });
        // Whatever the start-up left (the first sync, the first poll) is not counted.
        await sleep(2_000);
        // What the process spends with nothing to do (the poll, timers), to tell apart.
        const idleFrom = cpuTimeMs(app.child.pid!);
        await sleep(5_000);
        const idleMsPerSecond = (cpuTimeMs(app.child.pid!) - idleFrom) / 5;
        const loads: number[] = [];
        const loadTimer = setInterval(() => loads.push(loadavg()[0]!), 2_000);
        const before = await app.counts();
        const shopifyFrom = shopify.state.requests().length;
        const serviceFrom = emulator.state.requests().length;
        const cpuBefore = cpuTimeMs(app.child.pid!);
        const started = Date.now();
        let afterFirst: Served | undefined;
        for (let done = 0; done < mode.changes; done += mode.batch) {
          const ids = Array.from(
            { length: mode.batch },
            (_, k) => products[(done + k) % products.length]!,
          );
          for (const id of ids) await change(id);
          await settled(ids);
          // The first batch also loads the modules a pass needs and leaves V8 to compile them.
          if (done === 0 && mode.changes > mode.batch) afterFirst = (await app.counts()).served;
        }
        const cpuMs = cpuTimeMs(app.child.pid!) - cpuBefore;
        const seconds = (Date.now() - started) / 1000;
        const after = await app.counts();
        const tally = (names: string[]) => {
          const counts = new Map<string, number>();
          for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
          return counts;
        };
        const shopifyRequests = tally(
          shopify.state
            .requests()
            .slice(shopifyFrom)
            .map((request) => request.operationName ?? "(unnamed)"),
        );
        const serviceRequests = tally(
          emulator.state
            .requests()
            .slice(serviceFrom)
            .map((request) => `${request.method} ${request.path}`),
        );
        clearInterval(loadTimer);
        loads.push(loadavg()[0]!);
        const byText = new Map<string, number>();
        for (const [text, n] of after.statements) {
          const d = n - (before.statements.get(text) ?? 0);
          if (d > 0) byText.set(text, d);
        }
        const servedCpuMs =
          after.served.cpuSeconds === undefined
            ? undefined
            : (after.served.cpuSeconds - (before.served.cpuSeconds ?? 0)) * 1000;
        const servedChanges =
          after.served.changes === undefined
            ? undefined
            : after.served.changes - (before.served.changes ?? 0);
        const servedLater =
          afterFirst?.cpuSeconds === undefined ||
          afterFirst.changes === undefined ||
          after.served.cpuSeconds === undefined ||
          after.served.changes === undefined
            ? undefined
            : {
                cpuMs: (after.served.cpuSeconds - afterFirst.cpuSeconds) * 1000,
                changes: after.served.changes - afterFirst.changes,
              };
        let intake = 0;
        let worker = 0;
        let clock = 0;
        for (const [text, n] of byText) {
          if (CLOCK_STATEMENTS.some((re) => re.test(text))) clock += n;
          else if (INTAKE_STATEMENTS.some((re) => re.test(text))) intake += n;
          else worker += n;
        }
        phases.push({
          changes: mode.changes,
          batch: mode.batch,
          intake,
          worker,
          clock,
          cpuMs,
          servedCpuMs,
          servedChanges,
          servedLater,
          idleMsPerSecond,
          seconds,
          load: loads.reduce((a, b) => a + b, 0) / loads.length,
          byText,
          shopifyRequests,
          serviceRequests,
        });
      } finally {
        await app.stop();
      }
    }
  } finally {
    await database.$disconnect();
    await shopify.close();
    await emulator.close();
  }
  return phases;
}

async function startApp(root: string, env: Record<string, string>, install: boolean) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...cpuProfile,
      "--import",
      "tsx",
      import.meta.filename,
      "--role",
      "app",
      "--root",
      root,
      ...(install ? ["--install"] : []),
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  const url = await new Promise<string>((done, fail) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\S+)/.exec(out);
      if (match?.[1]) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        done(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => fail(new Error(`the app exited (${code})`)));
  });
  return {
    child,
    url,
    /** The statements sent so far by text, and the live worker's own counts where it has them. */
    counts: () =>
      new Promise<{ statements: Map<string, number>; served: Served }>((done) => {
        child.once("message", (message) => {
          const { counts, served } = message as { counts: Record<string, number>; served: Served };
          done({ statements: new Map(Object.entries(counts)), served });
        });
        child.send("counts");
      }),
    stop: () =>
      new Promise<void>((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
