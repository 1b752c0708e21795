/**
 * Soak: does one app server stay flat over a long stream of work? (printed, never asserted)
 *   npm run build && npx tsx bench/soak.bench.ts [--deliveries 5000] [--resyncs 5] [--shops 5]
 *     [--products 100] [--concurrency 20] [--tolerance-mb 20]
 *   the issue asks for --deliveries 200000 --resyncs 50 (15 min on a quiet 2-core machine, 47 min loaded)
 *
 * The app's production build runs in its own process with its background work on (the live
 * worker inside it, default settings) and `--expose-gc`, on a new SQLite file. This process plays
 * Shopify (one fake store per shop, a Plus cost bucket; signed webhooks) and the service (the
 * emulator, one account, every shop's workspace). Each shop is installed and fully synced first.
 * Then a stream of `products/update` deliveries, `--concurrency` in flight, spread over the shops
 * (shop k gets a share proportional to 1/(k+1)): most follow a real price change in the store (the
 * worker re-reads the product and sends it), one in eight follows no change (re-read, nothing
 * sent), one in twenty is a duplicate (an earlier delivery sent again, same id and body). Spread
 * through the stream, `--resyncs` resyncs of the first shop, pressed as the admin does (its
 * Dashboard loaded, then the Resync form posted; the offline demo's admin, DEMO_SHOP), each after
 * the previous one finished.
 *
 * Printed: the server's VmRSS and VmHWM (/proc/<pid>/status) and, after a forced collection, its
 * RSS and V8 heap used, at the start (after a warm-up of 5% of the deliveries and the first
 * resync), the middle, the end of the stream, and once the work is drained; whether the end is
 * within the tolerance of the middle; and that nothing was lost (each shop's index equals its
 * store, the outbox is empty).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRoleProcess, stopRoleProcess } from "../testkit/role-process";
import { routeShopHosts } from "../testkit/shop-hosts";
import { requireAppBuild } from "../app/server/app-server";
import { installShops, productsDiffering, type FleetShop } from "./shop-fleet";

const { values } = parseArgs({
  options: {
    deliveries: { type: "string", default: "5000" },
    resyncs: { type: "string", default: "5" },
    shops: { type: "string", default: "5" },
    products: { type: "string", default: "100" },
    concurrency: { type: "string", default: "20" },
    "tolerance-mb": { type: "string", default: "20" },
    role: { type: "string", default: "driver" },
  },
});
const DELIVERIES = Number(values.deliveries);
const RESYNCS = Number(values.resyncs);
const SHOPS = Number(values.shops);
const PRODUCTS = Number(values.products);
const CONCURRENCY = Number(values.concurrency);
const TOLERANCE_MB = Number(values["tolerance-mb"]);
const WARM_UP = Math.round(DELIVERIES * 0.05);
const API_SECRET = "soak-app-secret";
const ACCOUNT = "live";
const shopDomain = (k: number) => `soak-${k}.myshopify.com`;
const primaryDomain = (k: number) => `soak-${k}.example.com`;
const workspaceOf = (k: number) => primaryDomain(k).replaceAll(".", "-");
const secretKey = (k: number) => `svc_sk_soak_${k}`;

if (values.role === "app") await runApp();
else await drive();

// ── The app, in its own process: the production build, background work on ───────────────────────
async function runApp() {
  routeShopHosts(JSON.parse(process.env.SOAK_SHOP_HOSTS ?? "{}") as Record<string, string>);
  // Memory on demand: SIGUSR2 collects garbage (--expose-gc), then prints the figures.
  process.on("SIGUSR2", () => {
    globalThis.gc?.();
    const usage = process.memoryUsage();
    process.stdout.write(
      `memory ${JSON.stringify({ rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external })}\n`,
    );
  });
  // The driver migrated the database.
  const { serveAppRole } = await import("../testkit/app-role");
  await serveAppRole({ migrate: false, background: true });
}

// ── The driver: the stores, the service, the stream, the figures ───────────────────────────────
interface Sample {
  label: string;
  delivered: number;
  vmRssMb: number;
  vmHwmMb: number;
  rssAfterGcMb: number;
  heapAfterGcMb: number;
  /** Files the server holds open: libSQL holds one per connection (docs/database.md, Memory). */
  openFiles: number;
}

/** VmRSS and VmHWM of a process, in MB (Linux). */
function procMemory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1]);
  return {
    vmRssMb: kb("VmRSS") / 1024,
    vmHwmMb: kb("VmHWM") / 1024,
    // VmRSS = anonymous (heap, native allocations) + file-backed (code, mapped files) + shared.
    rssAnonMb: kb("RssAnon") / 1024,
    rssFileMb: (kb("RssFile") + kb("RssShmem")) / 1024,
  };
}

/** How many file descriptors a process holds (Linux). */
function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Asks the app process for its memory after a forced collection. */
function memoryAfterGc(child: ChildProcess): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    let out = "";
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /memory (\{.*\})\n/.exec(out);
      if (!match?.[1]) return;
      child.stdout?.off("data", read);
      resolve(JSON.parse(match[1]) as { rss: number; heapUsed: number });
    };
    child.stdout?.on("data", read);
    child.kill("SIGUSR2");
  });
}

/** Progress on stderr, so that a long run shows where it is. */
function note(text: string) {
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

async function drive() {
  requireAppBuild();
  const { startEmulator } = await import("../dev/emulator/server");
  const { startFakeShopify, DEFAULT_ACCESS_TOKEN } = await import("../dev/fake-shopify/server");
  type WebhookDelivery = import("../dev/fake-shopify/server").WebhookDelivery;

  const emulator = await startEmulator({
    port: 0,
    tokenDelayMs: 0,
    accounts: [
      {
        name: ACCOUNT,
        tier: "enterprise",
        secretKeys: Array.from({ length: SHOPS }, (_, k) => secretKey(k)),
        publishableKeys: ["svc_pk_soak"],
        rateLimits: { perMinute: 1e6, perHour: 1e7 },
        quotas: { products: 1e9, posts: 1e9 },
      },
    ],
  });
  const stores = await Promise.all(
    Array.from({ length: SHOPS }, (_, k) =>
      startFakeShopify({
        port: 0,
        shopDomain: shopDomain(k),
        primaryDomain: primaryDomain(k),
        apiSecret: API_SECRET,
        bulkDelayMs: 100,
        firstBulkOperationNumber: 1 + k * 1_000_000,
        bucket: { maximumAvailable: 20_000, restoreRate: 1_000 },
        store: { generated: { products: PRODUCTS, pages: 2, articles: 2, seed: 100 + k } },
      }),
    ),
  );
  const hosts = Object.fromEntries(stores.map((s, k) => [shopDomain(k), s.url]));

  // The app's configuration, for the installs done here and for the app process.
  const work = mkdtempSync(join(tmpdir(), "soak-bench-"));
  const appEnv = {
    NODE_ENV: "development",
    SHOPIFY_API_KEY: "soak-api-key",
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_APP_URL: "https://catalog-chat.soak",
    SCOPES: "read_products,read_online_store_pages,read_inventory",
    DATABASE_URL: `file:${join(work, "soak.db")}`,
    INDEX_API_URL: emulator.url,
    DEMO_SHOP: shopDomain(0),
    DEMO_ADMIN_GRAPHQL_URL: stores[0]!.graphqlUrl,
    SOAK_SHOP_HOSTS: JSON.stringify(hosts),
  };
  Object.assign(process.env, appEnv, { BACKGROUND_WORK: "off" });
  routeShopHosts(hosts);
  // Loaded after routeShopHosts: the Shopify library (through testkit/live-stack) keeps the fetch
  // it finds when loaded.
  const { migrateDatabase } = await import("../app/cli/migrate-database");
  await migrateDatabase(appEnv.DATABASE_URL);
  const prisma = (await import("../app/models/db.server")).default;
  const { waitFor, waitForRunsToFinish } = await import("../testkit/live-stack");
  const catalogue = await import("../app/catalogue");
  type LiveServices = import("../testkit/live-stack").LiveServices;
  const servicesOf = (k: number) =>
    ({ emulator, shopify: stores[k]!, prisma, catalogue }) as unknown as LiveServices;

  // Installed as after OAuth; the demo shop (shop 0) has no offline session.
  const fleet: FleetShop[] = stores.map((store, k) => ({
    domain: shopDomain(k),
    primaryDomain: primaryDomain(k),
    account: ACCOUNT,
    workspace: workspaceOf(k),
    secretKey: secretKey(k),
    publishableKey: "svc_pk_soak",
    store,
  }));
  await installShops(fleet, {
    scopes: appEnv.SCOPES,
    accessToken: DEFAULT_ACCESS_TOKEN,
    session: (shop) => shop.domain !== shopDomain(0),
  });
  note(`${SHOPS} shops installed; waiting for their first syncs`);
  await waitForRunsToFinish(servicesOf(0), 300_000);

  const differences = async () =>
    (await productsDiffering(emulator, fleet)).reduce((a, b) => a + b, 0);
  if ((await differences()) !== 0) throw new Error("the first syncs did not index the stores");

  const app = await startRoleProcess(
    import.meta.filename,
    "app",
    { ...appEnv, BACKGROUND_WORK: "on" },
    ["--expose-gc"],
  );
  const pid = app.child.pid!;
  process.once("exit", () => {
    if (app.child.exitCode === null) app.child.kill("SIGKILL");
  });
  for (const store of stores) store.state.setApp({ appUrl: app.url });
  note(`app server ${app.url} (pid ${pid}); the stream starts`);

  // ── The stream ──
  let seed = 2026;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const weights = Array.from({ length: SHOPS }, (_, k) => 1 / (k + 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const pickShop = () => {
    let r = random() * totalWeight;
    for (let k = 0; k < SHOPS; k++) if ((r -= weights[k]!) < 0) return k;
    return SHOPS - 1;
  };
  const productIds = stores.map((s) => s.state.products().map((p) => p.id));
  const perShop = new Array<number>(SHOPS).fill(0);
  const kinds = { changed: 0, unchanged: 0, duplicate: 0 };
  let refused = 0;
  const refusals = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let next = 0;
  const recent: { shop: number; delivery: WebhookDelivery }[] = [];
  let milestones: { count: number; resolve: () => void }[] = [];
  const reached = (count: number) =>
    new Promise<void>((resolve) => {
      if (delivered >= count) resolve();
      else milestones.push({ count, resolve });
    });

  const deliverOne = async (k: number) => {
    const kind =
      k % 20 === 0 && recent.length > 0 ? "duplicate" : k % 8 === 1 ? "unchanged" : "changed";
    let shop: number;
    let delivery: WebhookDelivery;
    if (kind === "duplicate") {
      const earlier = recent[Math.floor(random() * recent.length)]!;
      shop = earlier.shop;
      delivery = await stores[shop]!.state.sendWebhook(
        "products/update",
        JSON.parse(earlier.delivery.body) as unknown,
        { webhookId: earlier.delivery.webhookId, triggeredAt: earlier.delivery.triggeredAt },
      );
    } else {
      shop = pickShop();
      const ids = productIds[shop]!;
      const id = ids[Math.floor(random() * ids.length)]!;
      if (kind === "changed") {
        const price = (10 + Math.floor(random() * 9_000) / 100).toFixed(2);
        stores[shop]!.state.updateProduct(id, { variants: [{ index: 0, price }] });
      }
      delivery = await stores[shop]!.state.sendWebhook("products/update", id);
      if (recent.length < 200) recent.push({ shop, delivery });
      else recent[k % 200] = { shop, delivery };
    }
    kinds[kind] += 1;
    perShop[shop]! += 1;
    if (delivery.status !== 200) {
      refused += 1;
      const why = delivery.status ? String(delivery.status) : (delivery.error ?? "no answer");
      refusals.set(why, (refusals.get(why) ?? 0) + 1);
    }
    latencies.push(delivery.durationMs);
    delivered += 1;
    if (milestones.some((m) => m.count <= delivered)) {
      for (const m of milestones) if (m.count <= delivered) m.resolve();
      milestones = milestones.filter((m) => m.count > delivered);
    }
    if (delivered % 10_000 === 0) note(`${delivered} delivered`);
    if (delivered % 1_000 === 0) {
      // This process keeps logs of everything sent and asked: not the app's memory, cleared.
      for (const store of stores) {
        store.state.clearWebhookDeliveries();
        store.state.clearRequests();
      }
      emulator.state.clearRequests();
    }
  };
  const lane = async () => {
    for (let k = next++; k < DELIVERIES; k = next++) await deliverOne(k);
  };

  // ── The resyncs, pressed in the demo admin as a merchant would ──
  let resyncsStarted = 0;
  let resyncsRefused = 0;
  let pagesLoaded = 0;
  const resyncOnce = async () => {
    await waitFor(
      "the previous full sync to finish",
      async () => (await prisma.syncRun.count({ where: { activeShop: shopDomain(0) } })) === 0,
      600_000,
    );
    const page = await fetch(new URL("/app", app.url));
    await page.text();
    if (page.status === 200) pagesLoaded += 1;
    const before = await prisma.syncRun.count({ where: { shopDomain: shopDomain(0) } });
    const pressed = await fetch(new URL("/app?index", app.url), {
      method: "POST",
      body: new URLSearchParams({ intent: "resync" }),
    });
    const text = await pressed.text();
    const after = await prisma.syncRun.count({ where: { shopDomain: shopDomain(0) } });
    if (pressed.status === 200 && /Resync started/.test(text) && after > before)
      resyncsStarted += 1;
    else resyncsRefused += 1;
  };
  const resyncs = async () => {
    for (let r = 0; r < RESYNCS; r++) {
      await reached(Math.round(WARM_UP + (r * (DELIVERIES - WARM_UP)) / RESYNCS));
      await resyncOnce();
      note(`resync ${r + 1} of ${RESYNCS} pressed`);
    }
  };

  // ── Memory samples ──
  const samples: Sample[] = [];
  const sample = async (label: string) => {
    const { vmRssMb, vmHwmMb } = procMemory(pid);
    const after = await memoryAfterGc(app.child);
    samples.push({
      label,
      delivered,
      vmRssMb,
      vmHwmMb,
      rssAfterGcMb: after.rss / 2 ** 20,
      heapAfterGcMb: after.heapUsed / 2 ** 20,
      openFiles: openFiles(pid),
    });
  };
  const timeline: (ReturnType<typeof procMemory> & { delivered: number; openFiles: number })[] = [];
  const timelineTimer = setInterval(
    () => timeline.push({ delivered, ...procMemory(pid), openFiles: openFiles(pid) }),
    5_000,
  );

  const started = performance.now();
  const stream = Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const resyncing = resyncs();
  await reached(Math.max(1, WARM_UP));
  await sample("start (after warm-up)");
  await reached(Math.round(DELIVERIES / 2));
  await sample("middle");
  await stream;
  const streamMs = performance.now() - started;
  await sample("end of the stream");
  note("stream done; waiting for the resyncs and the worker to finish");
  await resyncing;
  await waitFor(
    "the work to drain",
    async () =>
      (await prisma.pendingChange.count()) === 0 &&
      (await prisma.syncRun.count({ where: { activeShop: { not: null } } })) === 0 &&
      (await differences()) === 0,
    600_000,
  ).catch(() => undefined);
  const drainedMs = performance.now() - started;
  await sample("drained");
  clearInterval(timelineTimer);
  const lost = await differences();
  const outbox = await prisma.pendingChange.count();
  const runs = await prisma.syncRun.groupBy({ by: ["trigger", "state"], _count: true });
  await stopRoleProcess(app.child);
  await Promise.all(stores.map((s) => s.close()));
  await emulator.close();
  await prisma.$disconnect();

  // ── Figures ──
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  console.log(
    `Soak: ${DELIVERIES.toLocaleString("en")} products/update deliveries (${CONCURRENCY} in flight) over ${SHOPS} shops of ${PRODUCTS} products ` +
      `and ${RESYNCS} resyncs, one app server (production build, background work on, SQLite file)`,
  );
  console.log(
    `  deliveries: ${kinds.changed} after a real change, ${kinds.unchanged} after none, ${kinds.duplicate} duplicates; ` +
      `per shop ${perShop.join(" / ")}; answer p50 ${percentile(50)} ms, p99 ${percentile(99)} ms; ` +
      `non-200 answers ${refused}${refused ? ` (${[...refusals].map(([why, n]) => `${why}: ${n}`).join(", ")})` : ""}; ${(DELIVERIES / (streamMs / 1000)).toFixed(0)} deliveries/s; ` +
      `stream ${(streamMs / 60_000).toFixed(1)} min, drained ${(drainedMs / 60_000).toFixed(1)} min after the start`,
  );
  console.log(
    `  resyncs started from the Dashboard ${resyncsStarted} of ${RESYNCS} (refused ${resyncsRefused}), Dashboard loads ${pagesLoaded}; ` +
      `runs: ${runs.map((r) => `${r.trigger}/${r.state} ${r._count}`).join(", ")}`,
  );
  console.log(
    `  at the end: products differing from their store ${lost} (must be 0), outbox rows ${outbox}`,
  );
  console.log(
    "  server memory               delivered   VmRSS    VmHWM   after GC: RSS   heap used  open files",
  );
  for (const s of samples) {
    console.log(
      `  ${s.label.padEnd(26)} ${String(s.delivered).padStart(9)}  ${mb(s.vmRssMb).padStart(7)}  ${mb(s.vmHwmMb).padStart(7)}  ${mb(s.rssAfterGcMb).padStart(13)}  ${mb(s.heapAfterGcMb).padStart(10)}  ${String(s.openFiles).padStart(10)}`,
    );
  }
  const [start, middle, end] = samples;
  if (start && middle && end) {
    const grew = end.rssAfterGcMb - middle.rssAfterGcMb;
    const heapGrew = end.heapAfterGcMb - middle.heapAfterGcMb;
    const perThousand =
      (end.heapAfterGcMb - start.heapAfterGcMb) / ((end.delivered - start.delivered) / 1_000);
    console.log(
      `  baseline (start): end of stream − start: RSS after GC ${(end.rssAfterGcMb - start.rssAfterGcMb).toFixed(1)} MB, ` +
        `heap ${(end.heapAfterGcMb - start.heapAfterGcMb).toFixed(1)} MB (${(perThousand * 1024).toFixed(1)} KB per 1,000 deliveries)`,
    );
    console.log(
      `  flat: end of stream − middle: RSS after GC ${grew.toFixed(1)} MB, heap ${heapGrew.toFixed(1)} MB; ` +
        `tolerance ${TOLERANCE_MB} MB: ${grew <= TOLERANCE_MB && heapGrew <= TOLERANCE_MB ? "yes, flat" : "NO, it grows"}`,
    );
  }
  const step = Math.max(1, Math.ceil(timeline.length / 12));
  const every = timeline.filter((_, i) => i % step === 0);
  const series = (pick: (t: (typeof timeline)[number]) => number) =>
    every.map((t) => pick(t).toFixed(0)).join(" ");
  console.log(`  every ${5 * step} s: VmRSS ${series((t) => t.vmRssMb)} MB`);
  console.log(`    of which anonymous ${series((t) => t.rssAnonMb)} MB`);
  console.log(`    of which files     ${series((t) => t.rssFileMb)} MB`);
  console.log(`    open files         ${series((t) => t.openFiles)}`);
}
