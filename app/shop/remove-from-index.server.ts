import { sendInBatches } from "../index-service/bulk";
import type { IndexServiceClient } from "../index-service/client";
import type { BulkResult, ServiceResponse } from "../index-service/types";
import {
  CONTENT_KINDS,
  domainLedgersOf,
  indexedCount,
  indexedCountOfShop,
  indexedItemIds,
  ledgerWorkspacesOf,
  recordDeleted,
  type ContentKind,
  type LedgerScope,
} from "../models/ledger.server";
import { findShop } from "../models/shops.server";
import { acknowledgedIds } from "../sync/engine/send-and-settle.server";
import { serviceClientFor } from "./service-keys.server";
import { logFor } from "../server/log";

const log = logFor("redact");

const PAGE = 500;

export interface RemovalOptions {
  /** Every request goes through this (the shop's pacer), or straight out when absent. */
  send?: <T>(request: () => Promise<T>) => Promise<T>;
  /** Aborts the requests (and stops) when it fires; what is left stays in the ledger. */
  signal?: AbortSignal;
}

/**
 * Removes from a workspace of the service everything the ledger says the shop has there, in bulk
 * deletes, and drops those ledger rows as the service acknowledges them. Returns how many items
 * are left (0 when all are gone).
 */
export async function removeWorkspaceItems(
  scope: LedgerScope,
  client: IndexServiceClient,
  options: RemovalOptions = {},
): Promise<number> {
  const scoped = client.withWorkspace(scope.workspaceId);
  const send = options.send ?? (<T>(request: () => Promise<T>) => request());
  for (const kind of CONTENT_KINDS) {
    for (;;) {
      if (options.signal?.aborted) break;
      const ids = await indexedItemIds(scope, kind, PAGE);
      if (ids.length === 0) break;
      const answer = await sendInBatches(
        ids,
        async (batch) =>
          (await send(() => deleteRequest(scoped, kind, batch, options.signal))).data,
        { idOf: (id) => id },
      );
      // Deleted, or not there to delete: either way no longer in the workspace.
      const gone = [...acknowledgedIds(answer, "delete")];
      if (gone.length === 0) break;
      await recordDeleted(scope, kind, gone);
    }
  }
  return indexedCount(scope);
}

function deleteRequest(
  client: IndexServiceClient,
  kind: ContentKind,
  ids: string[],
  signal: AbortSignal | undefined,
): Promise<ServiceResponse<BulkResult>> {
  const options = signal ? { signal } : undefined;
  return kind === "product"
    ? client.bulkDeleteProducts(ids, options)
    : client.bulkDeletePosts(ids, options);
}

/** How long shop/redact spends removing the shop's items before deleting its data (Shopify waits 5 s). */
export const REDACT_REMOVAL_TIMEOUT_MS = 3_000;

/**
 * shop/redact: removes the shop's items from every workspace the ledger names (the storefront
 * domains' own included), while its key still
 * works, within `timeoutMs`. Never throws: a refusal or a timeout is logged and the caller goes
 * on deleting the shop's data. Returns how many items the ledger still listed.
 */
export async function removeShopFromIndex(
  shopDomain: string,
  timeoutMs: number = REDACT_REMOVAL_TIMEOUT_MS,
): Promise<number> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const shop = await findShop(shopDomain);
    if (!shop?.secretKeyCiphertext) return 0;
    const client = serviceClientFor(shop);
    let left = 0;
    for (const workspaceId of await ledgerWorkspacesOf(shopDomain)) {
      left += await removeWorkspaceItems({ shopDomain, workspaceId }, client, { signal });
    }
    // Each storefront domain's own workspace, under its own ledger key (decision 0032).
    for (const { ledgerKey, workspaceId } of await domainLedgersOf(shopDomain)) {
      left += await removeWorkspaceItems({ shopDomain: ledgerKey, workspaceId }, client, {
        signal,
      });
    }
    if (left > 0) log.warn({ shop: shopDomain }, `${left} items could not be removed in time`);
    return left;
  } catch (error) {
    log.warn({ err: error, shop: shopDomain }, "its items could not be removed from the index");
    return indexedCountOfShop(shopDomain).catch(() => 0);
  }
}
