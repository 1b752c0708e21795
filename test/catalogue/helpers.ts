import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  Kind,
  parse,
  type GraphQLSchema,
  type IntrospectionQuery,
  type SelectionSetNode,
} from "graphql";
import type { BulkSource, ByteChunk } from "../../app/shopify/bulk-source";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import {
  ARTICLES_BULK_QUERY,
  PAGES_BULK_QUERY,
  PRODUCTS_BULK_QUERY,
} from "../../app/catalogue/queries";
import type { CatalogueItem } from "../../app/catalogue/shopify-types";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "shopify");

let schema: GraphQLSchema | undefined;

/** Shopify's Admin GraphQL schema, API version 2026-10. */
export function adminSchema(): GraphQLSchema {
  if (!schema) {
    const gz = readFileSync(join(FIXTURES, "admin_2026-10.introspection.json.gz"));
    const json = JSON.parse(gunzipSync(gz).toString("utf8")) as { data: IntrospectionQuery };
    schema = buildClientSchema(json.data);
  }
  return schema;
}

/** A source that yields `text` as UTF-8 bytes cut at the given byte offsets. */
export function bytesSource(text: string | Buffer, cuts: number[] = []): BulkSource {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  return () =>
    (async function* (): AsyncGenerator<ByteChunk> {
      let start = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        if (cut <= start || cut >= bytes.length) continue;
        yield bytes.subarray(start, cut);
        start = cut;
      }
      yield bytes.subarray(start);
    })();
}

/** A source yielding fixed-size chunks. */
export function chunkedSource(text: string | Buffer, size: number): BulkSource {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const cuts: number[] = [];
  for (let cut = size; cut < bytes.length; cut += size) cuts.push(cut);
  return bytesSource(bytes, cuts);
}

export async function collect(source: BulkSource, maxHeld?: number) {
  const bulk = await readBulkExport(source, maxHeld === undefined ? {} : { maxHeld });
  const items: CatalogueItem[] = [];
  for await (const item of bulk.items()) items.push(item);
  return { items, scan: bulk.scan, stats: bulk.stats };
}

type Json = Record<string, unknown>;

/**
 * The obvious, whole-file assembly (every line in memory): what the streaming assembly must
 * agree with. Items keyed by id; children in file order.
 */
export function naiveAssembly(text: string): Map<string, Json> {
  const roots = new Map<string, Json>();
  const connection: Record<string, string> = {
    ProductVariant: "variants",
    Collection: "collections",
    MediaImage: "media",
    Video: "media",
    ExternalVideo: "media",
    Model3d: "media",
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const object = JSON.parse(line) as Json;
    const parent = object.__parentId as string | undefined;
    const type = /gid:\/\/shopify\/(\w+)\//.exec(String(object.id))?.[1] ?? "";
    if (parent === undefined) {
      if (type === "Product") Object.assign(object, { variants: [], collections: [], media: [] });
      if (["Product", "Page", "Article"].includes(type)) roots.set(object.id as string, object);
      continue;
    }
    const root = roots.get(parent);
    const key = connection[type];
    if (!root || !key) continue;
    delete object.__parentId;
    (root[key] as Json[]).push(object);
  }
  return roots;
}

export function byId(items: CatalogueItem[]): Map<string, CatalogueItem["value"]> {
  return new Map(items.map((item) => [item.value.id, item.value]));
}

export interface Shape {
  fields: Map<string, Shape | null>;
}

/** The keys a bulk line holds for a selection set: its fields, minus nested connections. */
export function shapeOf(selectionSet: SelectionSetNode): Shape {
  const fields = new Map<string, Shape | null>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) throw new Error("bulk selections use plain fields only");
    const name = selection.alias?.value ?? selection.name.value;
    if (selection.selectionSet && isConnection(selection.selectionSet)) continue;
    fields.set(name, selection.selectionSet ? shapeOf(selection.selectionSet) : null);
  }
  return { fields };
}

function isConnection(selectionSet: SelectionSetNode): boolean {
  return selectionSet.selections.some(
    (selection) => selection.kind === Kind.FIELD && selection.name.value === "edges",
  );
}

/** node { … } under `path` (connection field names from the root) of a bulk query. */
export function nodeSelection(query: string, path: string[]): SelectionSetNode {
  const document = parse(query);
  const operation = document.definitions[0];
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error("no operation");
  let selectionSet: SelectionSetNode = operation.selectionSet;
  for (const name of path) {
    const field = selectionSet.selections.find(
      (selection) => selection.kind === Kind.FIELD && selection.name.value === name,
    );
    if (field?.kind !== Kind.FIELD || !field.selectionSet) throw new Error(`no ${name}`);
    const edges = field.selectionSet.selections.find(
      (selection) => selection.kind === Kind.FIELD && selection.name.value === "edges",
    );
    if (edges?.kind !== Kind.FIELD || !edges.selectionSet) throw new Error(`no ${name}.edges`);
    const node = edges.selectionSet.selections.find(
      (selection) => selection.kind === Kind.FIELD && selection.name.value === "node",
    );
    if (node?.kind !== Kind.FIELD || !node.selectionSet) throw new Error(`no ${name}.node`);
    selectionSet = node.selectionSet;
  }
  return selectionSet;
}

/** Differences between a JSON value's keys and a shape (empty when they match exactly). */
export function shapeMismatches(value: unknown, shape: Shape, at = "$"): string[] {
  if (value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((entry, i) => shapeMismatches(entry, shape, `${at}[${i}]`));
  if (typeof value !== "object") return [`${at} is not an object`];
  const object = value as Json;
  const problems: string[] = [];
  for (const key of Object.keys(object)) {
    if (!shape.fields.has(key)) problems.push(`${at}.${key} is not selected`);
  }
  for (const [key, child] of shape.fields) {
    if (!(key in object)) problems.push(`${at}.${key} is missing`);
    else if (child) problems.push(...shapeMismatches(object[key], child, `${at}.${key}`));
  }
  return problems;
}

/** The shape of each kind of line, read from the app's own export queries. */
export function lineShapes(): Record<string, Shape> {
  const withParent = (shape: Shape): Shape => ({
    fields: new Map([...shape.fields, ["__parentId", null]]),
  });
  const media = withParent(shapeOf(nodeSelection(PRODUCTS_BULK_QUERY, ["products", "media"])));
  return {
    Product: shapeOf(nodeSelection(PRODUCTS_BULK_QUERY, ["products"])),
    ProductVariant: withParent(
      shapeOf(nodeSelection(PRODUCTS_BULK_QUERY, ["products", "variants"])),
    ),
    Collection: withParent(
      shapeOf(nodeSelection(PRODUCTS_BULK_QUERY, ["products", "collections"])),
    ),
    MediaImage: media,
    Video: media,
    Page: shapeOf(nodeSelection(PAGES_BULK_QUERY, ["pages"])),
    Article: shapeOf(nodeSelection(ARTICLES_BULK_QUERY, ["articles"])),
  };
}

export function shapeProblems(lines: Iterable<string>): string[] {
  const shapes = lineShapes();
  const problems: string[] = [];
  for (const line of lines) {
    const object = JSON.parse(line) as { id: string };
    const type = /^gid:\/\/shopify\/(\w+)\//.exec(object.id)?.[1] ?? "?";
    const shape = shapes[type];
    if (!shape) problems.push(`${object.id}: no query selects ${type}`);
    else problems.push(...shapeMismatches(object, shape, object.id));
  }
  return problems;
}
