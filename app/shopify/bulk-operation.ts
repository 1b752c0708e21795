import { queryAdmin, type AdminGraphql } from "./admin-graphql";
import {
  BULK_OPERATION_RUN_QUERY_MUTATION,
  BULK_OPERATION_STATUS_QUERY,
  type BulkOperationRunQueryData,
  type BulkOperationStatus,
  type BulkOperationStatusData,
} from "../catalogue/queries";

export interface BulkOperationState {
  id: string;
  status: BulkOperationStatus;
  errorCode: string | null;
  objectCount: number;
  /** Null for an operation that found nothing. */
  url: string | null;
}

/** Shopify refused to start the export (userErrors), e.g. because too many are running. */
export class BulkOperationRefusedError extends Error {
  constructor(readonly userErrors: { message: string; code: string | null }[]) {
    super(`Shopify did not start the export: ${userErrors.map((e) => e.message).join("; ")}`);
    this.name = "BulkOperationRefusedError";
  }

  /** Another bulk query of the app is running for the shop. */
  get alreadyRunning(): boolean {
    return this.userErrors.some(
      (e) => e.code === "OPERATION_IN_PROGRESS" || /already in progress/i.test(e.message),
    );
  }
}

/** Starts a bulk query (one of the *_BULK_QUERY documents) and returns its operation's id. */
export async function startBulkQuery(admin: AdminGraphql, query: string): Promise<string> {
  const data = await queryAdmin<BulkOperationRunQueryData>(
    admin,
    BULK_OPERATION_RUN_QUERY_MUTATION,
    { query },
  );
  const result = data.bulkOperationRunQuery;
  if (!result || result.userErrors.length > 0 || !result.bulkOperation) {
    throw new BulkOperationRefusedError(
      result?.userErrors ?? [{ message: "no operation returned", code: null }],
    );
  }
  return result.bulkOperation.id;
}

export async function readBulkOperation(
  admin: AdminGraphql,
  id: string,
): Promise<BulkOperationState> {
  const { node } = await queryAdmin<BulkOperationStatusData>(admin, BULK_OPERATION_STATUS_QUERY, {
    id,
  });
  if (!node) throw new Error(`Shopify knows no bulk operation ${id}`);
  return {
    id: node.id,
    status: node.status,
    errorCode: node.errorCode,
    objectCount: Number(node.objectCount ?? 0),
    url: node.url,
  };
}

export const FINISHED_BULK_STATUSES: readonly BulkOperationStatus[] = [
  "COMPLETED",
  "FAILED",
  "CANCELED",
  "EXPIRED",
];

/** Whether a bulk operation's status (as Shopify or the app's records spell it) is final. */
export function isFinishedBulkStatus(status: string): boolean {
  return (FINISHED_BULK_STATUSES as readonly string[]).includes(status);
}

/**
 * Asks Shopify about a bulk operation until it finished: soon at first (a small store's export
 * takes a second or two), then twice as long each time, up to every `pollEveryMs` (a large one
 * takes minutes). Past `timeoutMs` (none unless given) it throws.
 */
export async function waitForBulkOperation(
  admin: AdminGraphql,
  id: string,
  { pollEveryMs, timeoutMs }: { pollEveryMs: number; timeoutMs?: number },
): Promise<BulkOperationState> {
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  for (let wait = Math.min(FIRST_POLL_AFTER_MS, pollEveryMs); ;) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const state = await readBulkOperation(admin, id);
    if (isFinishedBulkStatus(state.status)) return state;
    if (Date.now() > deadline) throw new Error(`Shopify's export ${id} took too long`);
    wait = Math.min(wait * 2, pollEveryMs);
  }
}

/** The first look at an export, after it started. */
const FIRST_POLL_AFTER_MS = 500;
