import { Prisma } from "@prisma/client";
import type { BulkExport, MapContext } from "../../catalog";
import prisma from "../../db.server";
import {
  catalogueEntry,
  catalogueTypeOf,
  titleOf,
  type CatalogueEntry,
  type CatalogueType,
} from "./catalogue-entry";
import {
  indexedHashes,
  describeLedgerRows,
  indexedTitles,
  ledgerLacksDescriptions,
  markSeen,
  type LedgerDescription,
  type ContentKind,
  type LedgerScope,
} from "../../models/ledger.server";

const STAGE_BATCH = 500;
const INSERT_ROWS = 100;

export interface StageProgress {
  done: number;
  total: number;
}

export interface StageResult {
  unchanged: Record<ContentKind, number>;
  /** Items of a type the run does not cover (e.g. articles when only products are synced). */
  skipped: number;
}

/**
 * Reads the export once, maps and hashes each object, and compares it with the ledger: unchanged
 * items are only marked as seen; new or changed items are staged to be sent, and items that are
 * no longer indexable (draft, archived, unlisted, unpublished) but were sent before are staged
 * to be deleted. The staged rows are the run's checkpoint: they survive a crash.
 */
export async function stageExport(options: {
  runId: string;
  scope: LedgerScope;
  exports: readonly BulkExport[];
  types: readonly CatalogueType[];
  context: MapContext;
  onProgress?: (progress: StageProgress) => void;
}): Promise<StageResult> {
  const { runId, scope, exports, types, context, onProgress } = options;
  const result: StageResult = { unchanged: { product: 0, post: 0 }, skipped: 0 };
  const total = exports.reduce(
    (sum, e) => sum + e.scan.items.Product + e.scan.items.Page + e.scan.items.Article,
    0,
  );
  let done = 0;
  let batch: CatalogueEntry[] = [];
  // Once a shop's ledger rows all carry their titles and collections, unchanged items write nothing.
  const describe = await ledgerLacksDescriptions(scope);

  const flush = async () => {
    for (const kind of ["product", "post"] as const) {
      const entries = batch.filter((entry) => entry.kind === kind);
      if (entries.length > 0)
        result.unchanged[kind] += await stageBatch(runId, scope, kind, entries, describe);
    }
    done += batch.length;
    batch = [];
    onProgress?.({ done, total });
  };

  for (const bulkExport of exports) {
    for await (const object of bulkExport.items()) {
      if (!types.includes(catalogueTypeOf(object))) {
        result.skipped += 1;
        continue;
      }
      batch.push(catalogueEntry(object, context));
      if (batch.length >= STAGE_BATCH) await flush();
    }
  }
  await flush();
  return result;
}

/** Stages one batch of a kind; returns how many were unchanged. */
async function stageBatch(
  runId: string,
  scope: LedgerScope,
  kind: ContentKind,
  entries: CatalogueEntry[],
  describe: boolean,
): Promise<number> {
  // The last occurrence of an id in the export wins.
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const sent = await indexedHashes(scope, kind, [...byId.keys()]);
  const seen: string[] = [];
  const staged: Prisma.Sql[] = [];
  const same: LedgerDescription[] = [];
  // What leaves the index is named by the ledger's title (the dashboard lists what a sweep removed).
  const leaving = [...byId.values()].filter((entry) => !entry.indexable && sent.has(entry.id));
  const titles = await indexedTitles(
    scope,
    kind,
    leaving.map((entry) => entry.id),
  );
  let unchanged = 0;

  for (const entry of byId.values()) {
    const previous = sent.get(entry.id);
    if (previous !== undefined) seen.push(entry.id);
    if (entry.indexable) {
      if (previous === entry.hash) {
        unchanged += 1;
        same.push({
          itemId: entry.id,
          title: titleOf(entry.item),
          collectionIds: entry.collectionIds,
        });
        continue;
      }
      staged.push(
        Prisma.sql`(${runId}, ${kind}, ${entry.id}, 'upsert', ${JSON.stringify(entry.item)}, ${entry.hash}, ${previous === undefined}, ${entry.stockStatus}, ${entry.updatedAt}, ${entry.collectionIds}, NULL)`,
      );
    } else if (previous !== undefined) {
      staged.push(
        Prisma.sql`(${runId}, ${kind}, ${entry.id}, 'delete', NULL, NULL, false, NULL, NULL, NULL, ${titles.get(entry.id) ?? null})`,
      );
    }
  }

  // No transaction (docs/decisions/0001): a run stopped inside its export phase restages from
  // the start, so a half-written batch is never read.
  // In statements of INSERT_ROWS: Prisma's debug log keeps its last 100 query plans, values and
  // all, even when debugging is off, so a statement's size bounds that memory.
  for (let start = 0; start < staged.length; start += INSERT_ROWS) {
    await prisma.$executeRaw`
      INSERT INTO "SyncItem" ("runId", "kind", "itemId", "action", "payload", "contentHash", "isNew", "stockStatus", "sourceUpdatedAt", "collectionIds", "title")
      VALUES ${Prisma.join(staged.slice(start, start + INSERT_ROWS))}
      ON CONFLICT ("runId", "kind", "itemId") DO UPDATE SET
        "action" = excluded."action", "payload" = excluded."payload", "contentHash" = excluded."contentHash",
        "isNew" = excluded."isNew", "stockStatus" = excluded."stockStatus",
        "sourceUpdatedAt" = excluded."sourceUpdatedAt", "collectionIds" = excluded."collectionIds", "title" = excluded."title", "status" = 'pending', "attempts" = 0, "error" = NULL`;
  }
  await markSeen(scope, kind, seen, runId);
  if (describe) await describeLedgerRows(scope, kind, same);
  if (unchanged > 0) {
    await (kind === "product"
      ? prisma.$executeRaw`UPDATE "SyncRun" SET "productsUnchanged" = "productsUnchanged" + ${unchanged} WHERE "id" = ${runId}`
      : prisma.$executeRaw`UPDATE "SyncRun" SET "postsUnchanged" = "postsUnchanged" + ${unchanged} WHERE "id" = ${runId}`);
  }
  return unchanged;
}
