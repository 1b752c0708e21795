/**
 * A live pass's one read of the ledger (`batchLedger`, decision 0053): the rows of the batch's
 * products in the shop's workspace and in its storefront domains' workspaces, in as few statements
 * as 50 workspaces a statement allow. Each workspace gets its own hashes (never another's, never
 * another shop's), only the first one its kept documents, and the stock model of the batch comes
 * back with every level of every variant, on its own or in the ledger's first statement; or in the
 * pass's first statement (passStart), for the changes it reads. On the run's database (SQLite, or
 * PostgreSQL with TEST_DATABASE=postgresql).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import {
  batchLedger,
  recordDelivered,
  type BatchLedger,
  type LedgerScope,
} from "../../app/models/ledger.server";
import { ledgerReadWith, passStart } from "../../app/models/live-pass.server";
import { modelledProducts } from "../../app/models/stock-model.server";

const SHOP = "batch-ledger.myshopify.com";
const OTHER = "batch-ledger-other.myshopify.com";
const own: LedgerScope = { shopDomain: SHOP, workspaceId: "batch-ledger-com" };
/** 60 storefront domains: two statements' worth. */
const domains: LedgerScope[] = Array.from({ length: 60 }, (_, index) => ({
  shopDomain: `${SHOP}#batch-ledger-d${index}`,
  workspaceId: `batch-ledger-d${index}`,
}));

const delivered = (id: string, hash: string) => ({
  itemId: id,
  contentHash: hash,
  title: `Product ${id}`,
  collectionIds: ",7,",
  content: JSON.stringify({ id, name: `Product ${id}` }),
});

const clear = async () => {
  await prisma.indexedItem.deleteMany({
    where: { shopDomain: { in: [SHOP, OTHER, ...domains.map((d) => d.shopDomain)] } },
  });
  await prisma.stockLevel.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.stockItem.deleteMany({ where: { shopDomain: SHOP } });
};

beforeAll(async () => {
  await prepareAppEnvironment();
  await clear();
  const at = new Date();
  await recordDelivered(
    own,
    "product",
    [delivered("1", "own-1"), delivered("2", "own-2")],
    "r",
    at,
  );
  // The same ids in the shop's former workspace and in another shop: never read.
  await recordDelivered(
    { shopDomain: SHOP, workspaceId: "batch-ledger-former" },
    "product",
    [delivered("1", "former-1")],
    "r",
    at,
  );
  await recordDelivered(
    { shopDomain: OTHER, workspaceId: own.workspaceId },
    "product",
    [delivered("2", "other-2")],
    "r",
    at,
  );
  for (const [index, domain] of domains.entries()) {
    await recordDelivered(domain, "product", [delivered("1", `d${index}-1`)], "r", at);
  }
});

afterAll(clear);

/** Every variant with its levels (tracked, policy, available, changedAt), in a fixed order. */
const ordered = (models: BatchLedger["models"]) =>
  [...models.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, variants]) => [
      id,
      [...variants]
        .sort((a, b) => a.variantId.localeCompare(b.variantId))
        .map((v) => ({
          ...v,
          levels: [...v.levels].sort((a, b) => a.locationId.localeCompare(b.locationId)),
        })),
    ]);

describe("batchLedger", () => {
  it("gives each workspace its own hashes and the shop's workspace its documents", async () => {
    const ledger = await batchLedger([own, ...domains], "product", ["1", "2", "3"]);
    expect(Object.fromEntries(ledger.hashesIn(own))).toEqual({ "1": "own-1", "2": "own-2" });
    expect(Object.fromEntries(ledger.hashesIn(domains[0]!))).toEqual({ "1": "d0-1" });
    // The 60th domain is read by the second statement.
    expect(Object.fromEntries(ledger.hashesIn(domains[59]!))).toEqual({ "1": "d59-1" });
    expect([...ledger.documents.keys()].sort()).toEqual(["1", "2"]);
    expect(ledger.documents.get("1")).toEqual({
      contentHash: "own-1",
      content: JSON.stringify({ id: "1", name: "Product 1" }),
      collectionIds: ",7,",
    });
    // A workspace not read with the batch knows nothing.
    expect(ledger.hashesIn({ shopDomain: SHOP, workspaceId: "batch-ledger-former" }).size).toBe(0);
  });

  it("reads nothing for an empty batch", async () => {
    const ledger = await batchLedger([own], "product", []);
    expect(ledger.hashesIn(own).size).toBe(0);
    expect(ledger.documents.size).toBe(0);
  });
});

describe("modelledProducts", () => {
  it("returns every variant of the batch's products with all its levels, one without levels too", async () => {
    const changedAt = new Date("2026-11-27T12:00:00.000Z");
    await prisma.stockItem.createMany({
      data: [
        {
          shopDomain: SHOP,
          inventoryItemId: "i1",
          productId: "1",
          variantId: "v1",
          tracked: true,
          inventoryPolicy: "DENY",
          readAt: changedAt,
        },
        {
          shopDomain: SHOP,
          inventoryItemId: "i2",
          productId: "1",
          variantId: "v2",
          tracked: false,
          inventoryPolicy: "CONTINUE",
          readAt: changedAt,
        },
        {
          shopDomain: SHOP,
          inventoryItemId: "i3",
          productId: "2",
          variantId: "v3",
          tracked: true,
          inventoryPolicy: "DENY",
          readAt: changedAt,
        },
      ],
    });
    await prisma.stockLevel.createMany({
      data: [
        { shopDomain: SHOP, inventoryItemId: "i1", locationId: "L1", available: 3, changedAt },
        { shopDomain: SHOP, inventoryItemId: "i1", locationId: "L2", available: 4, changedAt },
        { shopDomain: SHOP, inventoryItemId: "i3", locationId: "L1", available: 0, changedAt },
      ],
    });
    const models = await modelledProducts(SHOP, ["1", "2", "9"]);
    expect(models.has("9")).toBe(false);
    const first = models.get("1")!.sort((a, b) => a.variantId.localeCompare(b.variantId));
    expect(first.map((v) => [v.variantId, v.tracked, v.inventoryPolicy])).toEqual([
      ["v1", true, "DENY"],
      ["v2", false, "CONTINUE"],
    ]);
    expect(
      first[0]!.levels
        .map((level) => [level.locationId, level.available, level.changedAt?.toISOString()])
        .sort(),
    ).toEqual([
      ["L1", 3, changedAt.toISOString()],
      ["L2", 4, changedAt.toISOString()],
    ]);
    expect(first[1]!.levels).toEqual([]);
    expect(models.get("2")![0]!.levels.map((level) => level.available)).toEqual([0]);

    // Read with the batch's ledger, in the ledger's first statement: the same model, and the
    // same ledger as without it.
    const withModels = await batchLedger([own, ...domains], "product", ["1", "2", "9"], SHOP);
    expect(ordered(withModels.models)).toEqual(ordered(models));
    const without = await batchLedger([own, ...domains], "product", ["1", "2", "9"]);
    expect(without.models.size).toBe(0);
    expect(Object.fromEntries(withModels.hashesIn(own))).toEqual(
      Object.fromEntries(without.hashesIn(own)),
    );
    expect(Object.fromEntries(withModels.hashesIn(domains[59]!))).toEqual({ "1": "d59-1" });
    expect(withModels.documents).toEqual(without.documents);
  });
});

describe("the ledger read with the pass's first statement", () => {
  const scopes: [LedgerScope, ...LedgerScope[]] = [own, domains[0]!, domains[59]!];
  const sorted = (ledger: BatchLedger, scope: LedgerScope) =>
    Object.fromEntries([...ledger.hashesIn(scope)].sort());
  const changes = async (shopDomain: string, ids: string[]) => {
    for (const [index, productId] of ids.entries()) {
      await prisma.pendingChange.create({
        data: {
          shopDomain,
          productId,
          change: "update",
          changedAt: new Date(Date.now() - 10_000 + index),
          receivedAt: new Date(Date.now() - 10_000 + index),
        },
      });
    }
  };
  const clearChanges = () =>
    prisma.pendingChange.deleteMany({ where: { shopDomain: { in: [SHOP, OTHER] } } });
  afterAll(clearChanges);

  it("is batchLedger's answer for the changes' products, and the changes are as without it", async () => {
    await clearChanges();
    await changes(SHOP, ["1", "2", "9"]);
    await changes(OTHER, ["2"]);
    const read = await passStart(SHOP, "2026-12", { limit: 100, except: [], ledger: { scopes } });
    const alone = await batchLedger(scopes, "product", ["1", "2", "9"], SHOP);
    const ledger = ledgerReadWith(read.ledger, scopes)!;
    for (const scope of scopes) expect(sorted(ledger, scope)).toEqual(sorted(alone, scope));
    expect(sorted(ledger, own)).toEqual({ "1": "own-1", "2": "own-2" });
    expect(ledger.documents).toEqual(alone.documents);
    expect(ordered(ledger.models)).toEqual(ordered(alone.models));
    expect(ledger.models.get("1")?.length).toBe(2);
    const without = await passStart(SHOP, "2026-12", { limit: 100, except: [] });
    expect(read.changes).toEqual(without.changes);
    expect(read.shop).toEqual(without.shop);
    expect(without.ledger).toBeNull();
  });

  it("holds only the products of the changes it read", async () => {
    await clearChanges();
    await changes(SHOP, ["2", "1"]);
    const read = await passStart(SHOP, "2026-12", { limit: 1, except: [], ledger: { scopes } });
    expect(read.changes!.rows.map((row) => row.productId)).toEqual(["2"]);
    const ledger = ledgerReadWith(read.ledger, scopes)!;
    expect(sorted(ledger, own)).toEqual({ "2": "own-2" });
    expect([...ledger.models.keys()]).toEqual(["2"]);
    const none = await passStart(SHOP, "2026-12", {
      limit: 100,
      except: ["1", "2"],
      ledger: { scopes },
    });
    expect(none.changes!.rows).toEqual([]);
    expect(ledgerReadWith(none.ledger, scopes)!.hashesIn(own).size).toBe(0);
  });

  it("stands only for a batch sent to workspaces it read, the shop's own first", async () => {
    await clearChanges();
    await changes(SHOP, ["1"]);
    const read = await passStart(SHOP, "2026-12", { limit: 100, except: [], ledger: { scopes } });
    expect(ledgerReadWith(read.ledger, [own])).toBeDefined();
    expect(ledgerReadWith(read.ledger, [own, domains[59]!])).toBeDefined();
    // A domain it did not read, another workspace of the shop's own, or the own one not first.
    expect(ledgerReadWith(read.ledger, [own, domains[1]!])).toBeUndefined();
    expect(
      ledgerReadWith(read.ledger, [{ shopDomain: SHOP, workspaceId: "batch-ledger-former" }]),
    ).toBeUndefined();
    expect(ledgerReadWith(read.ledger, [domains[0]!, own])).toBeUndefined();
    // More workspaces than one statement reads: left to batchLedger.
    const many = await passStart(SHOP, "2026-12", {
      limit: 100,
      except: [],
      ledger: { scopes: [own, ...domains] },
    });
    expect(many.ledger).toBeNull();
  });
});
