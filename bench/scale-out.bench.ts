/**
 * Scale-out: several app instances on one PostgreSQL, many shops on mixed tiers, a stream of
 * product webhooks spread over the instances, one instance killed mid-run (printed; exits 1 only
 * when /metrics disagrees with its own reading, below):
 *   npm run build && npx tsx bench/scale-out.bench.ts [--shops 100] [--deliveries 20000]
 *     [--instances 3] [--products 30] [--shops-per-account 5] [--concurrency 20]
 *     [--warm-up 500] [--single-share 0.1] [--kill-at 0.33] [--lease-ms 60000]
 *     [--per-second 0]
 *   `--per-second <n>`: at most n deliveries started a second (0: as fast as answered); with many
 *   shops and a low rate each change travels in a batch of its own, as in production.
 *   `CPU_PROF=<dir>`: each app instance writes a CPU profile there when it stops (whole life:
 *   start-up, the stream, convergence).
 *
 * One throwaway PostgreSQL cluster (fsync on, testkit/postgres-cluster.ts), migrated. The
 * service is the emulator at its tiers' own limits: shops share accounts (`--shops-per-account`
 * shops on one secret key, each shop its own workspace), the accounts spread over the four tiers
 * in turn. Each shop has its own fake store (`--products` generated products, one page, one
 * article), all of them in this process. The shops are installed through the app's own code here
 * (offline session, keys sealed, workspace made), ten at a time, and their first full syncs run
 * here as the Settings page starts them; then every shop's index must equal its store.
 *
 * Then `--instances` app instances start, each `app/cli/serve.ts` (what `npm start` runs, here
 * from its source) with its background work inside (live worker, resumed runs, reconciliation),
 * on one database, on their own ports, each with the shop hosts routed to the fake stores. The
 * stream: `--deliveries` signed products/update deliveries, each after a real price change in
 * that shop's fake store (shops and products picked at random), sent by the fake store itself,
 * `--concurrency` in flight. The first `--warm-up` (at most 5%) go round-robin to every instance (JIT, connections;
 * printed apart), the next `--single-share` of the stream to instance 1 only (the figure "against
 * one instance", in the same run, the other instances' workers up); the rest round-robin over the
 * instances as a load balancer would. Each phase starts once the one before has been answered. At `--kill-at` of the stream the last instance is killed
 * with SIGKILL; a delivery that finds no answer is sent again (same webhook id and body, as
 * Shopify retries) to the next instance, and the dead instance leaves the rotation (a load
 * balancer's health check).
 *
 * Printed: deliveries per second and answer p50/p99 per phase (one instance; all instances;
 * after the kill); non-200 answers; the time from the last delivery until every shop's index
 * equals its store and the outbox is empty; products differing from their store at the end
 * (changes lost: must be 0); the shops whose lease the killed instance held and how long until
 * another instance held each; the service's rate-limit refusals per account (its per-account
 * windows; must be 0); the machine's load average during the run.
 *
 * The figures /metrics offers are also read as an operator reads them: each instance's GET
 * /metrics (METRICS_TOKEN) is scraped every 2 s, right before the kill and at the end
 * (testkit/prometheus-text.ts), each counter summed over the instances, and printed beside this
 * process's own reading (the outbox, deliveries answered, the service's 429s, runs finished,
 * leases); the run fails (exit 1) when two disagree beyond what the kill explains (deliveries in
 * flight when the killed instance was last scraped).
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { cpuTimeMs } from "./process-cpu";
import { startRoleProcess, stopRoleProcess } from "../testkit/role-process";
import { routeShopHosts } from "../testkit/shop-hosts";
import { requireAppBuild } from "../app/server/app-server";
import { installShops, productsDiffering, type FleetShop } from "./shop-fleet";
import { agreement, ScrapedFigures } from "../testkit/prometheus-text";

const { values } = parseArgs({
  options: {
    shops: { type: "string", default: "100" },
    deliveries: { type: "string", default: "20000" },
    instances: { type: "string", default: "3" },
    products: { type: "string", default: "30" },
    "shops-per-account": { type: "string", default: "5" },
    concurrency: { type: "string", default: "20" },
    "single-share": { type: "string", default: "0.1" },
    "kill-at": { type: "string", default: "0.33" },
    "warm-up": { type: "string", default: "500" },
    "lease-ms": { type: "string", default: "60000" },
    "per-second": { type: "string", default: "0" },
    role: { type: "string", default: "driver" },
  },
});
const SHOPS = Number(values.shops);
const DELIVERIES = Number(values.deliveries);
const INSTANCES = Number(values.instances);
const PRODUCTS = Number(values.products);
const SHOPS_PER_ACCOUNT = Number(values["shops-per-account"]);
const CONCURRENCY = Number(values.concurrency);
const WARM_UP = Math.min(Number(values["warm-up"]), Math.round(DELIVERIES * 0.05));
/** Where the single-instance phase ends (it starts after the warm-up). */
const SINGLE = WARM_UP + Math.round(DELIVERIES * Number(values["single-share"]));
const KILL_AT =
  INSTANCES > 1 ? Math.max(SINGLE, Math.round(DELIVERIES * Number(values["kill-at"]))) : Infinity;
const LEASE_MS = Number(values["lease-ms"]);
const PER_SECOND = Number(values["per-second"]);
const API_SECRET = "scale-out-app-secret";
const HOSTS_VARIABLE = "SCALE_OUT_SHOP_HOSTS";
const METRICS_TOKEN = "scale-out-metrics-token-0123456789";
const SCRAPE_EVERY_MS = 2_000;
const TIERS = ["personal", "starter", "professional", "enterprise"] as const;
const cpuProfile = process.env.CPU_PROF
  ? ["--cpu-prof", "--cpu-prof-dir", process.env.CPU_PROF]
  : [];

if (values.role === "app") await runInstance();
else await drive();

// ── One app instance: `npm start`'s server, the shop hosts routed first ────────────────────────
async function runInstance() {
  routeShopHosts(JSON.parse(process.env[HOSTS_VARIABLE] ?? "{}") as Record<string, string>);
  if (process.env.SCALE_OUT_COUNTS) await countRequests();
  // `npm start` itself, run by its import once the hosts are routed and the counters are in place.
  await import("../app/cli/serve");
}

/**
 * `SCALE_OUT_COUNTS=1`: the instance counts its database statements (node-postgres queries, by
 * their first 90 characters) and outgoing HTTP requests by host, and prints them on stderr when
 * it exits.
 */
async function countRequests() {
  const counts = new Map<string, number>();
  const add = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  const { createRequire } = await import("node:module");
  const pg = createRequire(import.meta.url)("pg") as typeof import("pg");
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : (first?.text ?? "");
    add(`sql ${text.replace(/\s+/g, " ").trim().slice(0, 90)}`);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const fetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const host = new URL(input instanceof Request ? input.url : String(input)).hostname;
    add(`http ${host.endsWith(".myshopify.com") ? "Shopify" : host}`);
    return fetch(input, init);
  };
  process.once("exit", () => {
    const sorted = [...counts].sort((a, b) => b[1] - a[1]);
    process.stderr.write(`[scale-out counts] ${JSON.stringify(Object.fromEntries(sorted))}\n`);
  });
}

/** Progress on stderr, so that a long run shows where it is. */
function note(text: string) {
  process.stderr.write(`[scale-out ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

interface Phase {
  name: string;
  count: number;
  startedAt: number;
  endedAt: number;
  latencies: number[];
}

// ── The driver: PostgreSQL, the service, the stores, the stream, the figures ───────────────────
async function drive() {
  requireAppBuild();
  const { startPostgresCluster } = await import("../testkit/postgres-cluster");
  const { createPostgresDatabase } = await import("../dev/postgres-database");
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify, DEFAULT_ACCESS_TOKEN } = await import("../dev/fake-shopify/server");

  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(loadavg()[0]!), 5_000);
  const cluster = await startPostgresCluster({ durable: true });
  const cleanups: (() => Promise<unknown>)[] = [() => cluster.stop()];
  try {
    // Dropped with the cluster.
    const database = await createPostgresDatabase(cluster.url, "scale_out");

    const accountCount = Math.max(
      Math.min(TIERS.length, SHOPS),
      Math.ceil(SHOPS / SHOPS_PER_ACCOUNT),
    );
    const accounts = Array.from({ length: accountCount }, (_, a) => ({
      name: `scale-${a}-${TIERS[a % TIERS.length]}`,
      tier: TIERS[a % TIERS.length]!,
      secretKeys: [`svc_sk_scale_${a}`],
      publishableKeys: [`svc_pk_scale_${a}`],
    }));
    const emulator = await startEmulator({ port: 0, tokenDelayMs: 0, accounts });
    cleanups.push(() => emulator.close());

    const domain = (k: number) => `scale-${k}.myshopify.com`;
    const primary = (k: number) => `scale-${k}.example.com`;
    const fleet: FleetShop[] = [];
    for (let k = 0; k < SHOPS; k++) {
      const store = await startFakeShopify({
        port: 0,
        shopDomain: domain(k),
        primaryDomain: primary(k),
        apiSecret: API_SECRET,
        bulkDelayMs: 100,
        firstBulkOperationNumber: 1 + k * 1_000_000,
        bucket: { maximumAvailable: 20_000, restoreRate: 1_000 },
        store: { generated: { products: PRODUCTS, pages: 1, articles: 1, seed: 300 + k } },
      });
      cleanups.push(() => store.close());
      const account = accounts[k % accountCount]!;
      fleet.push({
        domain: domain(k),
        primaryDomain: primary(k),
        account: account.name,
        workspace: primary(k).replaceAll(".", "-"),
        secretKey: account.secretKeys[0]!,
        publishableKey: account.publishableKeys[0]!,
        store,
      });
    }
    const hosts = Object.fromEntries(fleet.map((shop) => [shop.domain, shop.store.url]));

    const appEnv = {
      NODE_ENV: "production",
      SHOPIFY_API_KEY: "scale-out-api-key",
      SHOPIFY_API_SECRET: API_SECRET,
      SHOPIFY_APP_URL: "https://catalog-chat.scale-out",
      SCOPES: "read_products,read_online_store_pages,read_inventory",
      ENCRYPTION_KEY: "q2P0pXn8cVd5sT7wYz1bRk4mHj6gFe3aLu9oIt0yWx8=",
      DATABASE_URL: database.url,
      INDEX_API_URL: emulator.url,
      LIVE_LEASE_MS: String(LEASE_MS),
      METRICS_TOKEN,
      [HOSTS_VARIABLE]: JSON.stringify(hosts),
    };
    Object.assign(process.env, appEnv, { BACKGROUND_WORK: "off" });
    routeShopHosts(hosts);
    // Loaded after routeShopHosts: the Shopify library (through testkit/live-stack) keeps the
    // fetch it finds when loaded.
    const { migrateDatabase } = await import("../app/cli/migrate-database");
    await migrateDatabase(database.url);
    const prisma = (await import("../app/models/db.server")).default;
    cleanups.push(() => prisma.$disconnect());
    const { waitFor, waitForRunsToFinish } = await import("../testkit/live-stack");
    type LiveServices = import("../testkit/live-stack").LiveServices;
    const services = { prisma } as unknown as LiveServices;

    // ── Installs and first full syncs, ten shops at a time ──
    const installStarted = performance.now();
    for (let k = 0; k < SHOPS; k += 10) {
      await installShops(fleet.slice(k, k + 10), {
        scopes: appEnv.SCOPES,
        accessToken: DEFAULT_ACCESS_TOKEN,
      });
      await waitForRunsToFinish(services, 600_000);
      note(`${Math.min(SHOPS, k + 10)} of ${SHOPS} shops installed and synced`);
    }
    const installMs = performance.now() - installStarted;
    const firstDifferences = (await productsDiffering(emulator, fleet)).reduce((a, b) => a + b, 0);
    if (firstDifferences !== 0) {
      throw new Error(`the first syncs left ${firstDifferences} products differing`);
    }
    const indexed = fleet.reduce(
      (sum, shop) =>
        sum + (emulator.state.workspace(shop.account, shop.workspace)?.products.length ?? 0),
      0,
    );

    // ── The instances ──
    const instances: {
      child: import("node:child_process").ChildProcess;
      url: string;
      alive: boolean;
      /** Deliveries it answered with 200. */
      answered: number;
      /** Its CPU time (ms) when the stream started and when it ended (or it was killed). */
      cpuStart: number;
      cpuEnd: number;
      /** Its CPU time (ms) once every index equalled its store (or when it was killed). */
      cpuConverged: number;
    }[] = [];
    for (let i = 0; i < INSTANCES; i++) {
      const started = await startRoleProcess(
        import.meta.filename,
        "app",
        { ...appEnv, BACKGROUND_WORK: "on", PORT: "0", HOST: "127.0.0.1" },
        cpuProfile,
        /"component":"catalog-chat","url":"([^"]+)"/,
      );
      instances.push({
        ...started,
        alive: true,
        answered: 0,
        cpuStart: 0,
        cpuEnd: 0,
        cpuConverged: 0,
      });
    }
    const instancesStarted = new Date();
    const figures = new ScrapedFigures(METRICS_TOKEN);
    const scrape = (i: number) => figures.tryScrape(`instance ${i + 1}`, instances[i]!.url);
    let scraping = true;
    const scraper = (async () => {
      while (scraping) {
        await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
        for (const [i, instance] of instances.entries()) {
          if (instance.alive && instance.child.signalCode === null) await scrape(i);
        }
      }
    })();
    process.once("exit", () => {
      for (const instance of instances) {
        if (instance.child.exitCode === null) instance.child.kill("SIGKILL");
      }
    });
    note(
      `${INSTANCES} instances up (pids ${instances.map((i) => i.child.pid).join(", ")}); the stream starts`,
    );

    // ── The stream ──
    let seed = 2026;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const productIds = fleet.map((shop) => shop.store.state.products().map((p) => p.id));
    const phases: Phase[] = [
      { name: "warm-up, all instances", count: WARM_UP, startedAt: 0, endedAt: 0, latencies: [] },
      {
        name: "instance 1 only",
        count: SINGLE - WARM_UP,
        startedAt: 0,
        endedAt: 0,
        latencies: [],
      },
      {
        name: `all ${INSTANCES} instances`,
        count: Math.min(DELIVERIES, KILL_AT) - SINGLE,
        startedAt: 0,
        endedAt: 0,
        latencies: [],
      },
      {
        name: `${INSTANCES - 1} after the kill`,
        count: DELIVERIES - Math.min(DELIVERIES, KILL_AT),
        startedAt: 0,
        endedAt: 0,
        latencies: [],
      },
    ];
    const phaseOf = (k: number) => (k < WARM_UP ? 0 : k < SINGLE ? 1 : k < KILL_AT ? 2 : 3);
    const refusals = new Map<string, number>();
    let notDelivered = 0;
    let delivered = 0;
    let next = 0;
    let turn = 0;
    const pickInstance = (k: number) => {
      if (k >= WARM_UP && k < SINGLE) return instances[0]!;
      const alive = instances.filter((i) => i.alive);
      return alive[turn++ % alive.length]!;
    };

    // The kill, and the watch over the leases the killed instance held.
    let killedAt = 0;
    const orphans = new Map<string, number | null>();
    let watching: Promise<void> = Promise.resolve();
    const kill = async () => {
      const victim = instances.at(-1)!;
      victim.cpuEnd = cpuTimeMs(victim.child.pid!);
      // Its last scrape: what it counted until now.
      await scrape(instances.length - 1);
      victim.child.kill("SIGKILL");
      killedAt = performance.now();
      note(`instance ${INSTANCES} (pid ${victim.child.pid}) killed after ${delivered} deliveries`);
      const held = await prisma.$queryRaw<
        { shopDomain: string; holder: string; expiresAt: Date }[]
      >`
        SELECT "shopDomain", "holder", "expiresAt" FROM "ShopLease"`;
      const victimPid = String(victim.child.pid);
      for (const lease of held) {
        if (lease.holder.split(":")[1] === victimPid && lease.expiresAt.getTime() > Date.now()) {
          orphans.set(lease.shopDomain, null);
        }
      }
      watching = (async () => {
        while ([...orphans.values()].some((t) => t === null)) {
          const rows = await prisma.$queryRaw<{ shopDomain: string; holder: string }[]>`
            SELECT "shopDomain", "holder" FROM "ShopLease"`;
          for (const row of rows) {
            if (orphans.get(row.shopDomain) === null && row.holder.split(":")[1] !== victimPid) {
              orphans.set(row.shopDomain, performance.now() - killedAt);
            }
          }
          if (performance.now() - killedAt > LEASE_MS + 600_000) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
    };

    const deliverOne = async (k: number) => {
      const shop = fleet[Math.floor(random() * SHOPS)]!;
      const ids = productIds[fleet.indexOf(shop)]!;
      const id = ids[Math.floor(random() * ids.length)]!;
      const price = (10 + Math.floor(random() * 9_000) / 100).toFixed(2);
      shop.store.state.updateProduct(id, { variants: [{ index: 0, price }] });
      const phase = phases[phaseOf(k)]!;
      if (phase.startedAt === 0) phase.startedAt = performance.now();
      let first: { webhookId: string; triggeredAt: string; body: string } | undefined;
      for (let attempt = 0; ; attempt++) {
        const target = pickInstance(k);
        // The fake store reads its app URL when it sends: pointed at the chosen instance first.
        shop.store.state.setApp({ appUrl: target.url });
        const delivery = first
          ? await shop.store.state.sendWebhook("products/update", JSON.parse(first.body), {
              webhookId: first.webhookId,
              triggeredAt: first.triggeredAt,
            })
          : await shop.store.state.sendWebhook("products/update", id);
        first ??= delivery;
        phase.latencies.push(delivery.durationMs);
        if (delivery.status === 200) {
          target.answered += 1;
          break;
        }
        const why = delivery.status ? String(delivery.status) : (delivery.error ?? "no answer");
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
        if (target.child.exitCode !== null || target.child.signalCode !== null) {
          target.alive = false; // the load balancer's health check takes it out
        }
        if (attempt >= 5) {
          notDelivered += 1;
          break;
        }
      }
      phase.endedAt = performance.now();
      delivered += 1;
      if (delivered === KILL_AT) await kill();
      if (delivered % 1_000 === 0) {
        note(`${delivered} delivered`);
        // This process keeps logs of everything sent and asked: not the app's memory, cleared.
        for (const s of fleet) {
          s.store.state.clearWebhookDeliveries();
          s.store.state.clearRequests();
        }
        emulator.state.clearRequests();
      }
    };
    const lane = async () => {
      for (let k = next++; k < DELIVERIES; k = next++) {
        // The warm-up and the single-instance phase end before the next phase starts.
        const boundary = k >= SINGLE ? SINGLE : k >= WARM_UP ? WARM_UP : 0;
        if (delivered < boundary) {
          await waitFor("the phase before", () => delivered >= boundary, 600_000);
        }
        if (PER_SECOND > 0) {
          const due = streamStarted + (k * 1_000) / PER_SECOND;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        await deliverOne(k);
      }
    };

    for (const instance of instances) instance.cpuStart = cpuTimeMs(instance.child.pid!);
    const driverCpu = process.cpuUsage();
    const streamStarted = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const streamEnded = performance.now();
    const driverCpuMs = process.cpuUsage(driverCpu);
    for (const instance of instances) {
      if (instance.alive) instance.cpuEnd = cpuTimeMs(instance.child.pid!);
    }
    note("stream done; waiting for every shop's index to equal its store");
    let lastDifferences: number[] = [];
    await waitFor(
      "every shop's index to equal its store",
      async () => {
        if ((await prisma.pendingChange.count()) !== 0) return false;
        lastDifferences = await productsDiffering(emulator, fleet);
        return lastDifferences.every((n) => n === 0);
      },
      900_000,
    ).catch((error: unknown) => note(String(error)));
    const convergedMs = performance.now() - streamEnded;
    for (const instance of instances) {
      instance.cpuConverged = instance.alive ? cpuTimeMs(instance.child.pid!) : instance.cpuEnd;
    }
    await watching;
    clearInterval(loadTimer);
    const differing = await productsDiffering(emulator, fleet);
    const outbox = await prisma.pendingChange.count();
    const accountStates = emulator.state.accounts().filter((a) => a.name.startsWith("scale-"));
    const runs = await prisma.syncRun.groupBy({ by: ["trigger", "state"], _count: true });
    scraping = false;
    await scraper;
    // The instances' last scrapes, after the outbox was read (nothing changes it now).
    const lastScraped = await Promise.all(
      instances.map(async (instance, i) =>
        instance.child.signalCode === null ? await scrape(i) : null,
      ),
    );
    const runsFinished = await prisma.syncRun.groupBy({
      by: ["state"],
      where: { finishedAt: { gte: instancesStarted } },
      _count: true,
    });
    const liveLeases = await prisma.shopLease.count({ where: { expiresAt: { gt: new Date() } } });
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        await stopRoleProcess(instance.child);
      }
    }

    // ── Figures ──
    const percentile = (sorted: number[], p: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
    const perTier = TIERS.map((tier) => {
      const ofTier = accountStates.filter((a) => a.tier === tier);
      return `${tier} ${ofTier.length} accounts, ${ofTier.reduce((s, a) => s + a.rateLimited, 0)} refused`;
    });
    const taken = [...orphans.values()].filter((t): t is number => t !== null);
    console.log(
      `Scale-out: ${DELIVERIES.toLocaleString("en")} products/update deliveries (${CONCURRENCY} in flight) over ${SHOPS} shops of ${PRODUCTS} products ` +
        `(${indexed} indexed) on ${accountCount} accounts (${SHOPS_PER_ACCOUNT} shops a key, tiers in turn), ${INSTANCES} app instances ` +
        `(app/cli/serve.ts, worker inside, LIVE_LEASE_MS ${LEASE_MS}) on one PostgreSQL (fsync on)`,
    );
    console.log(
      `  installs and first full syncs: ${(installMs / 1000).toFixed(0)} s, then every index equal to its store`,
    );
    for (const phase of phases) {
      if (phase.count <= 0) continue;
      const sorted = [...phase.latencies].sort((a, b) => a - b);
      const seconds = (phase.endedAt - phase.startedAt) / 1000;
      console.log(
        `  ${phase.name.padEnd(22)} ${String(phase.count).padStart(6)} deliveries: ${(phase.count / seconds).toFixed(0)} deliveries/s, ` +
          `answer p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms`,
      );
    }
    console.log(
      `  whole stream ${((streamEnded - streamStarted) / 1000).toFixed(1)} s; non-200 answers ${[...refusals.values()].reduce((a, b) => a + b, 0)}` +
        `${refusals.size ? ` (${[...refusals].map(([why, n]) => `${why}: ${n}`).join(", ")}; each sent again to the next instance)` : ""}; ` +
        `never answered 200 after 6 attempts ${notDelivered}`,
    );
    console.log(
      `  every shop's index equal to its store and the outbox empty: ${(convergedMs / 1000).toFixed(1)} s after the last delivery` +
        `${differing.some((n) => n > 0) ? " (NOT reached)" : ""}`,
    );
    console.log(
      `  changes lost (products differing from their store at the end): ${differing.reduce((a, b) => a + b, 0)} ` +
        `in ${differing.filter((n) => n > 0).length} shops (must be 0); outbox rows ${outbox}`,
    );
    if (killedAt > 0) {
      console.log(
        `  the killed instance held ${orphans.size} shops' leases: taken over by another instance ${taken.length}` +
          `${taken.length ? `, after ${(Math.min(...taken) / 1000).toFixed(1)}–${(Math.max(...taken) / 1000).toFixed(1)} s` : ""} (lease ${LEASE_MS / 1000} s)`,
      );
    }
    console.log(
      `  the service's rate-limit refusals (its per-account windows): ${accountStates.reduce((s, a) => s + a.rateLimited, 0)} (must be 0); ${perTier.join("; ")}`,
    );
    console.log(`  runs: ${runs.map((r) => `${r.trigger}/${r.state} ${r._count}`).join(", ")}`);
    console.log(
      `  per instance: answered ${instances.map((i) => i.answered).join(" / ")}; CPU during the stream ` +
        `${instances.map((i) => ((i.cpuEnd - i.cpuStart) / 1000).toFixed(0)).join(" / ")} s; this process (stores, service, deliveries) ` +
        `${((driverCpuMs.user + driverCpuMs.system) / 1e6).toFixed(1)} s; the stream lasted ${((streamEnded - streamStarted) / 1000).toFixed(0)} s on 2 cores`,
    );
    const instancesCpuMs = instances.reduce((sum, i) => sum + i.cpuConverged - i.cpuStart, 0);
    console.log(
      `  app instances' CPU from the stream's start until every index equalled its store: ` +
        `${(instancesCpuMs / 1000).toFixed(1)} s, ${(instancesCpuMs / DELIVERIES).toFixed(2)} ms per delivery`,
    );
    // ── The same figures as an operator's Prometheus reads them ──
    if (lastScraped.includes(false)) {
      console.log(`  /metrics: the last scrape of a live instance FAILED`);
      process.exitCode = 1;
    }
    const survivor = `instance 1`;
    const deliveries = "catalog_chat_webhook_deliveries_total";
    const syncs = "catalog_chat_full_syncs_total";
    const finished = Object.fromEntries(runsFinished.map((run) => [run.state, run._count]));
    const fiveHundreds = [...refusals]
      .filter(([why]) => Number(why) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const slack = killedAt > 0 ? CONCURRENCY : 0;
    const checks = {
      outbox: agreement(figures.latest(survivor, "catalog_chat_outbox_changes"), outbox),
      accepted: agreement(
        figures.counter(deliveries, { outcome: "accepted" }),
        instances.reduce((sum, i) => sum + i.answered, 0),
        slack,
      ),
      failed: agreement(figures.counter(deliveries, { outcome: "failed" }), fiveHundreds, slack),
      waits: agreement(
        figures.counter("catalog_chat_service_rate_limited_waits_total"),
        accountStates.reduce((sum, a) => sum + a.rateLimited, 0),
        slack,
      ),
      succeeded: agreement(
        figures.counter(syncs, { outcome: "succeeded" }),
        finished.succeeded ?? 0,
        killedAt > 0 ? 1 : 0,
      ),
      syncsFailed: agreement(
        figures.counter(syncs, { outcome: "failed" }),
        finished.failed ?? 0,
        killedAt > 0 ? 1 : 0,
      ),
    };
    const oldest = figures.latest(survivor, "catalog_chat_outbox_oldest_change_age_seconds");
    const leasesHeld = lastScraped.reduce(
      (sum, samples, i) =>
        sum + (samples ? figures.latest(`instance ${i + 1}`, "catalog_chat_leases_held") : 0),
      0,
    );
    console.log(
      `  /metrics (every instance scraped as an operator would, counters summed; vs this process's reading): ` +
        `outbox ${checks.outbox.text} rows, oldest change ${oldest.toFixed(1)} s; ` +
        `webhook deliveries accepted ${checks.accepted.text} (answered 200), failed (5xx) ${checks.failed.text}; ` +
        `429 waits ${checks.waits.text} (the service's refusals)`,
    );
    console.log(
      `  /metrics: full syncs succeeded ${checks.succeeded.text}, failed ${checks.syncsFailed.text} (runs finished while the instances ran); ` +
        `leases held ${leasesHeld} (live in the database ${liveLeases}), ` +
        `taken over ${figures.counter("catalog_chat_leases_taken_over_total")}; ` +
        `items sent ${figures.counter("catalog_chat_items_total", { outcome: "sent" })}`,
    );
    if (!Object.values(checks).every((check) => check.agrees)) process.exitCode = 1;
    const mean = loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length);
    console.log(
      `  load average (1 min) during the run, every 5 s: mean ${mean.toFixed(1)}, max ${Math.max(...loads).toFixed(1)} (2 cores)`,
    );
  } finally {
    clearInterval(loadTimer);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
