import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  compareProductPriority,
  mapCatalogueItem,
  productPriorityKey,
  readBulkExport,
  type IndexProduct,
} from "../../../app/catalogue";
import { fileSource } from "../../../app/shopify/bulk-source";
import { IndexServiceClient } from "../../../app/index-service/client";
import { RATE_LIMITS, type Tier } from "../../../app/index-service/tiers";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import {
  generatedStore,
  indexableProductIds,
  numericIdOf,
  productLines,
  writeExport,
  type JsonLine,
} from "../../../testkit/catalogue-files";
import {
  contentWrites,
  indexedIds,
  startTestEmulator,
  type RunningEmulator,
} from "../../../testkit/emulator";
import prisma from "../../../app/models/db.server";
import * as engine from "../../../app/sync/engine/sync-export.server";
import { Pacer } from "../../../app/sync/engine/pacer";
import * as runs from "../../../app/models/sync-runs.server";
import { captureLogs } from "../../../testkit/capture-logs";

type Engine = typeof import("../../../app/sync/engine/sync-export.server");

let emulator: RunningEmulator;
let shops = 0;

beforeAll(async () => {
  await prepareAppEnvironment();
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

/** A shop of its own for each test: its own workspace and ledger. */
function newShop(tier: Tier = "enterprise") {
  const n = ++shops;
  const domain = `shop-${n}.example.com`;
  const workspaceId = `shop-${n}-example-com`;
  const key = `svc_sk_test_${tier}`;
  const client = new IndexServiceClient({ baseUrl: emulator.url, apiKey: key, workspaceId });
  const sync = (files: string[], options: Partial<Parameters<Engine["runFullSync"]>[0]> = {}) =>
    engine.runFullSync({
      shopDomain: domain,
      workspaceId,
      primaryDomain: domain,
      client,
      sources: files.map((file) => ({ label: file, open: fileSource(file) })),
      types: ["product", "page", "article"],
      trigger: "resync",
      pacer: new Pacer({ limits: RATE_LIMITS[tier], baseBackoffMs: 5, maxBackoffMs: 20 }),
      ...options,
    });
  const index = () => indexedIds(emulator, tier, workspaceId);
  const writes = () => contentWrites(emulator).filter((r) => r.workspaceId === workspaceId);
  return { domain, workspaceId, client, sync, index, writes };
}

/** The key check every run starts with (app/sync/engine/tier-detection.ts). */
const KEY_CHECK = "DELETE /products/bulk";
const requestsOf = (writes: readonly { method: string; path: string }[]) =>
  writes.map((w) => `${w.method} ${w.path}`);

const postIds = (lines: readonly JsonLine[]) =>
  lines
    .filter((l) => /\/(Page|Article)\//.test(l.id) && l.isPublished === true)
    .map((l) => `${l.id.includes("/Page/") ? "page" : "article"}-${numericIdOf(l.id)}`)
    .sort();

describe("a first sync", () => {
  it("indexes exactly the published items, in ceil(N/100) bulk requests per kind", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 250, pages: 12, articles: 9, seed: 11 });
    const result = await shop.sync([writeExport(store)]);

    const expectedProducts = indexableProductIds(store).sort();
    expect(shop.index().products).toEqual(expectedProducts);
    expect(shop.index().posts).toEqual(postIds(store));
    // Drafts, archived, unlisted and unpublished products are among the generated ones, not sent.
    expect(expectedProducts.length).toBeLessThan(productLines(store).length);

    const bulkUpserts = shop.writes().filter((w) => w.method === "POST");
    expect(bulkUpserts.every((w) => w.path.endsWith("/bulk"))).toBe(true);
    expect(bulkUpserts).toHaveLength(
      Math.ceil(expectedProducts.length / 100) + Math.ceil(postIds(store).length / 100),
    );
    expect(result.counts.products).toEqual({
      sent: expectedProducts.length,
      unchanged: 0,
      deleted: 0,
      overQuota: 0,
      failed: 0,
    });
    expect(result.run.state).toBe("succeeded");
  });
});

describe("what a first sync sends", () => {
  it("each item as the catalogue maps it, named in the ledger by its name or title", async () => {
    const shop = newShop();
    const file = writeExport(generatedStore({ products: 40, pages: 4, articles: 3, seed: 12 }));
    await shop.sync([file]);

    const mapped = new Map<string, { item: unknown; title: string }>();
    for await (const object of (await readBulkExport(fileSource(file))).items()) {
      const entry = mapCatalogueItem(object, { primaryDomain: shop.domain });
      if (!entry.indexable) continue;
      const title = "name" in entry.item ? entry.item.name : entry.item.title;
      mapped.set(entry.id, { item: entry.item, title });
    }
    const workspace = emulator.state.workspace("enterprise", shop.workspaceId);
    const held = [...(workspace?.products ?? []), ...(workspace?.posts ?? [])];
    expect(held).toHaveLength(mapped.size);
    for (const document of held) {
      expect({ ...document }).toEqual(mapped.get(String(document.id))?.item);
    }
    const ledger = await prisma.indexedItem.findMany({
      where: { workspaceId: shop.workspaceId },
      select: { itemId: true, title: true },
    });
    expect(ledger).toHaveLength(mapped.size);
    for (const row of ledger) expect(row.title).toBe(mapped.get(row.itemId)?.title);
  });
});

describe("an export whose child line comes before its product", () => {
  it("leaves the line out, and says so: counted on the run and logged", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 20, pages: 1, articles: 1, seed: 13 });
    const variantAt = store.findIndex((line) => /\/ProductVariant\//.test(line.id));
    const [variant] = store.splice(variantAt, 1);
    const parentAt = store.findIndex((line) => line.id === variant!.__parentId);
    store.splice(parentAt, 0, variant!);
    const logs = captureLogs();
    let runId: string;
    try {
      const result = await shop.sync([writeExport(store)]);
      runId = result.run.id;
      expect(result.run.state).toBe("succeeded");
      expect(result.counts.orphanLines).toBe(1);
      expect((await runs.runCounts(result.run)).orphanLines).toBe(1);
    } finally {
      logs.restore();
    }
    expect(logs.lines().filter((line) => line.level === "warn")).toEqual([
      expect.objectContaining({
        shop: shop.domain,
        runId,
        msg: expect.stringMatching(
          /1 variant, collection or media line\(s\) of Shopify's export came before their product .*left out/,
        ),
      }),
    ]);
  });
});

describe("a resync", () => {
  it("sends nothing when nothing changed, only what changed otherwise, and removes what is gone", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 60, pages: 3, articles: 3, seed: 12 });
    await shop.sync([writeExport(store)]);
    const before = shop.writes().length;

    const unchanged = await shop.sync([writeExport(store)]);
    // Only the run's key check (a bulk delete of an id nothing has): no item is sent.
    expect(requestsOf(shop.writes().slice(before))).toEqual([KEY_CHECK]);
    expect(unchanged.counts.products.sent).toBe(0);
    expect(unchanged.counts.products.unchanged).toBe(indexableProductIds(store).length);

    const products = productLines(store).filter(
      (p) => p.status === "ACTIVE" && p.onlineStoreUrl !== null,
    );
    const [renamed, drafted, removed] = products.slice(-3) as [JsonLine, JsonLine, JsonLine];
    const edited = store
      .filter((l) => l.id !== removed.id && l.__parentId !== removed.id)
      .map((l) =>
        l.id === renamed.id
          ? { ...l, title: "Renamed product" }
          : l.id === drafted.id
            ? { ...l, status: "DRAFT" }
            : l,
      );
    const beforeChange = shop.writes().length;
    const changed = await shop.sync([writeExport(edited)]);

    expect(changed.counts.products).toMatchObject({ sent: 1, deleted: 2, failed: 0 });
    expect(requestsOf(shop.writes().slice(beforeChange))).toEqual([
      KEY_CHECK,
      "POST /products/bulk",
      "DELETE /products/bulk",
    ]);
    const index = shop.index().products;
    expect(index).toContain(numericIdOf(renamed.id));
    expect(index).not.toContain(numericIdOf(drafted.id));
    expect(index).not.toContain(numericIdOf(removed.id));
    const stored = emulator.state
      .workspace("enterprise", shop.workspaceId)
      ?.products.find((p) => p.id === numericIdOf(renamed.id));
    expect(stored?.name).toBe("Renamed product");
  });

  it("deletes nothing after an export that did not complete", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 30, seed: 13 });
    await shop.sync([writeExport(store)]);
    const indexed = shop.index().products;

    const half = store.slice(0, Math.floor(store.length / 2));
    const partial = await shop.sync([writeExport(half)], { exportComplete: false });
    expect(partial.counts.products.deleted).toBe(0);
    expect(shop.index().products).toEqual(indexed);
  });
});

describe("rate limits and failures", () => {
  it("after a 429, sends nothing until retryAfter has passed, then delivers everything", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 450, seed: 14 });
    emulator.state.clearRequests();
    emulator.state.injectFault({
      status: 429,
      retryAfter: 1,
      count: 1,
      match: { method: "POST", path: "/products/bulk" },
    });
    // The fault hits the first bulk request; the emulator logs its time.
    const result = await shop.sync([writeExport(store)]);

    // A fault is answered before the key is read, so its log entry names no workspace.
    const writes = contentWrites(emulator);
    const limited = writes.findIndex((w) => w.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    const limitedAt = Date.parse(writes[limited]!.at);
    for (const later of writes.slice(limited + 1)) {
      expect(Date.parse(later.at)).toBeGreaterThanOrEqual(limitedAt + 1000);
    }
    expect(result.rateLimited).toBe(1);
    expect(shop.index().products).toEqual(indexableProductIds(store).sort());
  });

  it("retries 5xx and network failures with backoff and delivers everything", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 120, seed: 15 });
    emulator.state.injectFault({ status: 503, count: 3, match: { path: "/products/bulk" } });
    emulator.state.injectFault({ disconnect: true, count: 1, match: { path: "/products/bulk" } });
    const result = await shop.sync([writeExport(store)]);
    expect(result.run.state).toBe("succeeded");
    expect(shop.index().products).toEqual(indexableProductIds(store).sort());
  });

  it("halves a batch the service finds too large", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 90, seed: 16 });
    emulator.state.clearRequests();
    emulator.state.injectFault({
      status: 413,
      count: 1,
      match: { method: "POST", path: "/products/bulk" },
    });
    await shop.sync([writeExport(store)]);
    const sizes = contentWrites(emulator)
      .filter((w) => w.method === "POST")
      .map((w) => w.status);
    expect(sizes).toEqual([413, 200, 200]);
    expect(shop.index().products).toEqual(indexableProductIds(store).sort());
  });

  it("retries an item the service refused once, then reports it as failed", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 20, seed: 17 });
    const target = productLines(store).find(
      (p) => p.status === "ACTIVE" && p.onlineStoreUrl !== null,
    )!;
    // The service refuses an item without a name (the bulk answer lists it in failedItems).
    const edited = store.map((l) => (l.id === target.id ? { ...l, title: "" } : l));
    const result = await shop.sync([writeExport(edited)]);
    expect(result.counts.products.failed).toBe(1);
    expect(shop.writes().filter((w) => w.method === "POST")).toHaveLength(2);
    const item = await prisma.syncItem.findFirstOrThrow({
      where: { runId: result.run.id, status: "failed" },
    });
    expect(item.itemId).toBe(numericIdOf(target.id));
    expect(item.error).toMatch(/name/i);
  });

  it("stops with the reason on a revoked key before sending anything, and delivers everything once the key works", async () => {
    const shop = newShop("starter");
    const store = generatedStore({ products: 40, seed: 18 });
    const file = writeExport(store);
    emulator.state.revokeKey("svc_sk_test_starter");
    try {
      const error = await shop.sync([file], { tier: "starter" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(engine.SyncStoppedError);
      const stopped = error as InstanceType<Engine["SyncStoppedError"]>;
      expect(stopped.run.state).toBe("failed");
      expect(stopped.run.errorCode).toBe("UNAUTHORIZED");
      // The run's first call proved the key: nothing was staged or sent.
      expect(await prisma.syncItem.count({ where: { runId: stopped.run.id } })).toBe(0);
      expect(shop.writes().filter((w) => w.method === "POST")).toEqual([]);
      expect(shop.index().products).toEqual([]);
    } finally {
      emulator.state.restoreKey("svc_sk_test_starter");
    }
    await shop.sync([file], { tier: "starter" });
    expect(shop.index().products).toEqual(indexableProductIds(store).sort());
  });
});

describe("monthly quota", () => {
  it("sends the most deserving products within the quota and reports the rest as over quota", async () => {
    const shop = newShop("personal");
    const store = generatedStore({ products: 320, seed: 19 });
    const result = await shop.sync([writeExport(store)], { tier: "personal" });
    const indexable = indexableProductIds(store);
    expect(indexable.length).toBeGreaterThan(200);

    expect(result.counts.products.sent).toBe(200);
    expect(result.counts.products.overQuota).toBe(indexable.length - 200);
    expect(shop.index().products).toHaveLength(200);
    const held = await prisma.syncItem.findMany({
      where: { runId: result.run.id, status: "over_quota" },
    });
    expect(held[0]?.error).toMatch(/quota of 200 products is used up; it resets on \d{4}-\d{2}-01/);
    // Exactly the 200 most deserving by the catalogue's own priority (buyable, then recent).
    const file = writeExport(store);
    const mapped: IndexProduct[] = [];
    for await (const object of (await readBulkExport(fileSource(file))).items()) {
      const result = mapCatalogueItem(object, { primaryDomain: shop.domain });
      if (result.indexable && result.kind === "product") mapped.push(result.item);
    }
    const ranked = mapped.map(productPriorityKey).sort(compareProductPriority);
    expect(shop.index().products).toEqual(
      ranked
        .slice(0, 200)
        .map((k) => k.id)
        .sort(),
    );
  });
});

describe("durable runs", () => {
  it("a shop has one run at a time", async () => {
    const shop = newShop();
    const first = await runs.startRun({
      shopDomain: shop.domain,
      workspaceId: shop.workspaceId,
      trigger: "resync",
      sources: ["a"],
      exportedTypes: ["product"],
    });
    await expect(
      runs.startRun({
        shopDomain: shop.domain,
        workspaceId: shop.workspaceId,
        trigger: "resync",
        sources: ["b"],
        exportedTypes: ["product"],
      }),
    ).rejects.toBeInstanceOf(runs.RunInProgressError);
    await expect(shop.sync([writeExport([])])).rejects.toBeInstanceOf(runs.RunInProgressError);
    await runs.finishRun(first.id, { state: "succeeded" });
  });

  it("refuses a malformed export, naming the line, before sending anything", async () => {
    const shop = newShop();
    const store = generatedStore({ products: 5, seed: 20 }).map((l) => JSON.stringify(l));
    store.splice(3, 0, '{"id": "gid://shopify/Product/1", "title": ');
    await expect(shop.sync([writeExport(store)])).rejects.toThrow(/Line 4 /);
    expect(shop.writes()).toHaveLength(0);
  });
});
