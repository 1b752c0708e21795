import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { indexedDocuments, recordDelivered } from "../../app/models/ledger.server";
import {
  nextPendingItems,
  stageItems,
  type StagedItem,
} from "../../app/models/staged-items.server";
import {
  STATEMENT_ROWS,
  STATEMENT_VALUE_CHARS,
  statementRows,
} from "../../app/models/statement-size";

describe("statementRows", () => {
  const length = (text: string) => text.length;

  it("keeps the order and every item, at most STATEMENT_ROWS a statement", () => {
    const items = Array.from({ length: 250 }, (_, index) => String(index));
    const statements = statementRows(items, () => 0);
    expect(statements.map((rows) => rows.length)).toEqual([STATEMENT_ROWS, STATEMENT_ROWS, 50]);
    expect(statements.flat()).toEqual(items);
  });

  it("cuts where the values would pass the budget; a larger item goes alone", () => {
    const items = ["aaaa", "bbbb", "cc", "dddddddddd", "e", "f"];
    expect(statementRows(items, length, { chars: 8 })).toEqual([
      ["aaaa", "bbbb"],
      ["cc"],
      ["dddddddddd"],
      ["e", "f"],
    ]);
  });

  it("makes no statement of nothing", () => {
    expect(statementRows([], length)).toEqual([]);
  });
});

describe("documents written over several statements", () => {
  const scope = { shopDomain: "cut.myshopify.com", workspaceId: "cut-example-com" };
  let runId = "";
  // Three documents fill more than one statement's budget: 40 of them take several statements.
  const documentOf = (index: number) =>
    JSON.stringify({
      id: String(index),
      name: `P${index}`,
      content: "x".repeat(STATEMENT_VALUE_CHARS / 3),
    });
  const ids = Array.from({ length: 40 }, (_, index) => String(1000 + index));

  beforeAll(async () => {
    await prepareAppEnvironment();
  });

  beforeEach(async () => {
    await prisma.indexedItem.deleteMany({ where: { shopDomain: scope.shopDomain } });
    await prisma.syncRun.deleteMany({ where: { shopDomain: scope.shopDomain } });
    runId = (
      await prisma.syncRun.create({
        data: { ...scope, trigger: "cli", sources: "[]", exportedTypes: "product" },
      })
    ).id;
  });

  /** Every id staged as a new upsert with its own document and hash. */
  const stagedUpserts = (): StagedItem[] =>
    ids.map((itemId, index) => ({
      action: "upsert",
      itemId,
      payload: documentOf(index),
      contentHash: `h${index}`,
      isNew: true,
      stockStatus: null,
      sourceUpdatedAt: null,
      collectionIds: null,
    }));

  it("stages every item, each with its own document", async () => {
    const staged = stagedUpserts();
    expect(
      statementRows(staged, (item) => (item.action === "upsert" ? item.payload.length : 0)).length,
    ).toBeGreaterThan(1);
    await stageItems(runId, "product", staged);
    const pending = await nextPendingItems(runId, "product", "upsert", 100);
    expect(pending.map((row) => [row.itemId, row.payload, row.contentHash])).toEqual(
      ids.map((itemId, index) => [itemId, documentOf(index), `h${index}`]),
    );
  });

  it("records every delivered document in the ledger", async () => {
    await recordDelivered(
      scope,
      "product",
      ids.map((itemId, index) => ({
        itemId,
        contentHash: `h${index}`,
        content: documentOf(index),
      })),
      runId,
      new Date(),
    );
    const kept = await indexedDocuments(scope, "product", ids);
    expect(ids.map((itemId) => kept.get(itemId)?.content)).toEqual(
      ids.map((_, index) => documentOf(index)),
    );
  });
  it("keeps the document a run staged, copied by the database", async () => {
    await stageItems(runId, "product", stagedUpserts());
    await recordDelivered(
      scope,
      "product",
      ids.map((itemId, index) => ({
        itemId,
        contentHash: `h${index}`,
        content: { stagedBy: runId },
      })),
      runId,
      new Date(),
    );
    const kept = await indexedDocuments(scope, "product", ids);
    expect(ids.map((itemId) => kept.get(itemId)?.content)).toEqual(
      ids.map((_, index) => documentOf(index)),
    );
  });
});
