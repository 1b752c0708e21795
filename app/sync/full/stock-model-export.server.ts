import {
  numericId,
  type StockExportItemLine,
  type StockExportLevelLine,
  type StockExportVariantLine,
} from "../../catalogue";
import { LineSplitter, type BulkSource } from "../../shopify/bulk-source";
import {
  fillModelItems,
  forgetItemsNotExported,
  type ExportedItem,
  type ModelLevel,
} from "../../models/stock-model.server";

/** Items, and levels, written a batch of statements (within both databases' bound parameters). */
const ITEMS_PER_WRITE = 500;
const LEVELS_PER_WRITE = 4_000;

/**
 * Items held open for their variant and levels: Shopify lists an object's children after it, though not
 * always right after it (groupObjects, which would, slows the export down).
 */
const OPEN_ITEMS = 1_000;

interface OpenItem {
  line: StockExportItemLine;
  variants: StockExportVariantLine[];
  levels: ModelLevel[];
}

export interface StockModelFill {
  /** Inventory items the export listed. */
  items: number;
  /** Of those, the items written to the model (their levels add up to the variant's quantity). */
  modelled: number;
  /** Items whose variant or levels were listed apart from them: forgotten, read on their next order. */
  unsure: number;
}

/**
 * Fills the stock model from a full sync's stock export (STOCK_MODEL_BULK_QUERY), as of
 * `readAt`, just before the export began (docs/decisions/0060-the-full-sync-fills-the-stock-model.md).
 * An item is kept when its levels add up to its variant's `inventoryQuantity`, as a model read
 * checks; the model then forgets the items the export did not keep. Streams the export, holding
 * the last OPEN_ITEMS items open for their levels; a level listed later than that leaves its item
 * forgotten, read on its next order.
 */
export async function fillStockModelFromExport(
  shopDomain: string,
  source: BulkSource,
  readAt: Date,
): Promise<StockModelFill> {
  const fill: StockModelFill = { items: 0, modelled: 0, unsure: 0 };
  const unsure = new Set<string>();
  const open = new Map<string, OpenItem>();
  let batch: ExportedItem[] = [];
  let batchLevels = 0;
  const close = (id: string) => {
    const { line, variants, levels } = open.get(id)!;
    open.delete(id);
    // An item stocks one variant; one shared by several is not modelled.
    const [variant] = variants;
    if (!variant || variants.length > 1) return;
    const sum = levels.reduce((total, level) => total + level.available, 0);
    if (sum !== (variant.inventoryQuantity ?? 0)) return;
    batch.push({
      productId: numericId(variant.product.id),
      variantId: numericId(variant.id),
      inventoryItemId: numericId(line.id),
      tracked: line.tracked,
      inventoryPolicy: variant.inventoryPolicy,
      levels,
    });
    batchLevels += levels.length;
  };
  const onLine = (text: string, number: number) => {
    if (text.trim() === "") return;
    let parsed: StockExportItemLine | StockExportVariantLine | StockExportLevelLine;
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new Error(`The stock export's line ${number} is not JSON`);
    }
    if ("__parentId" in parsed) {
      const item = open.get(parsed.__parentId);
      if (!item) unsure.add(numericId(parsed.__parentId));
      else if ("location" in parsed) {
        item.levels.push({
          locationId: numericId(parsed.location.id),
          available: parsed.quantities[0]?.quantity ?? 0,
        });
      } else item.variants.push(parsed);
      return;
    }
    fill.items += 1;
    open.set(parsed.id, { line: parsed, variants: [], levels: [] });
    if (open.size > OPEN_ITEMS) close(open.keys().next().value!);
  };
  const write = async () => {
    const items = batch.filter((item) => !unsure.has(item.inventoryItemId));
    batch = [];
    batchLevels = 0;
    fill.modelled += items.length;
    await fillModelItems(shopDomain, items, readAt);
  };
  const full = () => batch.length >= ITEMS_PER_WRITE || batchLevels >= LEVELS_PER_WRITE;
  // A chunk's lines, read one by one so that a full batch is written before the next line.
  let lines: [string, number][] = [];
  const readLines = async () => {
    for (const [text, number] of lines) {
      onLine(text, number);
      if (full()) await write();
    }
    lines = [];
  };
  const splitter = new LineSplitter();
  for await (const chunk of await source()) {
    splitter.push(chunk, (text, number) => lines.push([text, number]));
    await readLines();
  }
  splitter.end((text, number) => lines.push([text, number]));
  await readLines();
  for (const id of [...open.keys()]) {
    close(id);
    if (full()) await write();
  }
  await write();
  fill.unsure = unsure.size;
  await forgetItemsNotExported(shopDomain, readAt, [...unsure]);
  return fill;
}
