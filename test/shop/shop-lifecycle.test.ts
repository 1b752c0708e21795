import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  indexableProduct,
  indexEqualsStore,
  installShop,
  PUBLISHABLE_KEY,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  waitForRunsToFinish,
  WORKSPACE,
  writesSince,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { startShopSync } from "../../app/sync/full/run-full-sync.server";
import { ShopLeases } from "../../app/sync/engine/process-leases.server";
import { reconcileDueShops } from "../../app/sync/full/scheduled-full-sync.server";
import { latestWorkspaceMove } from "../../app/shop/leave-former-workspace.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { saveSettings } from "../../app/shop/save-settings.server";

type Worker = Awaited<ReturnType<typeof startTestWorker>>;

let env: LiveEnvironment;
let worker: Worker | undefined;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 25, pages: 3, articles: 3 });
  await installShop(env);
}, 120_000);

afterEach(async () => {
  // A test that failed while holding finish webhooks does not stall the next one's runs.
  env.shopify.state.releaseFinishWebhooks();
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await env?.close();
});

const shop = () => env.prisma.shop.findUnique({ where: { shopDomain: SHOP } });

describe("while a full sync runs", () => {
  it("live changes wait, and are applied after it", async () => {
    // The exports' finish notices wait, so the run is still under way when the change comes.
    env.shopify.state.holdFinishWebhooks();
    const earlierExports = env.shopify.state.bulkOperations().length;
    const run = await startShopSync(SHOP, "resync");
    await waitFor(
      "the run to request its export",
      async () =>
        (await env.prisma.bulkExport.count({ where: { runId: run.id, type: "product" } })) > 0,
    );
    // The change comes after the export's file is written, so only a read after the run can
    // bring it (Shopify's exports are not snapshots: a change made while one is written may be
    // in it, and then no read is needed at all).
    await waitFor("the product export's file to be written", () =>
      env.shopify.state
        .bulkOperations()
        .slice(earlierExports)
        .some(
          (operation) =>
            /^\{\s*products\b/.test(operation.query) && operation.status === "COMPLETED",
        ),
    );
    expect((await env.prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).state).toBe(
      "running",
    );
    const product = indexableProduct(env, 0);
    const changes = env.shopify.state.webhookDeliveries("products/update").length;
    env.shopify.state.updateProduct(
      product.id,
      { title: "Changed during the resync" },
      { webhook: true },
    );
    await waitFor(
      "the change's webhook to be answered",
      () => env.shopify.state.webhookDeliveries("products/update")[changes]?.status === 200,
    );
    expect((await env.prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).state).toBe(
      "running",
    );
    env.shopify.state.releaseFinishWebhooks();
    await env.shopify.state.settled();
    const shopifyCalls = env.shopify.state.requests().length;
    worker = await startTestWorker();

    await waitForRunsToFinish(env);
    await waitForEmptyOutbox(env);
    await waitForIndexToEqualStore(env);
    const finished = await env.prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } });
    const rereads = env.shopify.state
      .requests()
      .slice(shopifyCalls)
      .filter((r) => r.operationName === "ProductsByIds");
    expect(rereads.length).toBeGreaterThan(0);
    for (const read of rereads) {
      expect(Date.parse(read.at)).toBeGreaterThanOrEqual(finished.finishedAt!.getTime());
    }
  });
});

describe("reconciliation", () => {
  it("finds a product change whose webhook never came", async () => {
    await env.prisma.syncRun.updateMany({
      data: { startedAt: new Date(Date.now() - 25 * 3600_000) },
    });
    const product = indexableProduct(env, 1);
    env.shopify.state.updateProduct(product.id, { title: "Changed without a webhook" });
    expect(await indexEqualsStore(env)).toBe(false);

    const leases = new ShopLeases("reconcile-test");
    expect(await reconcileDueShops(leases, 24)).toEqual([SHOP]);
    // A second check right after finds nothing due.
    expect(await reconcileDueShops(leases, 24)).toEqual([]);
    await waitForRunsToFinish(env);
    await waitForIndexToEqualStore(env);
    const run = await env.prisma.syncRun.findFirstOrThrow({ orderBy: { startedAt: "desc" } });
    expect(run).toMatchObject({ trigger: "reconcile", state: "succeeded" });
  });
});

describe("shop/update", () => {
  it("moves the index to the new domain's workspace and empties the old one", async () => {
    const delivery = await env.shopify.state.setPrimaryDomain("www.renamed-store.example");
    expect(delivery?.status).toBe(200);
    const moved = await shop();
    expect(moved).toMatchObject({
      primaryDomain: "www.renamed-store.example",
      workspaceId: "www-renamed-store-example",
    });
    await waitForRunsToFinish(env);
    worker = await startTestWorker();
    await waitFor("the old workspace to be emptied", () => {
      const old = env.emulator.state.workspace(ACCOUNT, WORKSPACE);
      return (old?.products.length ?? 0) === 0 && (old?.posts.length ?? 0) === 0;
    });
    await waitForIndexToEqualStore(env, 30_000, "www-renamed-store-example");
    // The ledger forgets the old workspace's items once the service answered their removal: a
    // moment after the emulator is empty (the dashboard's "still being removed" until then).
    await waitFor(
      "the move to leave nothing in the old workspace",
      async () => (await latestWorkspaceMove(SHOP))?.leftInOldWorkspace === 0,
    );
    expect(await latestWorkspaceMove(SHOP)).toMatchObject({
      from: WORKSPACE,
      to: "www-renamed-store-example",
      leftInOldWorkspace: 0,
    });
    // Items carry the new storefront URLs.
    const item = env.emulator.state.workspace(ACCOUNT, "www-renamed-store-example")?.products[0];
    expect(String(item?.url)).toMatch(/^https:\/\/www\.renamed-store\.example\//);
  });

  it("a repeated or late shop/update changes nothing", async () => {
    const runs = await env.prisma.syncRun.count();
    const late = { ...env.shopify.state.shop(), domain: "live-store.example.com" };
    const delivery = await env.shopify.state.sendWebhook("shop/update", late);
    expect(delivery.status).toBe(200);
    expect((await shop())?.workspaceId).toBe("www-renamed-store-example");
    expect(await env.prisma.syncRun.count()).toBe(runs);
  });
});

describe("a workspace saved another way (Settings)", () => {
  it("is indexed first; then the items leave the workspace before it", async () => {
    const saved = await saveSettings(SHOP, await adminFor(SHOP), {
      secretKey: "",
      publishableKey: PUBLISHABLE_KEY,
      workspaceOverride: "catalog.example.org",
      syncProducts: true,
      syncPages: true,
      syncArticles: true,
    });
    expect(saved.ok).toBe(true);
    worker = await startTestWorker();
    await waitForIndexToEqualStore(env, 30_000, "catalog-example-org");
    await waitFor("the previous workspace to be emptied", () => {
      const old = env.emulator.state.workspace(ACCOUNT, "www-renamed-store-example");
      return (old?.products.length ?? 0) === 0 && (old?.posts.length ?? 0) === 0;
    });
    expect(await latestWorkspaceMove(SHOP)).toMatchObject({
      from: "www-renamed-store-example",
      to: "catalog-example-org",
      leftInOldWorkspace: 0,
    });
  });
});

describe("app/uninstalled and shop/redact", () => {
  it("uninstalling stops the shop's work at once and drops its pending changes", async () => {
    for (let i = 2; i < 8; i++) {
      env.shopify.state.updateProduct(
        indexableProduct(env, i).id,
        { tags: ["gone"] },
        { webhook: true },
      );
    }
    await env.shopify.state.settled();
    expect(await env.prisma.pendingChange.count()).toBe(6);
    // Batches of two; the service holds the first one while the app is uninstalled.
    env.emulator.state.injectFault({
      delayMs: 1_000,
      match: { method: "POST", path: "/products/bulk" },
    });
    worker = await startTestWorker({ batchSize: 2 });
    await waitFor(
      "the first batch to reach the service",
      () => env.emulator.state.faults().length === 0,
    );

    const uninstalled = await env.shopify.state.sendWebhook("app/uninstalled");
    expect(uninstalled.status).toBe(200);
    const uninstalledAt = Date.now();
    expect(await env.prisma.pendingChange.count()).toBe(0);
    expect((await shop())?.state).toBe("uninstalled");

    // Deliveries after the uninstall are answered and ignored.
    const late = await env.shopify.state.sendWebhook(
      "products/update",
      indexableProduct(env, 9).id,
    );
    expect(late.status).toBe(200);
    expect(await env.prisma.pendingChange.count()).toBe(0);
    await worker.stop();
    const after = writesSince(env).filter((w) => Date.parse(w.at) >= uninstalledAt);
    expect(after).toEqual([]);
  });

  it("shop/redact removes the shop's items from the index, then all of its data", async () => {
    const workspace = "catalog-example-org";
    expect(env.emulator.state.workspace(ACCOUNT, workspace)?.products.length).toBeGreaterThan(0);
    const redact = await env.shopify.state.sendWebhook("shop/redact", {
      shop_id: 1,
      shop_domain: SHOP,
    });
    expect(redact.status).toBe(200);
    const left = env.emulator.state.workspace(ACCOUNT, workspace);
    expect(left?.products ?? []).toEqual([]);
    expect(left?.posts ?? []).toEqual([]);
    expect(await shop()).toBeNull();
    expect(await env.prisma.indexedItem.count({ where: { shopDomain: SHOP } })).toBe(0);
  });
});
