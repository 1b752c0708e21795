/**
 * Bulk query operations over HTTP, for the app's three exports: lifecycle, JSONL the app's reader
 * assembles into the very items of the sample-store generator's file, the signed finish webhook,
 * Shopify's bulk rules and the fault controls.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import { fileSource, urlSource, type BulkSource } from "../../app/shopify/bulk-source";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import {
  ARTICLES_BULK_QUERY,
  PAGES_BULK_QUERY,
  PRODUCTS_BULK_QUERY,
  STOCK_MODEL_BULK_QUERY,
} from "../../app/catalogue/queries";
import type { CatalogueItem, CatalogueItemType } from "../../app/catalogue/shopify-types";
import { writeCatalogue } from "../../dev/sample-store/catalogue-generator";
import {
  API_SECRET,
  data,
  pollBulk,
  runBulk,
  startShopWithReceiver,
  startTestShop,
  validShopifyHmac,
  type FakeShopify,
  type Receiver,
} from "./helpers";

const DOCS_SHOP = fileURLToPath(
  new URL("../../dev/sample-store/shopify-docs-shop.jsonl", import.meta.url),
);
const DOMAIN = "demo-store.example.com";
const GENERATED = { products: 40, pages: 6, articles: 7, seed: 11 };

let shop: FakeShopify;
let receiver: Receiver;
let stop: () => Promise<void>;
let generatorFile: string;

beforeAll(async () => {
  ({
    shop,
    receiver,
    close: stop,
  } = await startShopWithReceiver({
    primaryDomain: DOMAIN,
    store: { files: [DOCS_SHOP], generated: GENERATED },
  }));
  generatorFile = join(mkdtempSync(join(tmpdir(), "fake-shopify-test-")), "store.jsonl");
  await writeCatalogue({ ...GENERATED, domain: DOMAIN }, generatorFile);
});
afterEach(async () => {
  await shop.state.settled();
  shop.state.clearFaults();
});
afterAll(() => stop());

async function items(source: BulkSource) {
  const bulk = await readBulkExport(source);
  const all: CatalogueItem[] = [];
  for await (const item of bulk.items()) all.push(item);
  return { items: all, scan: bulk.scan };
}

/** What the app reads from the docs shop and the generator's file, of one type, by id. */
async function expectedItems(type: CatalogueItemType) {
  const docs = await items(fileSource(DOCS_SHOP));
  const generated = await items(fileSource(generatorFile));
  return new Map(
    [...docs.items, ...generated.items]
      .filter((item) => item.type === type)
      .map((item) => [item.value.id, item]),
  );
}

describe.each([
  ["PRODUCTS_BULK_QUERY", PRODUCTS_BULK_QUERY, "Product"],
  ["PAGES_BULK_QUERY", PAGES_BULK_QUERY, "Page"],
  ["ARTICLES_BULK_QUERY", ARTICLES_BULK_QUERY, "Article"],
] as const)("%s", (_name, query, type) => {
  it("runs CREATED → RUNNING → COMPLETED and serves JSONL the app reads as the generator's items", async () => {
    const started = await runBulk(shop, query);
    expect(started.userErrors).toEqual([]);
    expect(started.bulkOperation).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/BulkOperation\/\d+$/),
      status: "CREATED",
    });
    const id = started.bulkOperation!.id;
    const { seen, final } = await pollBulk(shop, id);
    expect(seen[seen.length - 1]).toBe("COMPLETED");
    // CREATED and RUNNING may each be shorter than a poll on a loaded machine: the record keeps them.
    expect(shop.state.bulkOperations().find((operation) => operation.id === id)?.history).toEqual([
      "CREATED",
      "RUNNING",
      "COMPLETED",
    ]);
    expect(final).toMatchObject({ errorCode: null, partialDataUrl: null });
    expect(final.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bulk-results\//);

    const download = await fetch(final.url!);
    expect(download.status).toBe(200);
    const text = await download.text();
    const lines = text.trimEnd().split("\n");
    expect(String(lines.length)).toBe(final.objectCount);
    const details = await data<{
      node: { fileSize: string; rootObjectCount: string; type: string };
    }>(
      shop,
      "query($id: ID!) { node(id: $id) { ... on BulkOperation { fileSize rootObjectCount type completedAt } } }",
      { id },
    );
    expect(details.node.fileSize).toBe(String(Buffer.byteLength(text)));
    expect(details.node.type).toBe("QUERY");

    const read = await items(urlSource(final.url!));
    const expected = await expectedItems(type);
    expect(details.node.rootObjectCount).toBe(String(expected.size));
    const got = new Map(read.items.map((item) => [item.value.id, item]));
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [itemId, item] of got) expect(item).toEqual(expected.get(itemId));
    const context = { primaryDomain: DOMAIN };
    for (const [itemId, item] of got) {
      expect(mapCatalogueItem(item, context)).toEqual(
        mapCatalogueItem(expected.get(itemId)!, context),
      );
    }
    if (type === "Product") {
      // Some children come after later products began, as Shopify writes them.
      expect(read.scan.lateParents.size).toBeGreaterThan(0);
      expect(lines.some((line) => line.includes('"__parentId"'))).toBe(true);
    }
  });
});

describe("the bulk_operations/finish webhook", () => {
  it("is posted to the app, signed as Shopify signs webhooks", async () => {
    receiver.received.length = 0;
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    await shop.state.settled();
    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(webhook!.path).toBe("/webhooks/bulk_operations/finish");
    expect(validShopifyHmac(API_SECRET, webhook!)).toBe(true);
    expect(validShopifyHmac("another_secret", webhook!)).toBe(false);
    expect(webhook!.headers).toMatchObject({
      "content-type": "application/json",
      "x-shopify-topic": "bulk_operations/finish",
      "x-shopify-shop-domain": "demo-store.myshopify.com",
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
      "x-shopify-event-id": expect.any(String),
      "x-shopify-triggered-at": expect.any(String),
    });
    const body = JSON.parse(webhook!.body) as Record<string, unknown>;
    expect(body).toEqual({
      admin_graphql_api_id: final.id,
      completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      error_code: null,
      status: "completed",
      type: "query",
    });
    expect(Object.keys(body)).toEqual([
      "admin_graphql_api_id",
      "completed_at",
      "created_at",
      "error_code",
      "status",
      "type",
    ]);
    const deliveries = shop.state.webhookDeliveries("bulk_operations/finish");
    expect(deliveries[deliveries.length - 1]).toMatchObject({
      status: 200,
      webhookId: webhook!.headers["x-shopify-webhook-id"],
    });
  });

  it("can be dropped, leaving the app to poll", async () => {
    receiver.received.length = 0;
    shop.state.dropFinishWebhooks();
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    await shop.state.settled();
    expect(receiver.received).toEqual([]);
    expect(shop.state.bulkOperation(final.id)?.finishWebhook).toBe("dropped");
  });

  it("can come late, after the operation is already COMPLETED", async () => {
    receiver.received.length = 0;
    shop.state.delayFinishWebhooks(400);
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    expect(receiver.received).toEqual([]);
    await shop.state.settled();
    expect(receiver.received).toHaveLength(1);
  });

  it("can be held until the test releases it, the operation COMPLETED meanwhile", async () => {
    receiver.received.length = 0;
    shop.state.holdFinishWebhooks();
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    expect(shop.state.faults().finishWebhooksHeld).toBe(true);
    expect(shop.state.bulkOperation(final.id)?.finishWebhook).toBe("pending");
    expect(receiver.received).toEqual([]);
    shop.state.releaseFinishWebhooks();
    await shop.state.settled();
    expect(receiver.received).toHaveLength(1);
    expect(shop.state.bulkOperation(final.id)?.finishWebhook).toBe("sent");
    expect(shop.state.faults().finishWebhooksHeld).toBe(false);
  });
});

describe("failures and expiry", () => {
  it("ends FAILED with the injected errorCode, url null, and says so in the webhook", async () => {
    receiver.received.length = 0;
    shop.state.failNextBulkOperation("ACCESS_DENIED");
    const { bulkOperation } = await runBulk(shop, PRODUCTS_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final).toMatchObject({
      status: "FAILED",
      errorCode: "ACCESS_DENIED",
      url: null,
      partialDataUrl: null,
    });
    await shop.state.settled();
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      status: "failed",
      error_code: "access_denied",
    });
  });

  it("offers partial data when asked to", async () => {
    shop.state.failNextBulkOperation("TIMEOUT", { partialData: true });
    const { bulkOperation } = await runBulk(shop, PRODUCTS_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final).toMatchObject({ status: "FAILED", errorCode: "TIMEOUT", url: null });
    const partial = await items(urlSource(final.partialDataUrl!));
    expect(partial.items.length).toBe(2);
  });

  it("ends EXPIRED when asked to", async () => {
    shop.state.expireNextBulkOperation();
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final).toMatchObject({ status: "EXPIRED", url: null });
  });

  it("expires a result URL: status EXPIRED, and the old URL is refused", async () => {
    const { bulkOperation } = await runBulk(shop, PAGES_BULK_QUERY);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect((await fetch(final.url!)).status).toBe(200);
    expect((await fetch(final.url!.replace(/Signature=\w+/, "Signature=forged"))).status).toBe(403);
    shop.state.expireBulkOperation(final.id);
    expect((await fetch(final.url!)).status).toBe(403);
    const again = await pollBulk(shop, final.id);
    expect(again.final).toMatchObject({ status: "EXPIRED", url: null });
  });
});

describe("Shopify's bulk rules", () => {
  const INVALID: [string, string, RegExp][] = [
    ["an unknown field", "{ products { edges { node { id colour } } } }", /doesn't exist/],
    [
      "two top-level fields",
      "{ products { edges { node { id } } } pages { edges { node { id } } } }",
      /exactly one top-level field/,
    ],
    ["no connection", "{ shop { name } }", /must be a connection/],
    [
      "more than 5 connections",
      `{ products { edges { node { id
          variants { edges { node { id } } } collections { edges { node { id } } }
          media { edges { node { id } } } metafields { edges { node { id } } }
          sellingPlanGroups { edges { node { id } } } } } } }`,
      /more than 5 connections/,
    ],
    [
      "three levels",
      "{ products { edges { node { id variants { edges { node { id metafields { edges { node { id } } } } } } } } } }",
      /more than 2 levels/,
    ],
    [
      "a nested connection whose parent has no id",
      "{ products { edges { node { title variants { edges { node { id } } } } } } }",
      /must select the 'id' field/,
    ],
    [
      "a mutation",
      "mutation { metafieldsDelete(metafields: []) { userErrors { message } } }",
      /mutations/,
    ],
  ];

  it.each(INVALID)("refuses %s with userErrors INVALID", async (_case, query, message) => {
    const { bulkOperation, userErrors } = await runBulk(shop, query);
    expect(bulkOperation).toBeNull();
    expect(userErrors).toEqual([
      { field: ["query"], message: expect.stringMatching(message), code: "INVALID" },
    ]);
  });

  it("accepts `nodes` connections and writes children with __parentId", async () => {
    const query = "{ products { nodes { id title variants { nodes { id price } } } } }";
    const { bulkOperation, userErrors } = await runBulk(shop, query);
    expect(userErrors).toEqual([]);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    const lines = (await (await fetch(final.url!)).text())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const variant = lines.find((line) => String(line.id).includes("/ProductVariant/"));
    expect(variant).toEqual({
      id: expect.any(String),
      price: expect.any(String),
      __parentId: expect.stringMatching(/\/Product\//),
    });
  });
});

describe("the stock model's export", () => {
  it("lists every inventory item once, across chunks, each with its level after it", async () => {
    const { bulkOperation, userErrors } = await runBulk(shop, STOCK_MODEL_BULK_QUERY);
    expect(userErrors).toEqual([]);
    const { final } = await pollBulk(shop, bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    const lines = (await (await fetch(final.url!)).text())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { id?: string; __parentId?: string });
    const items = lines.filter((line) => line.__parentId === undefined).map((line) => line.id);
    const variants = shop.state.products().flatMap((product) => product.variants);
    // More than one of the fake's chunks of 250 roots: each chunk is its own slice.
    expect(variants.length).toBeGreaterThan(250);
    expect(items).toHaveLength(variants.length);
    expect(new Set(items).size).toBe(items.length);
    const levels = lines.filter((line) => line.__parentId !== undefined);
    expect(new Set(levels.map((line) => line.__parentId))).toEqual(new Set(items));
    // A child comes after its parent, not always right after it.
    for (const level of levels) {
      expect(lines.indexOf(level)).toBeGreaterThan(
        lines.findIndex((line) => line.id === level.__parentId),
      );
    }
  });
});

describe("an empty export", () => {
  it("is COMPLETED with objectCount 0 and url null", async () => {
    const empty = await startTestShop({ store: { generated: { products: 2 } } });
    try {
      const { bulkOperation } = await runBulk(empty, PAGES_BULK_QUERY);
      const { final } = await pollBulk(empty, bulkOperation!.id);
      expect(final).toMatchObject({
        status: "COMPLETED",
        objectCount: "0",
        url: null,
        errorCode: null,
      });
    } finally {
      await empty.close();
    }
  });
});

describe("concurrency", () => {
  it("runs up to 5 bulk queries at once; the 6th gets a userError", async () => {
    const busy = await startTestShop({ bulkDelayMs: 5_000, store: { generated: { products: 2 } } });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await runBulk(busy, PRODUCTS_BULK_QUERY)).userErrors).toEqual([]);
      }
      const sixth = await runBulk(busy, PRODUCTS_BULK_QUERY);
      expect(sixth.bulkOperation).toBeNull();
      expect(sixth.userErrors).toEqual([
        {
          field: null,
          message: expect.stringContaining("5 bulk query operations"),
          code: "OPERATION_IN_PROGRESS",
        },
      ]);
      const current = await data<{ currentBulkOperation: { id: string; status: string } }>(
        busy,
        "{ currentBulkOperation { id status } }",
      );
      expect(current.currentBulkOperation).toEqual({
        id: "gid://shopify/BulkOperation/5",
        status: expect.stringMatching(/^(CREATED|RUNNING)$/),
      });
    } finally {
      await busy.close();
    }
  });

  it("refuses a bulk query on request as Shopify does while five run, and starts the next one", async () => {
    shop.state.refuseNextBulkQuery("inventoryItems");
    const pages = await runBulk(shop, PAGES_BULK_QUERY);
    expect(pages.userErrors).toEqual([]);
    const refused = await runBulk(shop, STOCK_MODEL_BULK_QUERY);
    expect(refused.bulkOperation).toBeNull();
    expect(refused.userErrors).toEqual([
      {
        field: null,
        message: expect.stringContaining("5 bulk query operations"),
        code: "OPERATION_IN_PROGRESS",
      },
    ]);
    expect(shop.state.faults().refusedQueries).toEqual([]);
    const again = await runBulk(shop, STOCK_MODEL_BULK_QUERY);
    expect(again.userErrors).toEqual([]);
  });
});

describe("several stores behind one app", () => {
  it("numbers a store's operations from firstBulkOperationNumber, as Shopify's ids are unique across shops", async () => {
    const other = await startTestShop({
      firstBulkOperationNumber: 1_000_001,
      store: { generated: { products: 2 } },
    });
    try {
      const first = await runBulk(other, PRODUCTS_BULK_QUERY);
      expect(first.bulkOperation?.id).toBe("gid://shopify/BulkOperation/1000001");
      await pollBulk(other, first.bulkOperation!.id);
      const second = await runBulk(other, PRODUCTS_BULK_QUERY);
      expect(second.bulkOperation?.id).toBe("gid://shopify/BulkOperation/1000002");
    } finally {
      await other.state.settled();
      await other.close();
    }
  });
});
