import type { CatalogueType } from "../engine/catalogue-entry";

/** The type of a run's BulkExport that fills the stock model, not a source of the index. */
export const STOCK_EXPORT = "stock";

/** A bulk export a full sync asks of Shopify: a type of the index's, or the stock model's. */
export type RunExport = Exclude<CatalogueType, "policy" | "metaobject"> | typeof STOCK_EXPORT;

/**
 * The bulk exports a run of these types asks: one per type but the policies and the metaobject
 * entries, which it reads by queries of its own, and the stock model's beside the products'
 * (decision 0060). The run starts them and the progress bar counts them.
 */
export function runExportsOf(types: readonly string[]): RunExport[] {
  const exports = types.filter(
    (type): type is RunExport => type === "product" || type === "page" || type === "article",
  );
  return exports.includes("product") ? [...exports, STOCK_EXPORT] : exports;
}
