/**
 * What each storefront domain costs (issue 24 item 9), printed; exits 1 only when a bound the
 * issue sets is broken (more writes than K × ceil(N/100) per kind, or any write on an unchanged
 * resync):
 *   npm run build && npx tsx bench/presences.bench.ts [--products 10000] [--presences 1,3,10]
 *
 * For each K, a fresh process runs the demo (the app's production build on a real HTTP server,
 * the fake Shopify and the service emulator, all in that process) with N generated products and
 * K storefronts: the primary domain, and K − 1 domains of their own, each with its own language
 * (enabled and published with Shopify's own mutations, no translations: every field falls back to
 * the primary language, as a storefront does). Then Settings saves the keys, which starts the
 * first full sync: the shop's export, then one translated export per domain, each sent to its
 * workspace. Printed per K: the wall time of the whole first sync, the time Shopify's bulk
 * operations took, the Admin API points, the service writes (and the bound), the process's peak
 * RSS and its rise during the sync; then an unchanged resync's writes, which must be 0.
 *
 * The service account is Enterprise with its quotas raised (10 copies of a 10,000-product
 * catalogue do not fit a month's quota on any plan): the app paces itself at Enterprise's 300
 * requests a minute, so the write count, not the service, sets the wall time at K = 10.
 */
import { execFile } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "10000" },
    presences: { type: "string", default: "1,3,10" },
    child: { type: "string" },
  },
});
const MB = 1024 * 1024;
/** A batch of items sent to the service (the bulk upsert), not a probe or a delete. */
const isSend =
  (kind: "products" | "posts") =>
  (request: { method: string; path: string }): boolean =>
    request.method === "POST" && request.path === `/${kind}/bulk`;
const LOCALES = ["fr", "es", "it", "nl", "sv", "da", "pl", "fi", "pt", "cs", "hu", "ro"];

interface Figures {
  presences: number;
  workspaces: number;
  products: number;
  posts: number;
  firstSyncSeconds: number;
  exportSeconds: number;
  bulkOperations: number;
  adminRequests: number;
  adminPoints: number;
  /** Batches of products sent (POST /products/bulk). */
  productWrites: number;
  postWrites: number;
  /** Every other write: each run's key probe, Settings' key check, deletes. */
  otherRequests: number;
  productBound: number;
  postBound: number;
  resyncWrites: number;
  resyncOther: number;
  resyncSeconds: number;
  baseRssMb: number;
  peakRssMb: number;
}

if (values.child) {
  console.log(JSON.stringify(await child(Number(values.child), Number(values.products))));
  process.exit(0);
} else {
  await main();
}

async function child(presences: number, products: number): Promise<Figures> {
  const { startDemo, DEMO_SHOP } = await import("../dev/demo/admin-demo");
  const demo = await startDemo({
    products,
    presences: "primary-only",
    saveKeys: false,
    keepRepeatedTitles: true,
    serviceAccount: {
      name: "presences",
      tier: "enterprise",
      quotas: { products: 1e9, posts: 1e9 },
    },
  });
  // The app's modules read the demo's database from the environment startDemo set.
  const { DEFAULT_MERCHANT_ACCESS_TOKEN } = await import("../dev/fake-shopify/server");
  const { adminFor } = await import("../app/shopify/admin-auth.server");
  const { refreshStorefrontPresences } = await import("../app/shopify/storefront-presences.server");
  const { saveSettings } = await import("../app/shop/save-settings.server");
  const { startShopSync } = await import("../app/sync/full/run-full-sync.server");
  const { findShop } = await import("../app/models/shops.server");
  const { storefrontPresencesOf } = await import("../app/models/storefront-presences.server");
  const { presenceWorkspacesOf } = await import("../app/sync/full/presence-workspaces.server");
  const prisma = (await import("../app/models/db.server")).default;
  const { samplePeakMemory } = await import("./peak-memory");

  const merchant = async (query: string, variables: Record<string, unknown>) => {
    const response = await fetch(demo.shopifyGraphqlUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-shopify-access-token": DEFAULT_MERCHANT_ACCESS_TOKEN,
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: Record<string, { userErrors?: unknown[] }> };
    const errors = Object.values(body.data ?? {}).flatMap((field) => field?.userErrors ?? []);
    if (!body.data || errors.length > 0)
      throw new Error(`the store refused: ${JSON.stringify(body)}`);
    return body.data;
  };
  // The merchant's K − 1 other storefronts: a language enabled and published, a domain, a presence.
  for (const locale of LOCALES.slice(0, presences - 1)) {
    await merchant(
      `mutation($locale: String!) { shopLocaleEnable(locale: $locale) { shopLocale { locale } userErrors { message } } }`,
      { locale },
    );
    await merchant(
      `mutation($locale: String!) { shopLocaleUpdate(locale: $locale, shopLocale: { published: true }) { shopLocale { locale } userErrors { message } } }`,
      { locale },
    );
    const domain = demo.shopify.state.addDomain(`demo-store.${locale}`, { webhook: false });
    await merchant(
      `mutation($input: WebPresenceCreateInput!) { webPresenceCreate(input: $input) { webPresence { id } userErrors { message } } }`,
      { input: { domainId: domain.id, defaultLocale: locale } },
    );
  }
  await demo.shopify.state.settled();
  await refreshStorefrontPresences(DEMO_SHOP, await adminFor(DEMO_SHOP));

  const allRunsEnded = async (since: Date, timeoutMs: number) => {
    const shop = (await findShop(DEMO_SHOP))!;
    const keys = presenceWorkspacesOf(
      shop,
      (await storefrontPresencesOf(DEMO_SHOP)).presences,
    ).workspaces.map((w) => w.ledgerKey);
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      const ended = await prisma.syncRun.findMany({
        where: {
          shopDomain: { in: [DEMO_SHOP, ...keys] },
          startedAt: { gte: since },
          state: { not: "running" },
        },
      });
      if (ended.length >= keys.length + 1) {
        const failed = ended.filter((run) => run.state !== "succeeded");
        if (failed.length > 0) throw new Error(`runs did not succeed: ${JSON.stringify(failed)}`);
        return keys.length;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("the sync did not end");
  };
  const writes = () =>
    demo.emulator.state
      .requests()
      .filter((r) => r.method !== "GET" && /^\/(products|posts)(\/|$)/.test(r.path));

  demo.shopify.state.clearRequests();
  demo.emulator.state.clearRequests();
  const bulkBefore = demo.shopify.state.bulkOperations().length;
  const memory = samplePeakMemory();
  const started = new Date();
  // The merchant saves the keys in Settings: the first full sync starts.
  const saved = await saveSettings(DEMO_SHOP, await adminFor(DEMO_SHOP), {
    ...demo.serviceKeys,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
  });
  if (!saved.ok) throw new Error(`the keys were refused: ${JSON.stringify(saved)}`);
  const workspaces = await allRunsEnded(started, 60 * 60_000);
  const firstSyncSeconds = (Date.now() - started.getTime()) / 1000;
  const peak = memory.stop();
  const bulk = demo.shopify.state.bulkOperations().slice(bulkBefore);
  const adminLog = demo.shopify.state.requests();
  const firstWrites = writes();
  const primary = demo.emulator.state.workspace("presences", demo.workspaceId);
  const productCount = primary?.products.length ?? 0;
  const postCount = primary?.posts.length ?? 0;

  demo.emulator.state.clearRequests();
  const resyncStarted = new Date(Date.now() + 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await startShopSync(DEMO_SHOP, "resync");
  await allRunsEnded(resyncStarted, 60 * 60_000);
  const resyncSeconds = (Date.now() - resyncStarted.getTime()) / 1000;
  const resyncAll = writes();
  const resyncWrites = resyncAll.filter((r) => isSend("products")(r) || isSend("posts")(r)).length;
  const resyncOther = resyncAll.length - resyncWrites;
  await demo.close();

  const K = workspaces + 1;
  return {
    presences,
    workspaces: K,
    products: productCount,
    posts: postCount,
    firstSyncSeconds,
    exportSeconds: bulk.reduce(
      (sum, op) =>
        sum + (op.completedAt ? (Date.parse(op.completedAt) - Date.parse(op.createdAt)) / 1000 : 0),
      0,
    ),
    bulkOperations: bulk.length,
    adminRequests: adminLog.length,
    adminPoints: adminLog.reduce((sum, entry) => sum + (entry.actualQueryCost ?? 0), 0),
    productWrites: firstWrites.filter(isSend("products")).length,
    postWrites: firstWrites.filter(isSend("posts")).length,
    otherRequests: firstWrites.filter((r) => !isSend("products")(r) && !isSend("posts")(r)).length,
    productBound: K * Math.ceil(productCount / 100),
    postBound: K * Math.ceil(postCount / 100),
    resyncWrites,
    resyncOther,
    resyncSeconds,
    baseRssMb: peak.baseRss / MB,
    peakRssMb: peak.peakRss / MB,
  };
}

async function main(): Promise<void> {
  const counts = values.presences.split(",").map(Number);
  const figures: Figures[] = [];
  for (const count of counts) {
    figures.push(await runChild(count));
    console.error(`${count} presence(s) done`);
  }
  const col = (label: string, of: (f: Figures) => string) =>
    console.log(`${label.padEnd(38)}${figures.map((f) => of(f).padStart(12)).join("")}`);
  const n = (x: number) => x.toLocaleString("en");
  console.log(
    `Storefront presences at ${n(Number(values.products))} products (the demo's store, Enterprise pace, node ${process.version})`,
  );
  col("storefronts (presences)", (f) => String(f.presences));
  col("workspaces filled", (f) => String(f.workspaces));
  col("first sync, wall (s)", (f) => f.firstSyncSeconds.toFixed(1));
  col("  Shopify bulk operations", (f) => String(f.bulkOperations));
  col("  their export time, summed (s)", (f) => f.exportSeconds.toFixed(1));
  col("  Admin API requests", (f) => n(f.adminRequests));
  col("  Admin API points", (f) => n(f.adminPoints));
  col("  product writes (bound K×⌈N/100⌉)", (f) => `${f.productWrites} (${f.productBound})`);
  col("  page/article writes (bound)", (f) => `${f.postWrites} (${f.postBound})`);
  col("  other writes (key checks, probes)", (f) => String(f.otherRequests));
  col("  peak RSS, whole process (MB)", (f) => f.peakRssMb.toFixed(0));
  col("  rise during the sync (MB)", (f) => (f.peakRssMb - f.baseRssMb).toFixed(0));
  col("unchanged resync, writes", (f) => String(f.resyncWrites));
  col("unchanged resync, other writes", (f) => String(f.resyncOther));
  col("unchanged resync, wall (s)", (f) => f.resyncSeconds.toFixed(1));
  const broken = figures.filter(
    (f) => f.productWrites > f.productBound || f.postWrites > f.postBound || f.resyncWrites > 0,
  );
  if (broken.length > 0) {
    console.log(`BOUND BROKEN at ${broken.map((f) => f.presences).join(", ")} presence(s)`);
    process.exitCode = 1;
  }
}

function runChild(presences: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        "--import",
        "tsx",
        import.meta.filename,
        "--child",
        String(presences),
        "--products",
        values.products,
      ],
      { maxBuffer: 64 * MB, env: process.env },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${presences} presence(s) failed: ${stderr.slice(-4000)}`));
          return;
        }
        const last = stdout.trim().split("\n").at(-1) ?? "";
        resolve(JSON.parse(last) as Figures);
      },
    );
  });
}
