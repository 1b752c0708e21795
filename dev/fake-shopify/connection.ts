/** Relay connections over in-memory lists, with opaque cursors as Shopify's look (base64 JSON). */

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

/** Positions of the top-level list a bulk export reads in one execution (see bulk-export.ts). */
export interface Slice {
  start: number;
  end: number;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

export function encodeCursor(position: number): string {
  return Buffer.from(JSON.stringify({ last_id: position, last_value: String(position) })).toString(
    "base64",
  );
}

function decodeCursor(cursor: string | null | undefined): number | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as {
      last_id?: unknown;
    };
    return typeof value.last_id === "number" ? value.last_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page of `items` the arguments ask for; `view` turns only the returned items into GraphQL
 * objects. Without `first`/`last` every item is returned (bulk operations read connections whole);
 * `slice` narrows the result further for a bulk export read in chunks.
 */
export function connection<T, V>(
  items: readonly T[],
  args: ConnectionArgs,
  view: (item: T) => V,
  slice?: Slice,
): Connection<V> {
  const ordered = args.reverse ? [...items].reverse() : items;
  let start = 0;
  let end = ordered.length;
  const after = decodeCursor(args.after);
  const before = decodeCursor(args.before);
  if (after !== undefined) start = Math.max(start, after + 1);
  if (before !== undefined) end = Math.min(end, before);
  const windowStart = start;
  const windowEnd = end;
  if (typeof args.first === "number") end = Math.min(end, start + Math.max(0, args.first));
  if (typeof args.last === "number") start = Math.max(start, end - Math.max(0, args.last));
  if (slice) {
    const base = start;
    start = Math.min(end, base + slice.start);
    end = Math.min(end, base + slice.end);
  }
  const positions: number[] = [];
  for (let position = start; position < end; position++) positions.push(position);
  const edges = positions.map((position) => ({
    cursor: encodeCursor(position),
    node: view(ordered[position] as T),
  }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: end < windowEnd,
      hasPreviousPage: start > windowStart,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
