import { Prisma, type PendingLookup } from "@prisma/client";
import prisma, { retryWhileBusy } from "./db.server";
import type { DeliveryOutcome } from "./outbox.server";
import { forgetItemOnTie, levelUpsert, type ModelLevel } from "./stock-model.server";

/**
 * A webhook that names something other than a product: which products it concerns is asked of
 * Shopify later (by the live worker, never inside the request).
 */
export type LookupKind = "inventory-item" | "collection" | "collection-delete";

export interface LookupSignal {
  kind: LookupKind;
  /** The inventory item's or collection's numeric Shopify id. */
  resourceId: string;
  changedAt: Date;
  /** inventory_levels/update: the level it reports (kept in the stock model, newest wins). */
  level?: ModelLevel;
}

/**
 * Takes a delivery into PendingLookup (one row per shop, kind and resource; an older change never
 * overwrites a newer one), then its receipt: the same order and reasons as recordProductDelivery.
 */
export async function recordLookupDelivery(
  shopDomain: string,
  webhookId: string,
  topic: string,
  signal: LookupSignal,
  receivedAt: Date,
): Promise<DeliveryOutcome> {
  const [state] = await prisma.$queryRaw<{ syncing: number | bigint; seen: number | bigint }[]>`
    SELECT
      (SELECT COUNT(*) FROM "Shop" WHERE "shopDomain" = ${shopDomain}
        AND "state" <> 'uninstalled' AND "syncProducts" = true) AS "syncing",
      (SELECT COUNT(*) FROM "WebhookReceipt" WHERE "webhookId" = ${webhookId}) AS "seen"`;
  if (!Number(state?.syncing)) return "ignored";
  if (Number(state?.seen)) return "duplicate";
  return retryWhileBusy(async () => {
    if (signal.level) {
      await prisma.$executeRaw(
        levelUpsert(shopDomain, signal.resourceId, signal.level, signal.changedAt),
      );
      await prisma.$executeRaw(
        forgetItemOnTie(shopDomain, signal.resourceId, signal.level, signal.changedAt),
      );
    }
    await prisma.$executeRaw`
      INSERT INTO "PendingLookup" ("shopDomain", "kind", "resourceId", "changedAt", "receivedAt", "attempts")
      VALUES (${shopDomain}, ${signal.kind}, ${signal.resourceId}, ${signal.changedAt}, ${receivedAt}, 0)
      ON CONFLICT ("shopDomain", "kind", "resourceId") DO UPDATE SET "changedAt" = excluded."changedAt"
      WHERE excluded."changedAt" > "PendingLookup"."changedAt"`;
    const taken = await prisma.$executeRaw`
      INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
      VALUES (${webhookId}, ${shopDomain}, ${topic}, ${receivedAt})
      ON CONFLICT ("webhookId") DO NOTHING`;
    return taken > 0 ? "recorded" : "duplicate";
  });
}

/** When the shop's oldest lookup (a change not yet tied to its product) came in; null when none. */
export async function oldestLookupAt(shopDomain: string): Promise<Date | null> {
  const oldest = await prisma.pendingLookup.findFirst({
    where: { shopDomain },
    orderBy: { receivedAt: "asc" },
    select: { receivedAt: true },
  });
  return oldest?.receivedAt ?? null;
}

/** A shop's lookups, oldest first. */
export function pendingLookups(shopDomain: string, limit: number): Promise<PendingLookup[]> {
  return prisma.pendingLookup.findMany({
    where: { shopDomain },
    orderBy: [{ receivedAt: "asc" }, { resourceId: "asc" }],
    take: limit,
  });
}

/** Removes resolved lookups: only the very change that was read (a newer one stays). */
export async function removeLookups(
  rows: readonly Pick<PendingLookup, "shopDomain" | "kind" | "resourceId" | "changedAt">[],
): Promise<void> {
  if (rows.length === 0) return;
  const keys = rows.map(
    (row) =>
      Prisma.sql`("shopDomain" = ${row.shopDomain} AND "kind" = ${row.kind} AND "resourceId" = ${row.resourceId} AND "changedAt" = ${row.changedAt})`,
  );
  await prisma.$executeRaw`DELETE FROM "PendingLookup" WHERE ${Prisma.join(keys, " OR ")}`;
}

export async function noteLookupAttempt(
  rows: readonly Pick<PendingLookup, "shopDomain" | "kind" | "resourceId">[],
  error: string,
): Promise<void> {
  // Raw SQL, not `updateMany`: Prisma runs that in a transaction of its own, and on SQLite each
  // one opens a connection (docs/database.md, "Memory").
  for (const row of rows) {
    await prisma.$executeRaw`
      UPDATE "PendingLookup" SET "attempts" = "attempts" + 1, "lastError" = ${error.slice(0, 500)}
      WHERE "shopDomain" = ${row.shopDomain} AND "kind" = ${row.kind} AND "resourceId" = ${row.resourceId}`;
  }
}

export async function dropShopLookups(shopDomain: string): Promise<number> {
  const { count } = await prisma.pendingLookup.deleteMany({ where: { shopDomain } });
  return count;
}
