/**
 * A primary-domain change (shop/update) moves the catalogue to the new domain's workspace without
 * the storefront chat ever asking an empty one: the storefront configuration (the app-data
 * metafield in the fake store) names the new workspace only once it holds the whole catalogue,
 * and the old workspace is emptied only after that. With the month's quota too short to fill the
 * new workspace, the old one stays, the storefront keeps asking it, and the dashboard says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  expectedProducts,
  installShop,
  PUBLISHABLE_KEY,
  SHOP,
  startLiveEnvironment,
  waitFor,
  waitForIndexToEqualStore,
  waitForRunsToFinish,
  WORKSPACE,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { maintain } from "../../app/sync/live/maintenance.server";
import { ShopMemory } from "../../app/sync/live/worker-context";
import { KeptLeases } from "../../app/sync/live/kept-leases";
import { PacerRegistry } from "../../app/sync/engine/pacer-registry.server";
import { ShopLeases } from "../../app/sync/engine/process-leases.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { serviceClientFor } from "../../app/shop/service-keys.server";
import { dashboardOf } from "../../app/admin/dashboard.server";
import { nextQuotaReset } from "../../app/index-service/tiers";
import { formatDay } from "../../app/format";
import { saveSettings } from "../../app/shop/save-settings.server";
import { startShopSync } from "../../app/sync/full/run-full-sync.server";

type WorkerContext = import("../../app/sync/live/worker-context").WorkerContext;

let env: LiveEnvironment;

beforeAll(async () => {
  // The Personal plan's 200 products a month: the first sync spends most of it, so the move's
  // full sync (every product new to the new workspace) cannot send them all.
  env = await startLiveEnvironment({
    products: 150,
    pages: 2,
    articles: 2,
    account: { tier: "personal", quotas: undefined },
  });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

/** The workspace the storefront chat is told to ask: the app-data metafield, as the theme reads it. */
function storefrontWorkspace(): string | undefined {
  const saved = env.shopify.state.metafields().find((m) => m.key === "config");
  return saved ? (JSON.parse(saved.value) as { workspaceId?: string }).workspaceId : undefined;
}

const productsIn = (workspaceId: string) =>
  env.emulator.state.workspace(ACCOUNT, workspaceId)?.products.length ?? 0;

/**
 * One pass of the live worker's maintenance (what it does every minute), awaited to its end: the
 * pass that empties the workspaces a shop has left, once it may.
 */
async function maintenancePass(): Promise<void> {
  const tasks: Promise<void>[] = [];
  const failures: unknown[] = [];
  const leases = new ShopLeases("domain-move-test", 3_000);
  const worker: WorkerContext = {
    coalesceMs: 0,
    batchSize: 100,
    quotaProbeEveryMs: 3_600_000,
    backlogResyncAt: 250,
    registry: new PacerRegistry({ baseBackoffMs: 5, maxBackoffMs: 40 }),
    leases,
    keptLeases: new KeptLeases(leases, 0),
    admin: adminFor,
    serviceClient: serviceClientFor,
    now: () => new Date(),
    log: (message, error) => {
      if (error !== undefined) failures.push(error);
    },
    memory: new ShopMemory({ baseMs: 20, maxMs: 200 }, () => new Date()),
    stopped: () => false,
    launch: (_shopDomain, work) => {
      tasks.push(work());
    },
  };
  await maintain(worker);
  await Promise.all(tasks);
  if (failures.length > 0) throw failures[0];
}

async function dashboard() {
  return dashboardOf(SHOP, await adminFor(SHOP));
}

describe("a domain change with the month's quota too short to fill the new workspace", () => {
  const NEW_DOMAIN = "shop.renamed-store.example";
  const NEW_WORKSPACE = "shop-renamed-store-example";

  it("keeps the old workspace and the storefront on it, and the dashboard says what is missing and why", async () => {
    const catalogue = (await expectedProducts(env)).size;
    expect(productsIn(WORKSPACE)).toBe(catalogue);
    expect(storefrontWorkspace()).toBe(WORKSPACE);

    await env.shopify.state.setPrimaryDomain(NEW_DOMAIN);
    await waitForRunsToFinish(env);
    const sentToNew = productsIn(NEW_WORKSPACE);
    expect(sentToNew).toBeGreaterThan(0);
    expect(sentToNew).toBeLessThan(catalogue);

    await maintenancePass();
    await maintenancePass();
    // Nothing of the old workspace was removed, and the storefront still asks it.
    expect(productsIn(WORKSPACE)).toBe(catalogue);
    expect(storefrontWorkspace()).toBe(WORKSPACE);

    const page = await dashboard();
    expect(page.move?.text).toBe(
      `Your storefront domain changed to ${NEW_DOMAIN}. The catalogue stays in workspace ${WORKSPACE} until the move can finish: ${catalogue - sentToNew} products could not be sent this month (quota resets on ${formatDay(nextQuotaReset(new Date()))}).`,
    );
    expect(page.move?.oldPlace).toMatch(
      `The storefront chat keeps asking workspace ${WORKSPACE}, which still holds the catalogue.`,
    );
    expect(page.storefrontWorkspaceId).toBe(WORKSPACE);
    // The storefront's workspace holds the catalogue: connected is true.
    expect(page.connection.kind).toBe("connected");

    // Saving Settings meanwhile (naming no other workspace) leaves the storefront on the full one.
    const saved = await saveSettings(SHOP, await adminFor(SHOP), {
      secretKey: "",
      publishableKey: PUBLISHABLE_KEY,
      workspaceOverride: "",
      syncProducts: true,
      syncPages: true,
      syncArticles: true,
    });
    expect(saved.ok).toBe(true);
    expect(storefrontWorkspace()).toBe(WORKSPACE);
  });

  it("a later run with the quota back finishes the move: the storefront follows, then the old workspace is emptied", async () => {
    // The quota comes back (a bigger plan at the service; the app's count of the month forgotten,
    // as when the month turns), and the merchant presses Resync.
    env.emulator.state.setAccount(ACCOUNT, { tier: "professional" });
    await env.prisma.quotaUsage.deleteMany({ where: { shopDomain: SHOP } });
    await startShopSync(SHOP, "resync");
    await waitForRunsToFinish(env);
    await waitForIndexToEqualStore(env, 30_000, NEW_WORKSPACE);
    // Written as the run ends, once it found the new workspace filled.
    await waitFor("the storefront to name the new workspace", () => {
      return storefrontWorkspace() === NEW_WORKSPACE;
    });

    await maintenancePass();
    expect(productsIn(WORKSPACE)).toBe(0);
    const page = await dashboard();
    expect(page.storefrontWorkspaceId).toBe(NEW_WORKSPACE);
    expect(page.connection.kind).toBe("connected");
  });
});

describe("two domain changes in a row, and a replayed delivery", () => {
  it("end with the last domain: the storefront names its workspace, the two before are emptied", async () => {
    const before = env.shopify.state.shop().primaryDomain;
    const first = await env.shopify.state.setPrimaryDomain("first.renamed-store.example");
    const second = await env.shopify.state.setPrimaryDomain("second.renamed-store.example");
    expect([first?.status, second?.status]).toEqual([200, 200]);
    // The first delivery again, late: the domain is read from Shopify, so nothing moves back.
    const replay = await env.shopify.state.sendWebhook("shop/update", {
      ...env.shopify.state.shop(),
      domain: "first.renamed-store.example",
    });
    expect(replay.status).toBe(200);
    await waitForRunsToFinish(env);

    // The worker starts the run into the last domain's workspace, the storefront follows it
    // once it is filled, and only then are the others emptied.
    await waitFor(
      "the storefront to name the last domain's workspace",
      async () => {
        await maintenancePass();
        await waitForRunsToFinish(env);
        return storefrontWorkspace() === "second-renamed-store-example";
      },
      60_000,
    );
    await waitForIndexToEqualStore(env, 30_000, "second-renamed-store-example");
    await maintenancePass();
    expect(productsIn(before.replaceAll(".", "-"))).toBe(0);
    expect(productsIn("first-renamed-store-example")).toBe(0);
    const shop = await env.prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOP } });
    expect(shop).toMatchObject({
      primaryDomain: "second.renamed-store.example",
      workspaceId: "second-renamed-store-example",
      storefrontWorkspaceId: "second-renamed-store-example",
    });
  }, 120_000);
});
