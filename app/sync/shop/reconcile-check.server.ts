import type { ReconcileCheck } from "@prisma/client";
import {
  ITEM_TITLES_QUERY,
  isFinishedBulkStatus,
  productsChangedSinceBulkQuery,
  queryAdmin,
  readBulkExport,
  readBulkOperation,
  startBulkQuery,
  toGid,
  urlSource,
  type AdminGraphql,
  type ItemTitlesData,
} from "../../catalog";
import prisma from "../../db.server";
import { findShop, workspaceOf } from "../../models/shops.server";
import { indexedHashes } from "../../models/ledger.server";
import { enqueueProductUpdates } from "../../models/outbox.server";
import { runCounts, unfinishedRun } from "../../models/sync-runs.server";
import { catalogueEntry } from "../engine/catalogue-entry";

/**
 * Shopify's `updated_at` and this server's clock may differ a little: each check looks this far
 * before the previous one began (re-reading a few unchanged products costs nothing: their hashes
 * match the ledger).
 */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** Items named on a check (the dashboard lists them). */
const ITEMS_KEPT = 50;

export interface RepairedItem {
  id: string;
  title: string;
  action: "updated" | "removed";
}

export interface IncrementalCheckOptions {
  shopDomain: string;
  admin: AdminGraphql;
  now?: () => Date;
  /** How often the bulk operation's status is asked (default 1 s). */
  pollMs?: number;
  /** Give up waiting for the export after this long (default 30 min). */
  timeoutMs?: number;
}

/** Where an incremental check starts: the previous check, else the last finished full sync. */
async function checkedUpTo(shopDomain: string): Promise<Date | null> {
  const [check, run] = await Promise.all([
    prisma.reconcileCheck.findFirst({
      where: { shopDomain, finishedAt: { not: null }, error: null },
      orderBy: { startedAt: "desc" },
    }),
    prisma.syncRun.findFirst({
      where: { shopDomain, state: "succeeded" },
      orderBy: { startedAt: "desc" },
    }),
  ]);
  const times = [check?.startedAt, run?.startedAt].filter((time): time is Date => !!time);
  if (times.length === 0) return null;
  return new Date(Math.max(...times.map((time) => time.getTime())));
}

/**
 * The hourly check: one bulk export of the products Shopify changed since the last check (its
 * `updated_at` search; no cost points), each mapped and hashed and compared with the ledger. What
 * differs (a lost or late webhook: stock, publication, any edit) goes into the live outbox, so the
 * worker sends it by the one path; the check is stored with what it repaired. Returns null when
 * the shop is not one to check now (not active, nothing synced yet, a full sync under way).
 */
export async function checkChangedProducts(
  options: IncrementalCheckOptions,
): Promise<ReconcileCheck | null> {
  const now = options.now ?? (() => new Date());
  const { shopDomain, admin } = options;
  const shop = await findShop(shopDomain);
  const workspaceId = shop && workspaceOf(shop);
  if (!shop || shop.state !== "active" || !shop.syncProducts || !workspaceId) return null;
  if (!shop.secretKeyCiphertext || (await unfinishedRun(shopDomain))) return null;
  const upTo = await checkedUpTo(shopDomain);
  if (!upTo) return null;
  const since = new Date(upTo.getTime() - CLOCK_MARGIN_MS);
  const check = await prisma.reconcileCheck.create({
    data: { shopDomain, kind: "incremental", since, startedAt: now() },
  });
  try {
    const url = await exportChangedProducts(admin, since, options);
    let compared = 0;
    const repaired: RepairedItem[] = [];
    if (url) {
      const scope = { shopDomain, workspaceId };
      const exported = await readBulkExport(urlSource(url));
      const batch: { id: string; title: string; hash: string | null }[] = [];
      const flush = async () => {
        const ledger = await indexedHashes(
          scope,
          "product",
          batch.map((entry) => entry.id),
        );
        for (const entry of batch) {
          const held = ledger.get(entry.id);
          if (entry.hash !== null && held !== entry.hash) {
            repaired.push({ id: entry.id, title: entry.title, action: "updated" });
          } else if (entry.hash === null && held !== undefined) {
            repaired.push({ id: entry.id, title: entry.title, action: "removed" });
          }
        }
        compared += batch.length;
        batch.length = 0;
      };
      for await (const object of exported.items()) {
        if (object.type !== "Product") continue;
        const entry = catalogueEntry(object, {
          primaryDomain: shop.primaryDomain ?? shop.shopDomain,
        });
        batch.push({
          id: entry.id,
          title: object.value.title,
          hash: entry.indexable ? entry.hash : null,
        });
        if (batch.length >= 500) await flush();
      }
      await flush();
    }
    const at = now();
    await enqueueProductUpdates(
      shopDomain,
      repaired.map((item) => item.id),
      at,
      at,
    );
    return await prisma.reconcileCheck.update({
      where: { id: check.id },
      data: {
        finishedAt: now(),
        compared,
        repaired: repaired.length,
        items: JSON.stringify(repaired.slice(0, ITEMS_KEPT)),
      },
    });
  } catch (error) {
    await prisma.reconcileCheck.update({
      where: { id: check.id },
      data: { finishedAt: now(), error: error instanceof Error ? error.message : String(error) },
    });
    throw error;
  }
}

/** Runs the export and waits for it; the result's URL, or null when nothing changed. */
async function exportChangedProducts(
  admin: AdminGraphql,
  since: Date,
  options: Pick<IncrementalCheckOptions, "pollMs" | "timeoutMs">,
): Promise<string | null> {
  const id = await startBulkQuery(admin, productsChangedSinceBulkQuery(since));
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  for (;;) {
    const state = await readBulkOperation(admin, id);
    if (isFinishedBulkStatus(state.status)) {
      if (state.status !== "COMPLETED") {
        throw new Error(
          `The export of changed products ended ${state.status} (${state.errorCode})`,
        );
      }
      return state.url;
    }
    if (Date.now() > deadline) throw new Error("The export of changed products took too long");
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
  }
}

/**
 * A finished reconcile run (the daily full sweep, or one a deleted collection started) as a
 * check: what it compared and how many it sent or removed (its counts). Its items are named only
 * while its staging rows last (a finished run's are pruned), by Shopify's titles (one query).
 */
export async function recordFullChecks(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<ReconcileCheck[]> {
  const runs = await prisma.syncRun.findMany({
    where: { shopDomain, trigger: "reconcile", state: "succeeded", finishedAt: { not: null } },
    orderBy: { startedAt: "desc" },
    take: 3,
  });
  const recorded: ReconcileCheck[] = [];
  for (const run of runs) {
    if (await prisma.reconcileCheck.findFirst({ where: { runId: run.id } })) continue;
    // A finished run keeps its counts; its sent items are staging, pruned at its end, so the
    // items are named only while they are still there.
    const counts = await runCounts(run);
    const repairedCount =
      counts.products.sent + counts.products.deleted + counts.posts.sent + counts.posts.deleted;
    const sent = await prisma.syncItem.findMany({
      where: { runId: run.id, status: "sent" },
      select: { kind: true, itemId: true, action: true },
      orderBy: { itemId: "asc" },
      take: ITEMS_KEPT,
    });
    const titles = await titlesOf(
      admin,
      sent.map((item) => item.itemId),
    ).catch(() => new Map<string, string>());
    const items: RepairedItem[] = sent.map((item) => ({
      id: item.itemId,
      title: titles.get(item.itemId) ?? item.itemId,
      action: item.action === "delete" ? "removed" : "updated",
    }));
    recorded.push(
      await prisma.reconcileCheck.create({
        data: {
          shopDomain,
          kind: "full",
          runId: run.id,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
          compared: run.productsTotal + run.postsTotal,
          repaired: repairedCount,
          items: JSON.stringify(items),
        },
      }),
    );
  }
  return recorded;
}

/** Shopify's titles of service item ids (products: numbers; pages and articles: prefixed). */
async function titlesOf(admin: AdminGraphql, itemIds: readonly string[]) {
  const gids = new Map<string, string>();
  for (const id of itemIds) {
    const page = /^page-(\d+)$/.exec(id)?.[1];
    const article = /^article-(\d+)$/.exec(id)?.[1];
    const gid = page
      ? toGid("Page", page)
      : article
        ? toGid("Article", article)
        : /^\d+$/.test(id)
          ? toGid("Product", id)
          : null;
    if (gid) gids.set(gid, id);
  }
  const titles = new Map<string, string>();
  if (gids.size === 0) return titles;
  const data = await queryAdmin<ItemTitlesData>(admin, ITEM_TITLES_QUERY, {
    ids: [...gids.keys()],
  });
  for (const node of data.nodes) {
    const id = node?.id && gids.get(node.id);
    if (id && node.title) titles.set(id, node.title);
  }
  return titles;
}

/**
 * Every shop due a check (none in the last `everyMinutes`) gets one, one shop after another; a
 * finished full sweep is recorded as a check too. Returns the checks made.
 */
export async function checkDueShops(
  everyMinutes: number,
  options: { admin: (shopDomain: string) => Promise<AdminGraphql>; now?: () => Date },
): Promise<ReconcileCheck[]> {
  const now = options.now ?? (() => new Date());
  const since = new Date(now().getTime() - everyMinutes * 60_000);
  const shops = await prisma.shop.findMany({
    where: { state: "active", syncProducts: true, secretKeyCiphertext: { not: null } },
  });
  const made: ReconcileCheck[] = [];
  for (const shop of shops) {
    try {
      const admin = await options.admin(shop.shopDomain);
      made.push(...(await recordFullChecks(shop.shopDomain, admin)));
      const latest = await prisma.reconcileCheck.findFirst({
        where: { shopDomain: shop.shopDomain, kind: "incremental" },
        orderBy: { startedAt: "desc" },
      });
      if (latest && latest.startedAt > since) continue;
      const check = await checkChangedProducts({ shopDomain: shop.shopDomain, admin, now });
      if (check) made.push(check);
    } catch (error) {
      console.error(`[reconcile] ${shop.shopDomain}: the check of changed products failed`, error);
    }
  }
  return made;
}

/** Checks due shops regularly (never two passes at once); returns a stop function. */
export function scheduleChecks(
  everyMinutes: number,
  admin: (shopDomain: string) => Promise<AdminGraphql>,
): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      checkDueShops(everyMinutes, { admin })
        .catch((error: unknown) => console.error("[reconcile] the scheduled check failed", error))
        .finally(() => (running = false));
    },
    Math.max(1_000, Math.min(5 * 60_000, (everyMinutes * 60_000) / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

export interface CheckSummary {
  at: string;
  kind: "incremental" | "full";
  compared: number;
  repaired: number;
  items: RepairedItem[];
  error: string | null;
}

function summary(check: ReconcileCheck): CheckSummary {
  return {
    at: (check.finishedAt ?? check.startedAt).toISOString(),
    kind: check.kind === "full" ? "full" : "incremental",
    compared: check.compared,
    repaired: check.repaired,
    items: JSON.parse(check.items) as RepairedItem[],
    error: check.error,
  };
}

/**
 * For the dashboard: the latest finished check, and the latest one that repaired something (when
 * it is another, within the last 7 days), with the repaired items by name.
 */
export async function reconcileStatus(
  shopDomain: string,
  now: Date = new Date(),
): Promise<{ last: CheckSummary | null; lastRepair: CheckSummary | null }> {
  const [last, lastRepair] = await Promise.all([
    prisma.reconcileCheck.findFirst({
      where: { shopDomain, finishedAt: { not: null } },
      orderBy: { finishedAt: "desc" },
    }),
    prisma.reconcileCheck.findFirst({
      where: {
        shopDomain,
        finishedAt: { gte: new Date(now.getTime() - 7 * 24 * 3_600_000) },
        repaired: { gt: 0 },
      },
      orderBy: { finishedAt: "desc" },
    }),
  ]);
  return {
    last: last ? summary(last) : null,
    lastRepair: lastRepair && lastRepair.id !== last?.id ? summary(lastRepair) : null,
  };
}
