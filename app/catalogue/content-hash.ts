import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every level, so the same content always gives the same text
 * whatever order its fields were set in. Array order is kept (it carries meaning); undefined
 * fields are left out, as JSON.stringify does.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let index = 0; index < value.length; index++) {
      const entry: unknown = value[index];
      if (index > 0) out += ",";
      out += entry === undefined || typeof entry === "function" ? "null" : stableStringify(entry);
    }
    return out + "]";
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = "{";
  for (const key of keys) {
    const entry = object[key];
    if (entry === undefined || typeof entry === "function") continue;
    if (out.length > 1) out += ",";
    out += JSON.stringify(key) + ":" + stableStringify(entry);
  }
  return out + "}";
}

/** sha256 (hex) of an item's stable JSON: equal for equal content, so unchanged items are skipped. */
export function contentHash(item: unknown): string {
  return createHash("sha256").update(stableStringify(item)).digest("hex");
}
