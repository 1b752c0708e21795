import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { catalogueLines, type CatalogueOptions } from "../dev/sample-store/catalogue-generator";

export type JsonLine = Record<string, unknown> & { id: string; __parentId?: string };

/** A generated store as parsed JSONL objects, to edit before writing. */
export function generatedStore(options: CatalogueOptions): JsonLine[] {
  return [...catalogueLines(options)].map((line) => JSON.parse(line) as JsonLine);
}

const dir = mkdtempSync(join(tmpdir(), "catalog-chat-export-"));
let files = 0;

/** Writes objects as a bulk-operation JSONL file. */
export function writeExport(lines: readonly (JsonLine | string)[]): string {
  const path = join(dir, `export-${++files}.jsonl`);
  writeFileSync(
    path,
    lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n",
  );
  return path;
}

export const productLines = (lines: readonly JsonLine[]) =>
  lines.filter((l) => l.id.startsWith("gid://shopify/Product/"));

export const numericIdOf = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

/** Products the index should hold: active and published to the online store. */
export const indexableProductIds = (lines: readonly JsonLine[]) =>
  productLines(lines)
    .filter((p) => p.status === "ACTIVE" && p.onlineStoreUrl !== null)
    .map((p) => numericIdOf(p.id));
