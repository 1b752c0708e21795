import { forEachLine, LineSplitter, type BulkSource } from "../shopify/bulk-source";
import { gidType } from "./gid";
import type {
  CatalogueItem,
  CatalogueItemType,
  ShopifyArticle,
  ShopifyMetaobject,
  ShopifyPage,
  ShopifyProduct,
  ShopifyShopPolicy,
} from "./shopify-types";

/**
 * Streaming assembly of a bulk export (JSONL) into whole products, pages and articles.
 *
 * Shopify writes each node of a nested connection on its own line naming its parent in
 * `__parentId`, after the parent but not necessarily right after it (with `groupObjects: false`,
 * the default since 2025, not even near it). The source is therefore read more than once:
 *
 * 1. scan: parses every line (a malformed one throws before anything is emitted), counts
 *    objects, and remembers only the parents that receive a child after another top-level object
 *    began ("late parents"), with the line number of their last child.
 * 2. assemble: reads again and emits each object once its children are in: an ordinary one when
 *    the next top-level line starts, a late parent right after its last child line. Only late
 *    parents are held in memory, at most `maxHeld` at once; a late parent beyond that budget is
 *    deferred and assembled by a further read that looks at deferred parents only, so memory stays
 *    bounded whatever the layout of the file (at the cost of extra reads).
 */

const ROOT_TYPES: ReadonlySet<string> = new Set<CatalogueItemType>([
  "Product",
  "Page",
  "Article",
  "ShopPolicy",
  "Metaobject",
]);

type ProductConnection = "variants" | "collections" | "media" | "metafields";

const PRODUCT_CHILDREN: Readonly<Record<string, ProductConnection>> = {
  ProductVariant: "variants",
  Collection: "collections",
  MediaImage: "media",
  Video: "media",
  ExternalVideo: "media",
  Model3d: "media",
  // Only in an export that asks for the chosen metafields; the list exists only then.
  Metafield: "metafields",
};

/**
 * The product connection a child line belongs to, or undefined to skip it. A metafield line
 * must carry what the export selects (namespace, key, type, value) to be read at all.
 */
function productConnectionOf(type: string, object: JsonObject): ProductConnection | undefined {
  const connection = PRODUCT_CHILDREN[type];
  if (connection !== "metafields") return connection;
  const complete = ["namespace", "key", "type", "value"].every(
    (field) => typeof object[field] === "string",
  );
  return complete ? connection : undefined;
}

export const DEFAULT_MAX_HELD = 5_000;

export class BulkJsonlSyntaxError extends Error {
  constructor(
    /** 1-based line number in the file. */
    readonly line: number,
    detail: string,
  ) {
    super(`Line ${line} of the bulk export is not a JSON object: ${detail}`);
    this.name = "BulkJsonlSyntaxError";
  }
}

export interface BulkScan {
  /** Physical lines, empty ones included. */
  lines: number;
  /** Object lines by the `<Type>` of their gid; lines without a gid count as "unknown". */
  objects: Record<string, number>;
  /** Objects the assembly will emit, by type. */
  items: Record<CatalogueItemType, number>;
  /** Lines that will be skipped: unknown top-level types, their children, unknown child types. */
  skippedUnknown: number;
  /** Parents receiving a child after another top-level object began → line of their last child. */
  lateParents: ReadonlyMap<string, number>;
}

export interface AssemblyStats {
  emitted: Record<CatalogueItemType, number>;
  /** Child lines whose parent never appeared before them. */
  orphans: number;
  /** Most late parents held in memory at once. */
  maxHeld: number;
  /** Reads of the source by the assembly (1 unless late parents exceeded `maxHeld`). */
  reads: number;
}

export interface AssembleOptions {
  /** Most late parents kept in memory at once; more are assembled by extra reads. */
  maxHeld?: number;
}

export interface BulkExport {
  scan: BulkScan;
  /** Streams the source again and yields assembled objects; may be called more than once. */
  items(): AsyncGenerator<CatalogueItem>;
  /** Counters of the latest `items()` run. */
  readonly stats: AssemblyStats;
}

/**
 * Scans a bulk export (refusing a malformed file before anything is emitted) and returns its
 * counts and an `items()` stream of assembled objects.
 */
export async function readBulkExport(
  source: BulkSource,
  options: AssembleOptions = {},
): Promise<BulkExport> {
  const scan = await scanBulkExport(source);
  let stats = emptyStats();
  return {
    scan,
    get stats() {
      return stats;
    },
    items() {
      stats = emptyStats();
      return assembleBulkExport(source, scan, { ...options, stats });
    },
  };
}

type JsonObject = Record<string, unknown>;

function parseLine(text: string, line: number): JsonObject | null {
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === "")) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BulkJsonlSyntaxError(line, error instanceof Error ? error.message : String(error));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new BulkJsonlSyntaxError(line, "the line holds JSON but not an object");
  }
  return value as JsonObject;
}

function stringField(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === "string" ? value : null;
}

/** Pass 1: validates every line and finds the late parents. Throws BulkJsonlSyntaxError. */
export async function scanBulkExport(source: BulkSource): Promise<BulkScan> {
  const objects: Record<string, number> = {};
  const items: Record<CatalogueItemType, number> = {
    Product: 0,
    Page: 0,
    Article: 0,
    ShopPolicy: 0,
    Metaobject: 0,
  };
  const lateParents = new Map<string, number>();
  let skippedUnknown = 0;
  let currentRoot: string | null = null;

  const lines = await forEachLine(source, (text, number) => {
    const object = parseLine(text, number);
    if (!object) return;
    const id = stringField(object, "id");
    const type = (id && gidType(id)) ?? "unknown";
    objects[type] = (objects[type] ?? 0) + 1;
    const parent = stringField(object, "__parentId");
    if (parent === null) {
      currentRoot = id;
      if (ROOT_TYPES.has(type)) items[type as CatalogueItemType] += 1;
      else skippedUnknown += 1;
      return;
    }
    const parentType = gidType(parent);
    if (parentType !== "Product" || productConnectionOf(type, object) === undefined) {
      skippedUnknown += 1;
      return;
    }
    if (parent !== currentRoot) lateParents.set(parent, number);
  });
  return { lines, objects, items, skippedUnknown, lateParents };
}

interface Assembling {
  type: CatalogueItemType;
  id: string;
  value: JsonObject;
}

function emptyStats(): AssemblyStats {
  return {
    emitted: { Product: 0, Page: 0, Article: 0, ShopPolicy: 0, Metaobject: 0 },
    orphans: 0,
    maxHeld: 0,
    reads: 0,
  };
}

function toItem(assembling: Assembling): CatalogueItem {
  switch (assembling.type) {
    case "Product":
      return { type: "Product", value: assembling.value as unknown as ShopifyProduct };
    case "Page":
      return { type: "Page", value: assembling.value as unknown as ShopifyPage };
    case "Article":
      return { type: "Article", value: assembling.value as unknown as ShopifyArticle };
    case "ShopPolicy":
      return { type: "ShopPolicy", value: assembling.value as unknown as ShopifyShopPolicy };
    case "Metaobject":
      return { type: "Metaobject", value: assembling.value as unknown as ShopifyMetaobject };
  }
}

function startAssembling(type: CatalogueItemType, id: string, object: JsonObject): Assembling {
  if (type === "Product") {
    object.variants = [];
    object.collections = [];
    object.media = [];
  }
  return { type, id, value: object };
}

/**
 * Pass 2 (and further reads when late parents overflow `maxHeld`). Needs the scan of the same
 * source; `stats`, when given, is updated as the stream advances.
 */
export async function* assembleBulkExport(
  source: BulkSource,
  scan: BulkScan,
  options: AssembleOptions & { stats?: AssemblyStats } = {},
): AsyncGenerator<CatalogueItem> {
  const maxHeld = Math.max(1, options.maxHeld ?? DEFAULT_MAX_HELD);
  const stats = options.stats ?? emptyStats();
  const { lateParents } = scan;
  // null on the first read (every object); afterwards only the parents deferred by the last read.
  let targets: Set<string> | null = null;

  while (targets === null || targets.size > 0) {
    const firstRead: boolean = targets === null;
    const wanted: Set<string> | null = targets;
    const deferred = new Set<string>();
    const held = new Map<string, Assembling>();
    const outbox: CatalogueItem[] = [];
    let current: Assembling | null = null;
    let currentRootId: string | null = null;
    stats.reads += 1;

    const emit = (assembling: Assembling) => {
      outbox.push(toItem(assembling));
      stats.emitted[assembling.type] += 1;
    };

    const finishCurrent = (line: number) => {
      if (!current) return;
      const lastChildLine = lateParents.get(current.id);
      if (lastChildLine === undefined || lastChildLine < line) emit(current);
      else if (held.size < maxHeld) {
        held.set(current.id, current);
        if (held.size > stats.maxHeld) stats.maxHeld = held.size;
      } else deferred.add(current.id);
      current = null;
    };

    const onLine = (text: string, line: number) => {
      const object = parseLine(text, line);
      if (!object) return;
      const parent = stringField(object, "__parentId");
      if (parent === null) {
        finishCurrent(line);
        const id = stringField(object, "id");
        currentRootId = id;
        const type = id ? gidType(id) : null;
        if (id && type && ROOT_TYPES.has(type) && (wanted === null || wanted.has(id))) {
          current = startAssembling(type as CatalogueItemType, id, object);
        }
        return;
      }
      const childType = gidType(stringField(object, "id") ?? "");
      const connection = childType ? productConnectionOf(childType, object) : undefined;
      if (connection === undefined || gidType(parent) !== "Product") return;
      const target = current?.id === parent ? current : held.get(parent);
      if (!target) {
        if (firstRead && parent !== currentRootId && !deferred.has(parent)) stats.orphans += 1;
        return;
      }
      delete object.__parentId;
      ((target.value[connection] ??= []) as JsonObject[]).push(object);
      if (target !== current && lateParents.get(parent) === line) {
        held.delete(parent);
        emit(target);
      }
    };

    const splitter = new LineSplitter();
    for await (const chunk of await source()) {
      splitter.push(chunk, onLine);
      if (outbox.length > 0) yield* outbox.splice(0, outbox.length);
    }
    splitter.end(onLine);
    finishCurrent(Number.POSITIVE_INFINITY);
    // Only reachable when the source changed between reads: emit what was gathered.
    for (const assembling of held.values()) emit(assembling);
    if (outbox.length > 0) yield* outbox.splice(0, outbox.length);
    targets = deferred;
  }
}
