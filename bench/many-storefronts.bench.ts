/**
 * Settings with thousands of storefront domains (issue 24, decision 0049), printed:
 *   npm run build && npx tsx bench/many-storefronts.bench.ts [--presences 3000]
 *
 * The demo (the app's production build on a real HTTP server, the fake Shopify and the service
 * emulator, in this process) with 5 products and its keys saved; syncing is paused as a merchant
 * pauses it, so no domain's workspace is filled while this measures. The fake store then gets
 * N − 1 domains of its own, each with a web presence (testkit/many-presences.ts); the app reads
 * them from the Admin API, and Settings is asked for its first, second and last page of
 * "Markets and languages". Printed: the read's time and queries, the Settings loader's time
 * (median of 5, in process), its data's size, and the HTML of the page over HTTP (time, bytes);
 * then the same with every domain's workspace set down as filled, and the time to decide every
 * domain's standing in one pass beside a domain at a time.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { presences: { type: "string", default: "3000" } } });
const total = Number(values.presences);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { startDemo, DEMO_SHOP } = await import("../dev/demo/admin-demo");
const demo = await startDemo({ products: 5, presences: "primary-only", saveKeys: true });
try {
  await demo.firstSync;
  const { pauseSyncing } = await import("../app/shop/merchant-pause.server");
  const { adminFor } = await import("../app/shopify/admin-auth.server");
  const { refreshStorefrontPresences } = await import("../app/shopify/storefront-presences.server");
  const { settingsPageOf } = await import("../app/admin/settings-page.server");
  const { addDomainPresences, setDownAsFilled } = await import("../testkit/many-presences");
  console.log(`pause: ${(await pauseSyncing(DEMO_SHOP)).message}`);

  let started = performance.now();
  await addDomainPresences(demo.shopify, total - 1);
  console.log(
    `made ${total - 1} domain presences in the fake store: ${ms(performance.now() - started)}`,
  );

  const admin = await adminFor(DEMO_SHOP);
  started = performance.now();
  const outcome = await refreshStorefrontPresences(DEMO_SHOP, admin);
  const read = outcome.kind === "read" ? outcome.presences.length : outcome.kind;
  console.log(`read from the Admin API: ${read} presences in ${ms(performance.now() - started)}`);

  const pages = Math.ceil(total / 50);
  const measurePages = async (label: string) => {
    for (const page of [1, 2, pages]) {
      const times: number[] = [];
      let size = 0;
      for (let run = 0; run < 5; run++) {
        started = performance.now();
        const data = await settingsPageOf(DEMO_SHOP, admin, page);
        times.push(performance.now() - started);
        size = JSON.stringify(data).length;
      }
      started = performance.now();
      const response = await fetch(`${demo.adminUrl}/settings?storefronts=${page}`);
      const html = await response.text();
      const httpMs = performance.now() - started;
      const showing =
        /Showing [^<]*? of [^<]*?storefront URLs/.exec(html)?.[0] ?? "(no paging line)";
      const boxes = (html.match(/name="shown"/g) ?? []).length;
      console.log(
        `${label}, page ${page}: loader ${ms(median(times))} (median of 5), data ${kb(size)}; ` +
          `HTML ${response.status} ${kb(html.length)} in ${ms(httpMs)}, ${boxes} boxes; "${showing}"`,
      );
    }
  };
  await measurePages("none filled");

  // Every domain's workspace set down as filled (filling thousands takes hours): the loader then
  // decides each one's standing, and the configuration names those that fit in 128 KB.
  const { findShop } = await import("../app/models/shops.server");
  const { storefrontPresencesOf } = await import("../app/models/storefront-presences.server");
  const { presenceWorkspacesOf } = await import("../app/sync/full/presence-workspaces.server");
  const { domainWorkspaceStanding, filledWorkspaceKeys } =
    await import("../app/sync/full/domain-workspace-standing.server");
  const { workspaces } = presenceWorkspacesOf(
    (await findShop(DEMO_SHOP))!,
    (await storefrontPresencesOf(DEMO_SHOP)).presences,
  );
  await setDownAsFilled(workspaces);
  const keys = workspaces.map((workspace) => workspace.ledgerKey);
  started = performance.now();
  const filled = await filledWorkspaceKeys(keys);
  console.log(
    `${workspaces.length} domains filled: their standing in one pass (filledWorkspaceKeys) ${ms(performance.now() - started)}, ${filled.size} filled`,
  );
  started = performance.now();
  let oneByOne = 0;
  for (const key of keys) {
    if ((await domainWorkspaceStanding(key)).kind === "filled") oneByOne += 1;
  }
  console.log(
    `the same, a domain at a time (domainWorkspaceStanding, one query each): ${ms(performance.now() - started)}, ${oneByOne} filled`,
  );
  await measurePages("all filled");
} finally {
  await demo.close();
}
