import { Prisma, type PendingChange } from "@prisma/client";
import prisma, {
  driverExecute,
  driverQuery,
  modelRowOf,
  retryWhileBusy,
  toDate,
} from "./db.server";
import { fenceCondition, fencedWrite, type LeaseFence } from "./shop-leases.server";

/** What a products/* delivery tells: which product changed, how, and as of when. */
export interface ProductChangeSignal {
  /** The product's numeric Shopify id (the service's product id). */
  productId: string;
  change: "update" | "delete";
  changedAt: Date;
  /** products/create|update: the payload's fingerprint (app/catalogue/product-payload.ts). */
  fingerprint?: string | null;
}

/**
 * What the worker does with a pending product: `update` re-reads it whole (a create counts as
 * one), `delete` too (it finds the product gone), `stock` reads only its variants' stock and sends
 * the last document with that stock, when the ledger keeps one (an inventory level changed and
 * nothing else is known to have).
 */
export type PendingChangeKind = "update" | "delete" | "stock";

/**
 * One row per shop and product: the newest change wins, but a stock change never hides another
 * one. A stock change joining an update or delete makes it an update (a whole re-read covers the
 * stock), and any other change, even an older one that arrived late, turns a pending stock change
 * into an update, keeping the newer time. Two updates with different payloads leave no
 * fingerprint: which payload is the store's now cannot be told from their times (a resent older
 * payload may carry a newer time), so the product is re-read whole rather than maybe skipped.
 */
const MERGE_PENDING_CHANGE = Prisma.sql`ON CONFLICT ("shopDomain", "productId") DO UPDATE SET
  "change" = CASE
    WHEN excluded."changedAt" > "PendingChange"."changedAt" THEN
      CASE WHEN excluded."change" <> 'stock' THEN excluded."change"
           WHEN "PendingChange"."change" = 'stock' THEN 'stock' ELSE 'update' END
    ELSE 'update' END,
  "fingerprint" = CASE
    WHEN excluded."change" = 'stock' THEN "PendingChange"."fingerprint"
    WHEN "PendingChange"."change" = 'update' AND ("PendingChange"."fingerprint" IS NULL
      OR excluded."fingerprint" IS NULL OR "PendingChange"."fingerprint" <> excluded."fingerprint")
      THEN NULL
    ELSE excluded."fingerprint" END,
  "changedAt" = CASE WHEN excluded."changedAt" > "PendingChange"."changedAt"
    THEN excluded."changedAt" ELSE "PendingChange"."changedAt" END
  WHERE excluded."changedAt" > "PendingChange"."changedAt"
    OR ("PendingChange"."change" = 'stock' AND excluded."change" <> 'stock')`;

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
 * Takes many products/* deliveries into the outbox at once, each once by its delivery id, with
 * one outcome per delivery in their order. Three statements whatever their number: which shops
 * sync products and which ids were taken before; the changes (one row per shop and product, an
 * older change never overwriting a newer one); then the receipts. Raw SQL without a transaction,
 * ordered so that a crash anywhere loses nothing: the changes are written before their receipts,
 * so a crash in between makes Shopify's retries count as new, and they write the same changes
 * again, which changes nothing. Sent to the driver without Prisma's engine (`driverQuery`): they
 * are most of a delivery's CPU otherwise.
 */
export async function recordProductDeliveries(
  deliveries: readonly ProductDelivery[],
): Promise<DeliveryOutcome[]> {
  if (deliveries.length === 0) return [];
  const shops = [...new Set(deliveries.map((d) => d.shopDomain))];
  const ids = [...new Set(deliveries.map((d) => d.webhookId))];
  const known = await driverQuery<{ kind: string; key: string }>(Prisma.sql`
    SELECT 'shop' AS "kind", "shopDomain" AS "key" FROM "Shop"
      WHERE "shopDomain" IN (${Prisma.join(shops)}) AND "state" <> 'uninstalled' AND "syncProducts" = true
    UNION ALL
    SELECT 'seen' AS "kind", "webhookId" AS "key" FROM "WebhookReceipt"
      WHERE "webhookId" IN (${Prisma.join(ids)})`);
  const syncing = new Set(known.filter((r) => r.kind === "shop").map((r) => r.key));
  const seen = new Set(known.filter((r) => r.kind === "seen").map((r) => r.key));

  const outcomes: DeliveryOutcome[] = [];
  const fresh: ProductDelivery[] = [];
  // One row per shop and product: the newest change of the batch (the first of equals, as one
  // by one), first received at the earliest receipt.
  const changes = new Map<string, { delivery: ProductDelivery; receivedAt: Date }>();
  for (const delivery of deliveries) {
    if (!syncing.has(delivery.shopDomain)) {
      outcomes.push("ignored");
      continue;
    }
    if (seen.has(delivery.webhookId)) {
      outcomes.push("duplicate");
      continue;
    }
    seen.add(delivery.webhookId);
    fresh.push(delivery);
    outcomes.push("recorded");
    const key = `${delivery.shopDomain}\n${delivery.signal.productId}`;
    const current = changes.get(key);
    if (!current) {
      changes.set(key, { delivery, receivedAt: delivery.receivedAt });
    } else {
      const differ =
        current.delivery.signal.change === "update" &&
        delivery.signal.change === "update" &&
        current.delivery.signal.fingerprint !== delivery.signal.fingerprint;
      if (delivery.signal.changedAt > current.delivery.signal.changedAt) {
        current.delivery = delivery;
      }
      // As MERGE_PENDING_CHANGE does: two different payloads, no fingerprint (a whole re-read).
      if (differ) {
        current.delivery = {
          ...current.delivery,
          signal: { ...current.delivery.signal, fingerprint: null },
        };
      }
      if (delivery.receivedAt < current.receivedAt) current.receivedAt = delivery.receivedAt;
    }
  }
  if (fresh.length === 0) return outcomes;

  const taken = await retryWhileBusy(async () => {
    // receivedAt stays the first receipt of a pending row (or the read of the pass it came in
    // during, removeChanges): the coalescing window runs from it, so a product that keeps
    // changing is still sent.
    const rows = [...changes.values()].map(
      ({ delivery: { shopDomain, signal }, receivedAt }) =>
        Prisma.sql`(${shopDomain}, ${signal.productId}, ${signal.change}, ${signal.changedAt}, ${receivedAt}, 0, ${signal.fingerprint ?? null})`,
    );
    await driverExecute(Prisma.sql`
      INSERT INTO "PendingChange" ("shopDomain", "productId", "change", "changedAt", "receivedAt", "attempts", "fingerprint")
      VALUES ${Prisma.join(rows)}
      ${MERGE_PENDING_CHANGE}`);
    const receipts = fresh.map(
      (d) => Prisma.sql`(${d.webhookId}, ${d.shopDomain}, ${d.topic}, ${d.receivedAt})`,
    );
    const inserted = await driverQuery<{ webhookId: string }>(Prisma.sql`
      INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
      VALUES ${Prisma.join(receipts)}
      ON CONFLICT ("webhookId") DO NOTHING
      RETURNING "webhookId"`);
    return new Set(inserted.map((row) => row.webhookId));
  });
  // Taken meanwhile by a concurrent delivery of the same id (another instance): its change is
  // the same.
  return deliveries.map((delivery, k) =>
    outcomes[k] === "recorded" && !taken.has(delivery.webhookId) ? "duplicate" : outcomes[k]!,
  );
}

export interface ShopBacklog {
  shopDomain: string;
  /** Changes that may be sent now (not held for the quota). */
  sendable: number;
  /** The oldest one's receivedAt (see recordProductDeliveries): the coalescing window runs from it. */
  oldestSendableAt: Date | null;
  /** Changes held for the quota. */
  held: number;
}

/** Shops with lookups waiting (changes not yet tied to their products), since when. */
export interface LookupBacklog {
  shopDomain: string;
  oldest: Date;
}

/**
 * What the live worker polls for, every second, in one statement: the shops with changes waiting
 * (how many, since when) and those with lookups waiting. To the driver, as the worker's other
 * statements of every poll and pass: through Prisma's engine each raw statement is compiled
 * again, which was most of what an idle worker spent.
 */
export async function outboxBacklogs(): Promise<{
  changes: ShopBacklog[];
  lookups: LookupBacklog[];
}> {
  const held = `${HELD_FOR_QUOTA_PREFIX}%`;
  const rows = await driverQuery<{
    kind: string;
    shopDomain: string;
    sendable: number | bigint;
    oldest: unknown;
    held: number | bigint;
  }>(Prisma.sql`
    SELECT 'change' AS "kind", "shopDomain",
      SUM(CASE WHEN "lastError" LIKE ${held} THEN 0 ELSE 1 END) AS "sendable",
      MIN(CASE WHEN "lastError" LIKE ${held} THEN NULL ELSE "receivedAt" END) AS "oldest",
      SUM(CASE WHEN "lastError" LIKE ${held} THEN 1 ELSE 0 END) AS "held"
    FROM "PendingChange" GROUP BY "shopDomain"
    UNION ALL
    SELECT 'lookup' AS "kind", "shopDomain", 0 AS "sendable", MIN("receivedAt") AS "oldest",
      0 AS "held"
    FROM "PendingLookup" GROUP BY "shopDomain"`);
  const changes: ShopBacklog[] = [];
  const lookups: LookupBacklog[] = [];
  for (const row of rows) {
    if (row.kind === "lookup") {
      lookups.push({ shopDomain: row.shopDomain, oldest: toDate(row.oldest) });
    } else {
      changes.push({
        shopDomain: row.shopDomain,
        sendable: Number(row.sendable),
        oldestSendableAt: row.oldest == null ? null : toDate(row.oldest),
        held: Number(row.held),
      });
    }
  }
  return { changes, lookups };
}

/**
 * The next changes of a shop to send, oldest first: at most `limit`, only those received before
 * `receivedBefore` (the coalescing window), and those held for the quota only when asked.
 */
export async function nextChanges(
  shopDomain: string,
  options: {
    limit: number;
    receivedBefore?: Date;
    includeHeld: boolean;
    /** Products not to take now (refused a moment ago). */
    except?: readonly string[];
  },
): Promise<PendingChange[]> {
  const rows = await driverQuery<Record<string, unknown>>(nextChangesSql(shopDomain, options));
  return rows.map((row) => modelRowOf<PendingChange>("PendingChange", row));
}

const notHeld = Prisma.sql`("lastError" IS NULL OR "lastError" NOT LIKE ${`${HELD_FOR_QUOTA_PREFIX}%`})`;

/** A shop's oldest changes as read (at most `limit`) and how many of its changes may be sent now. */
export interface ChangesRead {
  rows: PendingChange[];
  sendable: number;
  limit: number;
}

/** The statement of a shop's oldest changes, at most `limit` (ordered by receipt, then product). */
export function nextChangesSql(
  shopDomain: string,
  options: {
    limit: number;
    includeHeld: boolean;
    except?: readonly string[];
    /** Only those received before (nextChanges; nextChangesAndSendable applies it after reading). */
    receivedBefore?: Date;
  },
): Prisma.Sql {
  const conditions = [Prisma.sql`"shopDomain" = ${shopDomain}`];
  if (options.receivedBefore)
    conditions.push(Prisma.sql`"receivedAt" <= ${options.receivedBefore}`);
  if (!options.includeHeld) conditions.push(notHeld);
  if (options.except?.length) {
    conditions.push(Prisma.sql`"productId" NOT IN (${Prisma.join(options.except)})`);
  }
  return Prisma.sql`
    SELECT * FROM "PendingChange" WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY "receivedAt", "productId" LIMIT ${options.limit}`;
}

/** How many of a shop's changes may be sent now (not held for the quota), as a value in a statement. */
export function sendableCountSql(shopDomain: string): Prisma.Sql {
  return Prisma.sql`(SELECT COUNT(*) FROM "PendingChange" WHERE "shopDomain" = ${shopDomain} AND ${notHeld})`;
}

/**
 * The next changes of a shop to send (as nextChanges) and how many of its changes may be sent now
 * (sendableCount), in one statement. The coalescing window (`receivedBefore`) applies only while
 * fewer than `limit` are sendable: the rows are read oldest first without it and the window then
 * keeps their oldest ones, which are the ones nextChanges would read with it.
 */
export async function nextChangesAndSendable(
  shopDomain: string,
  options: {
    limit: number;
    receivedBefore: Date;
    includeHeld: boolean;
    except?: readonly string[];
  },
): Promise<{ rows: PendingChange[]; sendable: number }> {
  const found = await driverQuery<Record<string, unknown>>(Prisma.sql`
    SELECT n.*, ${sendableCountSql(shopDomain)} AS "sendableNow"
    FROM (${nextChangesSql(shopDomain, { ...options, receivedBefore: undefined })}) AS n
    ORDER BY n."receivedAt", n."productId"`);
  // None read: the count still decides whether the backlog calls for a full sync.
  const sendable =
    found.length > 0 ? Number(found[0]!.sendableNow) : await sendableCount(shopDomain);
  const rows = found.map((row) => modelRowOf<PendingChange>("PendingChange", row));
  return dueOf({ rows, sendable, limit: options.limit }, options.receivedBefore);
}

/**
 * The changes read with a live pass (passStart, held for the quota or not) as
 * nextChangesAndSendable would read them now: the same when held changes are to be sent too, or
 * when none was read. Null when a held change was read and is not to be sent: the rows read may
 * then be fewer than the sendable ones nextChangesAndSendable reads.
 */
export function dueChangesOf(
  read: ChangesRead,
  options: { includeHeld: boolean; receivedBefore: Date },
): { rows: PendingChange[]; sendable: number } | null {
  const held = (row: PendingChange) => row.lastError?.startsWith(HELD_FOR_QUOTA_PREFIX) ?? false;
  if (!options.includeHeld && read.rows.some(held)) return null;
  return dueOf(read, options.receivedBefore);
}

/**
 * The coalescing window applied to changes read oldest first (nextChangesAndSendable): once the
 * oldest has waited, or a batch's worth is pending, the batch takes every change read, the ones
 * that came in since too. Under a steady stream (a sale) a pass then sends what is pending in one
 * write a workspace, every window, instead of a small write for each change as it comes due.
 */
function dueOf(read: ChangesRead, receivedBefore: Date) {
  const { rows, sendable, limit } = read;
  const due =
    sendable >= limit || rows.some((row) => row.receivedAt.getTime() <= receivedBefore.getTime());
  return { rows: due ? rows : [], sendable };
}

/** Pending changes of a shop that may be sent now (not held for the quota). */
export async function sendableCount(shopDomain: string): Promise<number> {
  const [row] = await driverQuery<{ n: number | bigint }>(Prisma.sql`
    SELECT COUNT(*) AS "n" FROM "PendingChange" WHERE "shopDomain" = ${shopDomain} AND ${notHeld}`);
  return Number(row?.n ?? 0);
}

/**
 * Whether a shop may have work due now, in one statement: lookups waiting, changes received
 * before `receivedBefore`, or a batch's worth of changes of any age. Never false when a pass
 * would find something to send (it may be true when the pass then finds nothing: changes held
 * for the quota, products refused a moment ago).
 */
export async function mayHaveDueWork(
  shopDomain: string,
  receivedBefore: Date,
  batchSize: number,
): Promise<boolean> {
  const [row] = await driverQuery<{
    lookups: number | bigint;
    due: number | bigint;
    changes: number | bigint;
  }>(Prisma.sql`
    SELECT
      (SELECT COUNT(*) FROM "PendingLookup" WHERE "shopDomain" = ${shopDomain}) AS "lookups",
      (SELECT COUNT(*) FROM "PendingChange" WHERE "shopDomain" = ${shopDomain}
        AND "receivedAt" <= ${receivedBefore}) AS "due",
      (SELECT COUNT(*) FROM "PendingChange" WHERE "shopDomain" = ${shopDomain}) AS "changes"`);
  if (!row) return true;
  return Number(row.lookups) > 0 || Number(row.due) > 0 || Number(row.changes) >= batchSize;
}

/**
 * Removes changes the service acknowledged (or that needed nothing sent). Only the very change
 * that was read is removed: a newer one that came in meanwhile stays for the next pass, and with
 * `windowFrom` (when the pass read its rows) its coalescing window runs from then, not from the
 * first receipt of the change just sent. Otherwise, under a steady stream (a sale), a product
 * bought while a pass ran would be due at once, and a second pass would write again a moment
 * after the first.
 */
export async function removeChanges(
  rows: readonly Pick<PendingChange, "shopDomain" | "productId" | "change" | "changedAt">[],
  /** The sender's lease: the rows stay (and LeaseLostError is thrown) once it was taken over. */
  fence?: LeaseFence,
  options: { windowFrom?: Date } = {},
): Promise<void> {
  if (rows.length === 0) return;
  // One condition per row rather than a tuple IN (VALUES …): compared with a column, each
  // parameter takes the column's type on PostgreSQL too (a VALUES list would leave dates as text).
  const keys = rows.map(
    (row) =>
      Prisma.sql`("shopDomain" = ${row.shopDomain} AND "productId" = ${row.productId} AND "change" = ${row.change} AND "changedAt" = ${row.changedAt})`,
  );
  const removed = await fencedWrite(
    fence,
    () =>
      driverQuery<{ shopDomain: string; productId: string }>(Prisma.sql`
      DELETE FROM "PendingChange" WHERE (${Prisma.join(keys, " OR ")})
        AND ${fence ? fenceCondition(fence) : Prisma.sql`1 = 1`}
      RETURNING "shopDomain", "productId"`),
    (deleted) => deleted.length === 0,
  );
  const { windowFrom } = options;
  if (!windowFrom || removed.length >= rows.length) return;
  const gone = new Set(removed.map((row) => `${row.shopDomain}\n${row.productId}`));
  // Only the rows that stayed: one a lookup put back since the delete keeps its own receipt.
  const superseded = rows
    .filter((row) => !gone.has(`${row.shopDomain}\n${row.productId}`))
    .map(
      (row) => Prisma.sql`("shopDomain" = ${row.shopDomain} AND "productId" = ${row.productId})`,
    );
  await driverExecute(Prisma.sql`
    UPDATE "PendingChange" SET "receivedAt" = ${windowFrom}
    WHERE (${Prisma.join(superseded, " OR ")}) AND "receivedAt" < ${windowFrom}`);
}

/** How many changes of a shop wait in the outbox. */
export function pendingChangeCount(shopDomain: string): Promise<number> {
  return prisma.pendingChange.count({ where: { shopDomain } });
}

/** The shop's change that came in first of those waiting. */
export function oldestPendingChange(shopDomain: string): Promise<PendingChange | null> {
  return prisma.pendingChange.findFirst({ where: { shopDomain }, orderBy: { receivedAt: "asc" } });
}

/** The shop's change refused most often (with its last reason), not counting those held for the quota. */
export function mostRetriedChange(shopDomain: string): Promise<PendingChange | null> {
  return prisma.pendingChange.findFirst({
    where: {
      shopDomain,
      attempts: { gt: 0 },
      lastError: { not: null },
      NOT: { lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } },
    },
    orderBy: [{ attempts: "desc" }, { receivedAt: "asc" }],
  });
}

/** How many changes of a shop wait for the product quota to come back. */
export function heldForQuotaCount(shopDomain: string): Promise<number> {
  return prisma.pendingChange.count({
    where: { shopDomain, lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } },
  });
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

/** The changes of these products still in the outbox after a failed attempt, with their attempts. */
export function refusedChangesLeft(
  shopDomain: string,
  productIds: readonly string[],
): Promise<{ productId: string; attempts: number }[]> {
  return prisma.pendingChange.findMany({
    where: { shopDomain, productId: { in: [...productIds] }, attempts: { gt: 0 } },
    select: { productId: true, attempts: true },
  });
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

/**
 * Puts products into the live outbox as changed at `changedAt` (received at `receivedAt`, so a
 * lookup that already waited is not held again): the worker re-reads and sends them like any
 * product change (`stock`: reads only their stock, see PendingChangeKind). A newer change already
 * there (a delete, say) is kept.
 */
export async function enqueueProductUpdates(
  shopDomain: string,
  productIds: readonly string[],
  changedAt: Date,
  receivedAt: Date,
  change: Exclude<PendingChangeKind, "delete"> = "update",
): Promise<void> {
  for (let start = 0; start < productIds.length; start += 200) {
    const values = productIds
      .slice(start, start + 200)
      .map(
        (productId) =>
          Prisma.sql`(${shopDomain}, ${productId}, ${change}, ${changedAt}, ${receivedAt}, 0, NULL)`,
      );
    await retryWhileBusy(
      () => prisma.$executeRaw`
        INSERT INTO "PendingChange" ("shopDomain", "productId", "change", "changedAt", "receivedAt", "attempts", "fingerprint")
        VALUES ${Prisma.join(values)}
        ${MERGE_PENDING_CHANGE}`,
    );
  }
}

/** The whole outbox at a glance, every shop together (the app's metrics, app/server/metrics.ts). */
export interface OutboxBacklog {
  /** Changes waiting to be sent. */
  waiting: number;
  /** Changes held back until the shop's product quota comes back. */
  heldForQuota: number;
  /** When the change that has waited longest (held ones left out) came in; null when none waits. */
  oldestReceivedAt: Date | null;
}

export async function outboxBacklog(): Promise<OutboxBacklog> {
  const held = { lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } };
  // `NOT startsWith` alone would leave out the rows whose lastError is null.
  const notHeld = { OR: [{ lastError: null }, { NOT: held }] };
  const [waiting, heldForQuota, oldest] = await Promise.all([
    prisma.pendingChange.count({ where: notHeld }),
    prisma.pendingChange.count({ where: held }),
    prisma.pendingChange.aggregate({ where: notHeld, _min: { receivedAt: true } }),
  ]);
  return { waiting, heldForQuota, oldestReceivedAt: oldest._min.receivedAt };
}

/** outboxBacklog for each of `shops` (a short list: METRICS_SHOP_LABELS), every one present. */
export async function outboxBacklogByShop(
  shops: readonly string[],
): Promise<Map<string, OutboxBacklog>> {
  const held = { lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } };
  const notHeld = { OR: [{ lastError: null }, { NOT: held }] };
  const inShops = { shopDomain: { in: [...shops] } };
  const [waiting, heldForQuota] = await Promise.all([
    prisma.pendingChange.groupBy({
      by: ["shopDomain"],
      where: { ...inShops, ...notHeld },
      _count: { _all: true },
      _min: { receivedAt: true },
    }),
    prisma.pendingChange.groupBy({
      by: ["shopDomain"],
      where: { ...inShops, ...held },
      _count: { _all: true },
    }),
  ]);
  const backlog = new Map<string, OutboxBacklog>(
    shops.map((shop) => [shop, { waiting: 0, heldForQuota: 0, oldestReceivedAt: null }]),
  );
  for (const row of waiting) {
    const entry = backlog.get(row.shopDomain)!;
    entry.waiting = row._count._all;
    entry.oldestReceivedAt = row._min.receivedAt;
  }
  for (const row of heldForQuota) backlog.get(row.shopDomain)!.heldForQuota = row._count._all;
  return backlog;
}

/**
 * The product changes that wait for something other than time, as the Dashboard names them: held
 * for the quota, or refused by the service (at least once), the first `take` of each by arrival.
 */
export async function leftOutChanges(shopDomain: string, take: number) {
  const quota = { shopDomain, lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } };
  const refused = {
    shopDomain,
    attempts: { gt: 0 },
    lastError: { not: null },
    NOT: { lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } },
  };
  const order = [{ receivedAt: "asc" as const }, { productId: "asc" as const }];
  const [held, heldCount, refusedRows, refusedCount] = await Promise.all([
    prisma.pendingChange.findMany({ where: quota, orderBy: order, take }),
    prisma.pendingChange.count({ where: quota }),
    prisma.pendingChange.findMany({ where: refused, orderBy: order, take }),
    prisma.pendingChange.count({ where: refused }),
  ]);
  return { held, heldCount, refused: refusedRows, refusedCount };
}
