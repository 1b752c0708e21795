/**
 * Runs a planned bulk query over the store and writes its JSONL as Shopify does: each node of the
 * top-level connection is a line; each node of a nested connection is its own line naming its
 * parent in `__parentId`, after the parent. Without `groupObjects`, the last child line of every
 * few top-level objects is written two objects late (Shopify does not keep children next to their
 * parent); only a last line moves, so each connection's order survives reassembly. The top-level
 * list is executed in chunks, so the result is never held in memory at once.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { ExecutionResult } from "graphql";
import type { BulkPlan } from "./bulk-rules";
import type { Slice } from "./connection";

type Json = Record<string, unknown>;

export interface BulkExportOptions {
  plan: BulkPlan;
  execute: (slice: Slice) => Promise<ExecutionResult>;
  path: string;
  groupObjects: boolean;
  /** Every n-th top-level object (from the 2nd) sends its last child late; 0 never. */
  lateChildEvery: number;
  /** Stop after this many top-level objects (a failed operation's partial data). */
  maxRoots?: number;
  chunkSize?: number;
  /** Stops the export between chunks (the server is closing). */
  signal?: AbortSignal;
}

export interface BulkExportResult {
  objectCount: number;
  rootObjectCount: number;
  fileSize: number;
}

const LATE_BY = 2;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The nodes of a connection value and the path their fields live under. */
function nodesOf(connection: unknown, path: string): { nodes: unknown[]; nodePath: string } {
  if (!isRecord(connection)) return { nodes: [], nodePath: path };
  if (Array.isArray(connection.edges)) {
    return {
      nodes: connection.edges.map((edge) => (isRecord(edge) ? edge.node : null)),
      nodePath: `${path}.edges.node`,
    };
  }
  if (Array.isArray(connection.nodes))
    return { nodes: connection.nodes, nodePath: `${path}.nodes` };
  return { nodes: [], nodePath: path };
}

/** A copy of `value` without its connections, which are collected in `children`. */
function withoutConnections(
  value: Json,
  path: string,
  plan: BulkPlan,
  children: { path: string; value: unknown }[],
): Json {
  const copy: Json = {};
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = `${path}.${key}`;
    if (plan.connectionPaths.has(fieldPath)) children.push({ path: fieldPath, value: field });
    else if (isRecord(field)) copy[key] = withoutConnections(field, fieldPath, plan, children);
    else copy[key] = field;
  }
  return copy;
}

/** The lines of one node and everything below it, parent first. */
function nodeLines(node: unknown, path: string, parentId: string | undefined, plan: BulkPlan) {
  if (!isRecord(node)) return [];
  const children: { path: string; value: unknown }[] = [];
  const line = withoutConnections(node, path, plan, children);
  if (parentId !== undefined) line.__parentId = parentId;
  const lines = [JSON.stringify(line)];
  const id = typeof node.id === "string" ? node.id : undefined;
  for (const child of children) {
    const { nodes, nodePath } = nodesOf(child.value, child.path);
    for (const childNode of nodes) lines.push(...nodeLines(childNode, nodePath, id, plan));
  }
  return lines;
}

export async function writeBulkExport(options: BulkExportOptions): Promise<BulkExportResult> {
  const { plan } = options;
  const chunkSize = options.chunkSize ?? 250;
  const maxRoots = options.maxRoots ?? Number.POSITIVE_INFINITY;
  const out = createWriteStream(options.path);
  let streamError: Error | undefined;
  out.on("error", (error) => (streamError = error));
  const result: BulkExportResult = { objectCount: 0, rootObjectCount: 0, fileSize: 0 };
  let buffer = "";
  const write = async (line: string) => {
    result.objectCount += 1;
    buffer += `${line}\n`;
    if (buffer.length >= 256 * 1024) await flush();
  };
  const flush = async () => {
    result.fileSize += Buffer.byteLength(buffer);
    if (!out.write(buffer)) await once(out, "drain");
    buffer = "";
  };
  let delayed: { after: number; line: string }[] = [];

  try {
    for (let start = 0; result.rootObjectCount < maxRoots; start += chunkSize) {
      options.signal?.throwIfAborted();
      const executed = await options.execute({ start, end: start + chunkSize });
      if (executed.errors?.length) {
        throw new Error(executed.errors.map((error) => error.message).join("; "));
      }
      const { nodes, nodePath } = nodesOf(executed.data?.[plan.topField], plan.topField);
      for (const node of nodes) {
        if (result.rootObjectCount >= maxRoots) break;
        const index = result.rootObjectCount;
        result.rootObjectCount += 1;
        const lines = nodeLines(node, nodePath, undefined, plan);
        const late =
          !options.groupObjects &&
          options.lateChildEvery > 0 &&
          index % options.lateChildEvery === 1 &&
          lines.length > 1;
        const lateLine = late ? lines.pop() : undefined;
        for (const line of lines) await write(line);
        const due = delayed.filter((entry) => entry.after <= index);
        delayed = delayed.filter((entry) => entry.after > index);
        for (const entry of due) await write(entry.line);
        if (lateLine !== undefined) delayed.push({ after: index + LATE_BY, line: lateLine });
      }
      if (nodes.length < chunkSize) break;
    }
    for (const entry of delayed) await write(entry.line);
    await flush();
  } finally {
    if (!out.closed) {
      out.end();
      await once(out, "close");
    }
  }
  if (streamError) throw streamError;
  return result;
}
