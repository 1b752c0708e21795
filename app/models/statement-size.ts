/**
 * Statements that carry documents are cut by the size of their values, not only by rows.
 *
 * Prisma 6 keeps its last 100 debug entries whatever debugging is set to: the client's (the
 * statement as text with its values as JSON, and the query plan with the values again, four
 * entries a statement) and the driver adapter's (each statement's values). A statement's values
 * therefore stay alive, in up to three copies, until about a hundred later statements push them
 * out: at 100 rows of 1–2 KB documents that was some 35 MB of a sync's live heap, most of what a
 * 100,000-product sync needed beyond the process itself (docs/benchmarks.md, "Full sync engine").
 * Bounding each statement's values bounds that memory (decision 0050).
 */

/** Most characters of document values in one statement (a larger single document goes alone). */
export const STATEMENT_VALUE_CHARS = 48 * 1024;
/** Most rows in one statement. */
export const STATEMENT_ROWS = 100;

/**
 * Cuts `items` into consecutive runs of at most STATEMENT_ROWS whose `sizeOf` sums stay within
 * STATEMENT_VALUE_CHARS (an item larger than that alone), in order.
 */
export function statementRows<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  limits: { chars?: number; rows?: number } = {},
): T[][] {
  const maxChars = limits.chars ?? STATEMENT_VALUE_CHARS;
  const maxRows = limits.rows ?? STATEMENT_ROWS;
  const statements: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length >= maxRows || chars + size > maxChars)) {
      statements.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += size;
  }
  if (current.length > 0) statements.push(current);
  return statements;
}
