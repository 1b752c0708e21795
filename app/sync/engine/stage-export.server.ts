import type { BulkExport, CatalogueItem, MapContext } from "../../catalogue";
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
import { stageItems, type StagedItem } from "../../models/staged-items.server";
import { addUnchangedToRun } from "../../models/sync-runs.server";

/**
 * Items read before they are compared and staged. A batch lives through its statements, long enough
 * for V8 to move it to the old generation, where it stays as garbage until a full collection: 500
 * made a 10k-product sync peak about 40 MB higher (docs/decisions/0052-hot-statements-to-the-driver.md).
 */
const STAGE_BATCH = 100;

/**
 * What staging keeps of an entry while its batch is read: its JSON text and figures, not the
 * mapped object, which (with the parsed export object it shares parts of) then dies young instead
 * of living through the batch's statements into V8's old generation (decision 0056). The text is
 * made for unchanged items too, a few microseconds each.
 */
type StageCandidate =
  | (Omit<Extract<CatalogueEntry, { indexable: true }>, "item"> & {
      document: string;
      title: string | null;
    })
  | { kind: ContentKind; id: string; indexable: false };

function candidateOf(entry: CatalogueEntry): StageCandidate {
  if (!entry.indexable) return { kind: entry.kind, id: entry.id, indexable: false };
  return {
    kind: entry.kind,
    id: entry.id,
    indexable: true,
    document: JSON.stringify(entry.item),
    hash: entry.hash,
    title: titleOf(entry.item),
    stockStatus: entry.stockStatus,
    updatedAt: entry.updatedAt,
    collectionIds: entry.collectionIds,
  };
}

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
    (sum, e) =>
      sum +
      e.scan.items.Product +
      e.scan.items.Page +
      e.scan.items.Article +
      e.scan.items.ShopPolicy +
      e.scan.items.Metaobject,
    0,
  );
  let done = 0;
  let batch: StageCandidate[] = [];
  // With references to name, a batch is kept as read until their names are learnt.
  let unnamed: CatalogueItem[] = [];
  // Once a shop's ledger rows all carry their titles and collections, unchanged items write nothing.
  const describe = await ledgerLacksDescriptions(scope);

  const flush = async () => {
    if (unnamed.length > 0) {
      await context.referenceNames?.learn(
        unnamed.flatMap((object) => (object.type === "Product" ? [object.value] : [])),
      );
      batch.push(...unnamed.map((object) => candidateOf(catalogueEntry(object, context))));
      unnamed = [];
    }
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
      if (context.referenceNames) unnamed.push(object);
      else batch.push(candidateOf(catalogueEntry(object, context)));
      if (batch.length + unnamed.length >= STAGE_BATCH) await flush();
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
  entries: StageCandidate[],
  describe: boolean,
): Promise<number> {
  // The last occurrence of an id in the export wins.
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const sent = await indexedHashes(scope, kind, [...byId.keys()]);
  const seen: string[] = [];
  const staged: StagedItem[] = [];
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
          title: entry.title,
          collectionIds: entry.collectionIds,
        });
        continue;
      }
      staged.push({
        action: "upsert",
        itemId: entry.id,
        payload: entry.document,
        contentHash: entry.hash,
        isNew: previous === undefined,
        stockStatus: entry.stockStatus,
        sourceUpdatedAt: entry.updatedAt,
        collectionIds: entry.collectionIds,
      });
    } else if (previous !== undefined) {
      staged.push({ action: "delete", itemId: entry.id, title: titles.get(entry.id) ?? null });
    }
  }

  // No transaction (docs/decisions/0001): staged first, then the ledger marked seen; a run
  // stopped inside its export phase restages from the start.
  await stageItems(runId, kind, staged);
  await markSeen(scope, kind, seen, runId);
  if (describe) await describeLedgerRows(scope, kind, same);
  if (unchanged > 0) await addUnchangedToRun(runId, kind, unchanged);
  return unchanged;
}
