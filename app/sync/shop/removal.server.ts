import { Prisma, type Shop } from "@prisma/client";
import { config } from "../../config.server";
import prisma from "../../db.server";
import { sendInBatches } from "../../index-service/bulk";
import { IndexServiceClient } from "../../index-service/client";
import { IndexServiceError } from "../../index-service/errors";
import { RATE_LIMITS } from "../../index-service/tiers";
import type { BulkResult, ServiceResponse } from "../../index-service/types";
import {
  CONTENT_KINDS,
  recordDeleted,
  type ContentKind,
  type LedgerScope,
} from "../../models/ledger.server";
import { openSecret } from "../../models/secret-box.server";
import { findShop } from "../../models/shops.server";
import { rateKeyId } from "../../models/rate-window";
import { Pacer } from "../engine/pacer";
import { databaseGate } from "../engine/pacers.server";
import { acknowledgedIds } from "../engine/send-and-settle.server";
import { serviceClientFor } from "./service-keys.server";

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
      const rows = await prisma.indexedItem.findMany({
        where: { ...scope, kind },
        select: { itemId: true },
        orderBy: { itemId: "asc" },
        take: PAGE,
      });
      if (rows.length === 0) break;
      const ids = rows.map((row) => row.itemId);
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
  return prisma.indexedItem.count({ where: scope });
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

/**
 * The ledger belongs to one service account and workspace. After Settings saved another account's
 * key or another workspace, the next run first empties the former place with the former key (while
 * that key still works) and forgets it, so that everything is sent again into the new place. What
 * could not be removed (the old key no longer works, the service did not answer) stays there and is
 * no longer the app's: returns how many items that is.
 */
export async function leaveFormerPlace(shop: Shop): Promise<number> {
  if (!shop.formerWorkspaceId) return 0;
  const scope = { shopDomain: shop.shopDomain, workspaceId: shop.formerWorkspaceId };
  let left = await prisma.indexedItem.count({ where: scope });
  if (left > 0 && shop.formerSecretKeyCiphertext) {
    const env = config();
    const apiKey = openSecret(shop.formerSecretKeyCiphertext, env.decryptionKeys);
    const client = new IndexServiceClient({
      baseUrl: env.indexApiUrl,
      apiKey,
      workspaceId: scope.workspaceId,
    });
    // The former account's plan is not known any more: paced at the smallest plan's limits, in
    // the key's windows shared with every process (another shop may still use that key).
    const limits = RATE_LIMITS.personal;
    const gate = databaseGate(rateKeyId(apiKey), limits);
    const pacer = new Pacer({ limits, gate, maxServerRetries: 3 });
    try {
      left = await removeWorkspaceItems(scope, client, { send: (request) => pacer.send(request) });
    } catch (error) {
      if (!(error instanceof IndexServiceError)) throw error;
    }
  }
  await prisma.$transaction([
    prisma.indexedItem.deleteMany({ where: scope }),
    prisma.shop.update({
      where: { shopDomain: shop.shopDomain },
      data: { formerWorkspaceId: null, formerSecretKeyCiphertext: null },
    }),
  ]);
  return left;
}

/**
 * Workspaces where the ledger still lists items of an active shop but that are no longer the
 * shop's (its domain changed, or Settings named another workspace): to be emptied.
 */
export function formerWorkspaces(): Promise<{ shopDomain: string; workspaceId: string }[]> {
  return prisma.$queryRaw`
    SELECT DISTINCT i."shopDomain", i."workspaceId" FROM "IndexedItem" i
    JOIN "Shop" s ON s."shopDomain" = i."shopDomain"
    WHERE s."state" = 'active' AND s."secretKeyCiphertext" IS NOT NULL
      AND i."workspaceId" <> COALESCE(s."workspaceOverride", s."workspaceId")`;
}

/**
 * Whether the shop was indexed into `current` after its items last went to the former
 * workspaces: "yes" (a full sync succeeded since), "failed" (one ran and failed: the next Resync
 * or reconciliation will do it), "no" (none ran yet).
 */
export async function reindexedSince(
  shopDomain: string,
  current: string,
  former: readonly string[],
): Promise<"yes" | "failed" | "no"> {
  const [latest] = await prisma.$queryRaw<{ sentAt: string | null }[]>`
    SELECT MAX("sentAt") AS "sentAt" FROM "IndexedItem"
    WHERE "shopDomain" = ${shopDomain} AND "workspaceId" IN (${Prisma.join(former)})`;
  const since = new Date(latest?.sentAt ?? 0);
  const runs = await prisma.syncRun.findMany({
    where: { shopDomain, workspaceId: current, startedAt: { gt: since } },
    select: { state: true },
  });
  if (runs.some((run) => run.state === "succeeded")) return "yes";
  return runs.length > 0 ? "failed" : "no";
}

/** Every workspace where the ledger has items of the shop. */
export async function workspacesOf(shopDomain: string): Promise<string[]> {
  const rows = await prisma.indexedItem.findMany({
    where: { shopDomain },
    distinct: ["workspaceId"],
    select: { workspaceId: true },
  });
  return rows.map((row) => row.workspaceId);
}

/** How long shop/redact spends removing the shop's items before deleting its data (Shopify waits 5 s). */
export const REDACT_REMOVAL_TIMEOUT_MS = 3_000;

/**
 * shop/redact: removes the shop's items from every workspace the ledger names, while its key still
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
    for (const workspaceId of await workspacesOf(shopDomain)) {
      left += await removeWorkspaceItems({ shopDomain, workspaceId }, client, { signal });
    }
    if (left > 0)
      console.warn(`[redact] ${shopDomain}: ${left} items could not be removed in time`);
    return left;
  } catch (error) {
    console.warn(`[redact] ${shopDomain}: its items could not be removed from the index`, error);
    return prisma.indexedItem.count({ where: { shopDomain } }).catch(() => 0);
  }
}
