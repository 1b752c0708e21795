/**
 * Bulk query operations: CREATED, then RUNNING while the export is written, then COMPLETED (or
 * FAILED, EXPIRED, CANCELED) no sooner than `delayMs` after creation, then the
 * bulk_operations/finish webhook. Up to 5 run at once per shop (API 2026-01 and later). Faults:
 * the next operations can be made to fail or expire, and finish webhooks dropped, delayed or held
 * until released.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ExecutionResult, GraphQLSchema } from "graphql";
import { writeBulkExport } from "./bulk-export";
import { planBulkQuery, type BulkPlan } from "./bulk-rules";
import type { Slice } from "./connection";
import { gid } from "./gid";

export type BulkOperationStatus =
  "CANCELED" | "CANCELING" | "COMPLETED" | "CREATED" | "EXPIRED" | "FAILED" | "RUNNING";

export type BulkErrorCode = "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT";

export interface BulkOperationRecord {
  id: string;
  number: number;
  type: "QUERY";
  query: string;
  groupObjects: boolean;
  status: BulkOperationStatus;
  /** Every status it has had, in order (a poll may miss a short one). */
  history: BulkOperationStatus[];
  errorCode: BulkErrorCode | null;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  fileSize: number | null;
  url: string | null;
  partialDataUrl: string | null;
  /** What became of the finish webhook: "sent", "dropped", or "pending" until it is settled. */
  finishWebhook: "pending" | "sent" | "dropped";
}

export interface BulkUserError {
  field: string[] | null;
  message: string;
  code: "INVALID" | "LIMIT_REACHED" | "OPERATION_IN_PROGRESS";
}

/** How the next operation ends, instead of completing. */
export type BulkFault =
  { status: "FAILED"; errorCode: BulkErrorCode; partialData?: boolean } | { status: "EXPIRED" };

/** What happens to the next finish webhook. */
export type FinishWebhookFault = { drop: true } | { delayMs: number };

export const MAX_CONCURRENT_BULK_QUERIES = 5;
/** Top-level objects in the partial data of a failed operation. */
const PARTIAL_ROOTS = 2;

export interface BulkOperationsOptions {
  schema: GraphQLSchema;
  /** Where result files are written. */
  dir: string;
  delayMs: number;
  lateChildEvery: number;
  now: () => string;
  baseUrl: () => string;
  execute: (plan: BulkPlan, slice: Slice) => Promise<ExecutionResult>;
  /** Sends the bulk_operations/finish webhook. */
  notify: (operation: BulkOperationRecord) => Promise<unknown>;
  /** The first operation's number (default 1). */
  firstNumber?: number;
}

interface Files {
  token: string;
  result?: string;
  partial?: string;
  expired: boolean;
}

function moveTo(operation: BulkOperationRecord, status: BulkOperationStatus): void {
  operation.status = status;
  operation.history.push(status);
}

const ACTIVE: ReadonlySet<BulkOperationStatus> = new Set(["CREATED", "RUNNING", "CANCELING"]);

/** Read through a function: TypeScript would keep the status narrowed across awaits. */
function canceling(operation: BulkOperationRecord): boolean {
  return operation.status === "CANCELING";
}

export class BulkOperations {
  readonly records: BulkOperationRecord[] = [];
  readonly #files = new Map<number, Files>();
  readonly #running = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #faults: BulkFault[] = [];
  #webhookFaults: FinishWebhookFault[] = [];
  /** Texts whose next bulk query is refused as if five were running. */
  #refusals: string[] = [];
  /** While finish webhooks are held: resolves when they are released. */
  #hold: { released: Promise<void>; release: () => void } | null = null;
  #next: number;

  constructor(private readonly options: BulkOperationsOptions) {
    this.#next = options.firstNumber ?? 1;
  }

  run(
    query: string,
    groupObjects: boolean,
  ): { operation: BulkOperationRecord | null; userErrors: BulkUserError[] } {
    const planned = planBulkQuery(this.options.schema, query);
    if (!planned.plan) {
      return {
        operation: null,
        userErrors: planned.errors.map((message) => ({
          field: ["query"],
          message,
          code: "INVALID",
        })),
      };
    }
    const active = this.records.filter((record) => ACTIVE.has(record.status));
    const refusal = this.#refusals.findIndex((text) => query.includes(text));
    if (refusal >= 0) this.#refusals.splice(refusal, 1);
    if (refusal >= 0 || active.length >= MAX_CONCURRENT_BULK_QUERIES) {
      return {
        operation: null,
        userErrors: [
          {
            field: null,
            message:
              `A maximum of ${MAX_CONCURRENT_BULK_QUERIES} bulk query operations can run at a time ` +
              `per shop; in progress: ${active.map((record) => record.id).join(", ") || "(elsewhere)"}.`,
            code: "OPERATION_IN_PROGRESS",
          },
        ],
      };
    }
    const number = this.#next++;
    const operation: BulkOperationRecord = {
      id: gid("BulkOperation", number),
      number,
      type: "QUERY",
      query,
      groupObjects,
      status: "CREATED",
      history: ["CREATED"],
      errorCode: null,
      createdAt: this.options.now(),
      completedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      fileSize: null,
      url: null,
      partialDataUrl: null,
      finishWebhook: "pending",
    };
    this.records.push(operation);
    this.#files.set(number, { token: randomBytes(16).toString("hex"), expired: false });
    const lifecycle = this.#lifecycle(operation, planned.plan, this.#faults.shift());
    this.#running.add(lifecycle);
    void lifecycle.finally(() => this.#running.delete(lifecycle));
    return { operation, userErrors: [] };
  }

  get(id: string): BulkOperationRecord | undefined {
    return this.records.find((record) => record.id === id);
  }

  /** The most recent operation of the type (only queries exist here). */
  current(type: string = "QUERY"): BulkOperationRecord | undefined {
    return type === "QUERY" ? this.records[this.records.length - 1] : undefined;
  }

  cancel(id: string): { operation: BulkOperationRecord | null; userErrors: BulkUserError[] } {
    const operation = this.get(id);
    if (!operation) {
      return {
        operation: null,
        userErrors: [{ field: ["id"], message: "Bulk operation does not exist", code: "INVALID" }],
      };
    }
    if (!ACTIVE.has(operation.status)) {
      return {
        operation,
        userErrors: [
          {
            field: null,
            message: `A bulk operation cannot be canceled when it is ${operation.status.toLowerCase()}`,
            code: "INVALID",
          },
        ],
      };
    }
    moveTo(operation, "CANCELING");
    return { operation, userErrors: [] };
  }

  failNext(fault: BulkFault): void {
    this.#faults.push(fault);
  }

  /**
   * The next bulk query whose text holds `text` is refused as Shopify refuses one while five of
   * the app's run in the shop (OPERATION_IN_PROGRESS), whatever runs here.
   */
  refuseNext(text: string): void {
    this.#refusals.push(text);
  }

  failNextWebhook(fault: FinishWebhookFault): void {
    this.#webhookFaults.push(fault);
  }

  /** Finish webhooks wait, from now on, until releaseWebhooks(). */
  holdWebhooks(): void {
    if (this.#hold) return;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.#hold = { released, release };
  }

  /** The held finish webhooks are sent, and the next ones go as they come. */
  releaseWebhooks(): void {
    this.#hold?.release();
    this.#hold = null;
  }

  pendingFaults(): {
    operations: BulkFault[];
    finishWebhooks: FinishWebhookFault[];
    finishWebhooksHeld: boolean;
    refusedQueries: string[];
  } {
    return {
      operations: [...this.#faults],
      finishWebhooks: [...this.#webhookFaults],
      finishWebhooksHeld: this.#hold !== null,
      refusedQueries: [...this.#refusals],
    };
  }

  clearFaults(): void {
    this.#faults = [];
    this.#refusals = [];
    this.#webhookFaults = [];
    this.releaseWebhooks();
  }

  /** The result URL has expired (Shopify's are valid for 7 days): status EXPIRED, url null. */
  expire(id: string): BulkOperationRecord | undefined {
    const operation = this.get(id);
    const files = operation && this.#files.get(operation.number);
    if (!operation || !files) return undefined;
    files.expired = true;
    if (operation.status === "COMPLETED") {
      moveTo(operation, "EXPIRED");
      operation.url = null;
    }
    operation.partialDataUrl = null;
    return operation;
  }

  /** The file behind a result URL, or why there is none. */
  file(name: string, signature: string | null): { path: string } | { status: 403 | 404 } {
    const match = /^(\d+)(-partial)?\.jsonl$/.exec(name);
    const files = match ? this.#files.get(Number(match[1])) : undefined;
    const path = match?.[2] ? files?.partial : files?.result;
    if (!files || !path) return { status: 404 };
    if (files.expired || signature !== files.token) return { status: 403 };
    return { path };
  }

  /** Resolves when every operation has ended and its finish webhook was handled. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  close(): void {
    this.#abort.abort();
    for (const files of this.#files.values()) {
      for (const path of [files.result, files.partial]) if (path) rmSync(path, { force: true });
    }
  }

  /** Resolves when the hold is released; throws (as an aborted sleep does) when the fake closes. */
  #released(released: Promise<void>): Promise<void> {
    const signal = this.#abort.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      void released.then(() => {
        signal.removeEventListener("abort", abort);
        resolve();
      });
    });
  }

  #url(number: number, suffix: string): string {
    const files = this.#files.get(number);
    const signature = files?.token ?? "";
    return `${this.options.baseUrl()}/bulk-results/${number}${suffix}.jsonl?X-Goog-Expires=604800&X-Goog-Signature=${signature}`;
  }

  async #lifecycle(operation: BulkOperationRecord, plan: BulkPlan, fault: BulkFault | undefined) {
    const signal = this.#abort.signal;
    const started = Date.now();
    try {
      await sleep(Math.min(10, this.options.delayMs / 4), undefined, { signal });
      if (canceling(operation)) return await this.#end(operation, "CANCELED");
      moveTo(operation, "RUNNING");
      const files = this.#files.get(operation.number);
      if (!files) return;
      const partial = fault?.status === "FAILED";
      const path = join(this.options.dir, `${operation.number}${partial ? "-partial" : ""}.jsonl`);
      let exported;
      try {
        exported = await writeBulkExport({
          plan,
          execute: (slice) => this.options.execute(plan, slice),
          path,
          groupObjects: operation.groupObjects,
          lateChildEvery: this.options.lateChildEvery,
          signal,
          ...(partial ? { maxRoots: fault.partialData ? PARTIAL_ROOTS : 0 } : {}),
        });
      } catch (error) {
        if (signal.aborted) return;
        console.error(`[fake-shopify] bulk operation ${operation.id} failed:`, error);
        operation.errorCode = "INTERNAL_SERVER_ERROR";
      }
      await sleep(Math.max(0, started + this.options.delayMs - Date.now()), undefined, { signal });
      if (canceling(operation)) return await this.#end(operation, "CANCELED");
      if (exported) {
        operation.objectCount = exported.objectCount;
        operation.rootObjectCount = exported.rootObjectCount;
      }
      if (fault?.status === "FAILED" || operation.errorCode !== null) {
        operation.errorCode ??= fault?.status === "FAILED" ? fault.errorCode : null;
        if (fault?.status === "FAILED" && fault.partialData && exported?.objectCount) {
          files.partial = path;
          operation.partialDataUrl = this.#url(operation.number, "-partial");
        } else rmSync(path, { force: true });
        return await this.#end(operation, "FAILED");
      }
      if (!exported || exported.objectCount === 0) {
        rmSync(path, { force: true });
      } else {
        files.result = path;
        operation.fileSize = exported.fileSize;
        operation.url = this.#url(operation.number, "");
      }
      if (fault?.status === "EXPIRED") {
        files.expired = true;
        operation.url = null;
        return await this.#end(operation, "EXPIRED");
      }
      await this.#end(operation, "COMPLETED");
    } catch (error) {
      // Aborted: the server is closing. Anything else is a bug of the fake: show it.
      if (!signal.aborted) console.error(`[fake-shopify] bulk operation ${operation.id}:`, error);
    }
  }

  async #end(operation: BulkOperationRecord, status: BulkOperationStatus): Promise<void> {
    moveTo(operation, status);
    operation.completedAt = this.options.now();
    const fault = this.#webhookFaults.shift();
    if (fault && "drop" in fault) {
      operation.finishWebhook = "dropped";
      return;
    }
    if (fault) await sleep(fault.delayMs, undefined, { signal: this.#abort.signal });
    if (this.#hold) await this.#released(this.#hold.released);
    await this.options.notify(operation);
    operation.finishWebhook = "sent";
  }
}
