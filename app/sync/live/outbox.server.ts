import { Prisma, type PendingChange } from "@prisma/client";
import prisma from "../../db.server";
import { retryWhileBusy } from "./database-busy.server";
import type { ProductChangeSignal } from "./product-webhook";

/** How long delivery ids are kept to recognise Shopify's retries and duplicates. */
export const WEBHOOK_RECEIPT_DAYS = 3;

/**
 * Marks an outbox row whose product is new to the index while the month's product quota is
 * spent: it waits for the quota to come back (the reset, or a bigger plan) instead of being
 * re-read on every pass.
 */
export const HELD_FOR_QUOTA_PREFIX = "[quota] ";

export interface ProductDelivery {
  shopDomain: string;
  /** X-Shopify-Webhook-Id: the same for every retry of one delivery. */
  webhookId: string;
  topic: string;
  signal: ProductChangeSignal;
  receivedAt: Date;
}

/** recorded: taken (an older change than the row's is kept out); ignored: not a shop that syncs products. */
export type DeliveryOutcome = "recorded" | "duplicate" | "ignored";

/**
 * Takes a products/* delivery into the outbox, once, before its webhook is answered. One row per
 * shop and product; a change older than the row's never overwrites it.
 *
 * Raw SQL and no transaction, as the sync engine writes (see ledger.server.ts), ordered so that a
 * crash anywhere loses nothing: the change is written before its receipt, so a crash in between
 * makes Shopify's retry count as new, and it writes the same change again, which changes nothing.
 */
export async function recordProductDelivery(delivery: ProductDelivery): Promise<DeliveryOutcome> {
  const { shopDomain, webhookId, topic, signal, receivedAt } = delivery;
  const [state] = await prisma.$queryRaw<{ syncing: number | bigint; seen: number | bigint }[]>`
    SELECT
      (SELECT COUNT(*) FROM "Shop" WHERE "shopDomain" = ${shopDomain}
        AND "state" <> 'uninstalled' AND "syncProducts" = true) AS "syncing",
      (SELECT COUNT(*) FROM "WebhookReceipt" WHERE "webhookId" = ${webhookId}) AS "seen"`;
  if (!Number(state?.syncing)) return "ignored";
  if (Number(state?.seen)) return "duplicate";
  return retryWhileBusy(async () => {
    // receivedAt stays the first receipt of a pending row: the coalescing window runs from it, so
    // a product that keeps changing is still sent.
    await prisma.$executeRaw`
      INSERT INTO "PendingChange" ("shopDomain", "productId", "change", "changedAt", "receivedAt", "attempts")
      VALUES (${shopDomain}, ${signal.productId}, ${signal.change}, ${signal.changedAt}, ${receivedAt}, 0)
      ON CONFLICT ("shopDomain", "productId") DO UPDATE SET
        "change" = excluded."change", "changedAt" = excluded."changedAt"
      WHERE excluded."changedAt" > "PendingChange"."changedAt"`;
    const taken = await prisma.$executeRaw`
      INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
      VALUES (${webhookId}, ${shopDomain}, ${topic}, ${receivedAt})
      ON CONFLICT ("webhookId") DO NOTHING`;
    // Taken meanwhile by a concurrent delivery of the same id: its change is the same.
    return taken > 0 ? "recorded" : "duplicate";
  });
}

export interface ShopBacklog {
  shopDomain: string;
  /** Changes that may be sent now (not held for the quota). */
  sendable: number;
  /** First receipt of the oldest of them: the coalescing window runs from it. */
  oldestSendableAt: Date | null;
  /** Changes held for the quota. */
  held: number;
}

/** Shops with changes waiting: how many, since when. */
export async function shopBacklogs(): Promise<ShopBacklog[]> {
  const held = `${HELD_FOR_QUOTA_PREFIX}%`;
  const rows = await prisma.$queryRaw<
    {
      shopDomain: string;
      sendable: number | bigint;
      oldest: string | null;
      held: number | bigint;
    }[]
  >`
    SELECT "shopDomain",
      SUM(CASE WHEN "lastError" LIKE ${held} THEN 0 ELSE 1 END) AS "sendable",
      MIN(CASE WHEN "lastError" LIKE ${held} THEN NULL ELSE "receivedAt" END) AS "oldest",
      SUM(CASE WHEN "lastError" LIKE ${held} THEN 1 ELSE 0 END) AS "held"
    FROM "PendingChange" GROUP BY "shopDomain"`;
  return rows.map((row) => ({
    shopDomain: row.shopDomain,
    sendable: Number(row.sendable),
    oldestSendableAt: row.oldest === null ? null : new Date(row.oldest),
    held: Number(row.held),
  }));
}

/**
 * The next changes of a shop to send, oldest first: at most `limit`, only those received before
 * `receivedBefore` (the coalescing window), and those held for the quota only when asked.
 */
export function nextChanges(
  shopDomain: string,
  options: {
    limit: number;
    receivedBefore?: Date;
    includeHeld: boolean;
    /** Products not to take now (refused a moment ago). */
    except?: readonly string[];
  },
): Promise<PendingChange[]> {
  const conditions = [Prisma.sql`"shopDomain" = ${shopDomain}`];
  if (options.receivedBefore)
    conditions.push(Prisma.sql`"receivedAt" <= ${options.receivedBefore}`);
  if (!options.includeHeld) conditions.push(notHeld);
  if (options.except?.length) {
    conditions.push(Prisma.sql`"productId" NOT IN (${Prisma.join(options.except)})`);
  }
  return prisma.$queryRaw<PendingChange[]>`
    SELECT * FROM "PendingChange" WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY "receivedAt", "productId" LIMIT ${options.limit}`;
}

const notHeld = Prisma.sql`("lastError" IS NULL OR "lastError" NOT LIKE ${`${HELD_FOR_QUOTA_PREFIX}%`})`;

/** Pending changes of a shop that may be sent now (not held for the quota). */
export async function sendableCount(shopDomain: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: number | bigint }[]>`
    SELECT COUNT(*) AS "n" FROM "PendingChange" WHERE "shopDomain" = ${shopDomain} AND ${notHeld}`;
  return Number(row?.n ?? 0);
}

/**
 * Removes changes the service acknowledged (or that needed nothing sent). Only the very change
 * that was read is removed: a newer one that came in meanwhile stays for the next pass.
 */
export async function removeChanges(
  rows: readonly Pick<PendingChange, "shopDomain" | "productId" | "changedAt">[],
): Promise<void> {
  if (rows.length === 0) return;
  // One condition per row rather than a tuple IN (VALUES …): compared with a column, each
  // parameter takes the column's type on PostgreSQL too (a VALUES list would leave dates as text).
  const keys = rows.map(
    (row) =>
      Prisma.sql`("shopDomain" = ${row.shopDomain} AND "productId" = ${row.productId} AND "changedAt" = ${row.changedAt})`,
  );
  await prisma.$executeRaw`DELETE FROM "PendingChange" WHERE ${Prisma.join(keys, " OR ")}`;
}

/** Counts a failed attempt on changes that stay in the outbox, with the reason. */
export async function noteAttempt(
  shopDomain: string,
  productIds: readonly string[],
  error: string,
): Promise<void> {
  if (productIds.length === 0) return;
  await prisma.$executeRaw`
    UPDATE "PendingChange" SET "attempts" = "attempts" + 1, "lastError" = ${error.slice(0, 500)}
    WHERE "shopDomain" = ${shopDomain} AND "productId" IN (${Prisma.join(productIds)})`;
}

/** Changes that wait for the product quota to come back (new products only). */
export async function holdForQuota(
  shopDomain: string,
  productIds: readonly string[],
  reason: string,
): Promise<void> {
  if (productIds.length === 0) return;
  await prisma.$executeRaw`
    UPDATE "PendingChange" SET "lastError" = ${`${HELD_FOR_QUOTA_PREFIX}${reason}`}
    WHERE "shopDomain" = ${shopDomain} AND "productId" IN (${Prisma.join(productIds)})`;
}

/**
 * Changes a completed full sync already covered: it exported the store after they happened and
 * sent what differed. Changes at or after `exportStartedAt` (Shopify's clock, less a margin), and
 * products the run did not deliver, stay.
 */
export async function removeChangesCoveredByRun(
  shopDomain: string,
  runId: string,
  exportStartedAt: Date,
): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM "PendingChange"
    WHERE "shopDomain" = ${shopDomain} AND "changedAt" < ${exportStartedAt}
      AND "productId" NOT IN (
        SELECT "itemId" FROM "SyncItem"
        WHERE "runId" = ${runId} AND "kind" = 'product' AND "status" <> 'sent')`;
}

/** Drops every pending change of a shop (uninstalled). */
export async function dropShopChanges(shopDomain: string): Promise<number> {
  const { count } = await prisma.pendingChange.deleteMany({ where: { shopDomain } });
  return count;
}

/** Forgets delivery ids older than the retention (Shopify stops retrying long before). */
export async function pruneWebhookReceipts(now: Date): Promise<number> {
  const before = new Date(now.getTime() - WEBHOOK_RECEIPT_DAYS * 24 * 3600_000);
  const { count } = await prisma.webhookReceipt.deleteMany({
    where: { receivedAt: { lt: before } },
  });
  return count;
}
