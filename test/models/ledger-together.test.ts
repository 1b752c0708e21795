/**
 * A live pass's ledger rows of the shop's workspace and its storefront domains' written in one
 * statement (`recordDeliveredTogether`, decision 0063): each row in its own workspace with its
 * hash and document, all of them or none where the shop's lease was lost, and never rows of two
 * leases together. On the run's database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import {
  indexedDocuments,
  recordDeliveredTogether,
  type DeliveredWrite,
  type LedgerScope,
} from "../../app/models/ledger.server";
import { LeaseLostError, takeShopLease } from "../../app/models/shop-leases.server";

const SHOP = "ledger-together.myshopify.com";
const DOMAIN_KEY = `${SHOP}#ledger-together-fr`;

const clear = async () => {
  await prisma.indexedItem.deleteMany({ where: { shopDomain: { in: [SHOP, DOMAIN_KEY] } } });
  await prisma.shopLease.deleteMany({ where: { shopDomain: SHOP } });
};

beforeAll(async () => {
  await prepareAppEnvironment();
});
beforeEach(clear);
afterAll(clear);

function writesUnder(fence: LedgerScope["fence"]): DeliveredWrite[] {
  const at = new Date();
  const item = (id: string, name: string) => ({
    itemId: id,
    contentHash: `hash-${name}`,
    title: name,
    content: JSON.stringify({ id, name }),
  });
  return [
    {
      scope: { shopDomain: SHOP, workspaceId: "ledger-together-com", ...(fence ? { fence } : {}) },
      kind: "product",
      items: [item("1", "Lantern")],
      runId: "live",
      sentAt: at,
    },
    {
      scope: {
        shopDomain: DOMAIN_KEY,
        workspaceId: "ledger-together-fr",
        ...(fence ? { fence } : {}),
      },
      kind: "product",
      items: [item("1", "Lanterne")],
      runId: "live",
      sentAt: at,
    },
  ];
}

const documentOf = async (scope: LedgerScope) =>
  (await indexedDocuments(scope, "product", ["1"])).get("1");

describe("the ledger rows of a pass's sends, written together", () => {
  it("puts each workspace's row in its own workspace, with its hash and document", async () => {
    const token = (await takeShopLease(SHOP, "this-worker", 60_000))!;
    const writes = writesUnder({ shopDomain: SHOP, token });
    await recordDeliveredTogether(writes);
    expect(await documentOf(writes[0]!.scope)).toMatchObject({
      contentHash: "hash-Lantern",
      content: JSON.stringify({ id: "1", name: "Lantern" }),
    });
    expect(await documentOf(writes[1]!.scope)).toMatchObject({
      contentHash: "hash-Lanterne",
      content: JSON.stringify({ id: "1", name: "Lanterne" }),
    });
  });

  it("writes none of them once another worker took the shop's lease", async () => {
    const token = (await takeShopLease(SHOP, "this-worker", 1, new Date(Date.now() - 1_000)))!;
    expect(await takeShopLease(SHOP, "another-worker", 60_000)).not.toBeNull();
    const writes = writesUnder({ shopDomain: SHOP, token });
    await expect(recordDeliveredTogether(writes)).rejects.toBeInstanceOf(LeaseLostError);
    expect(
      await prisma.indexedItem.count({ where: { shopDomain: { in: [SHOP, DOMAIN_KEY] } } }),
    ).toBe(0);
  });

  it("refuses rows of two different leases, writing nothing", async () => {
    const token = (await takeShopLease(SHOP, "this-worker", 60_000))!;
    const [own, domain] = writesUnder({ shopDomain: SHOP, token });
    const other = {
      ...domain!,
      scope: { ...domain!.scope, fence: { shopDomain: SHOP, token: "x" } },
    };
    await expect(recordDeliveredTogether([own!, other])).rejects.toThrow(/one lease/);
    expect(
      await prisma.indexedItem.count({ where: { shopDomain: { in: [SHOP, DOMAIN_KEY] } } }),
    ).toBe(0);
  });
});
