/**
 * The Dashboard's "Not in the index": every item the service does not hold although the store
 * has it, by name and linked to it in the Shopify admin, with why, when it is tried again and what
 * the merchant can do. Two sources: the last complete full sync's items (refused, or over the
 * month's quota) and the live product changes waiting (refused, or new products held for the quota).
 */
import type { PendingChange, SyncRun } from "@prisma/client";
import { PRODUCT_TITLES_QUERY, SERVICE_ID_PREFIXES, toGid } from "../catalogue";
import type { AdminFormat } from "../format";
import { nextQuotaReset } from "../index-service/tiers";
import { indexedTitles, type ContentKind } from "../models/ledger.server";
import { leftOutChanges } from "../models/outbox.server";
import { leftOutCount, leftOutItems } from "../models/sync-items.server";
import { queryAdmin, type AdminGraphql } from "../shopify/admin-graphql";
import {
  overQuotaInMerchantWords,
  overQuotaRemedy,
  refusalInMerchantWords,
  refusalRemedy,
} from "./item-problems";

/** How many items of each group are listed by name (the rest are counted). */
export const ITEMS_LISTED = 25;

export interface LeftOutItem {
  key: string;
  name: string;
  /** Product, Page, Article, Policy. */
  what: string;
  /** The item in the Shopify admin, when it has a page there. */
  adminUrl: string | null;
  why?: string;
  when?: string;
  todo?: string;
}

export interface LeftOutGroup {
  id: string;
  label: string;
  /** Said once for the whole group when it is the same for every item. */
  why?: string;
  when?: string;
  todo?: string;
  items: LeftOutItem[];
  more: number;
}

export interface LeftOut {
  summary: string;
  /** Items "Retry failed items" can send (refused ones). */
  refused: number;
  groups: LeftOutGroup[];
}

interface Context {
  /** The admin's language: numbers and days as the rest of the page writes them. */
  format: AdminFormat;
  shopDomain: string;
  workspaceId: string | null;
  /** The last complete full sync (only it keeps the items it could not deliver). */
  run: SyncRun | null;
  /** This month's limits by kind. */
  limits: Record<ContentKind, number>;
  admin: AdminGraphql;
  now: Date;
}

export async function leftOutOf(context: Context): Promise<LeftOut | null> {
  const { run, now } = context;
  const [refusedRows, refusedCount, changes, ...overQuota] = await Promise.all([
    run ? leftOutItems(run.id, "failed", ITEMS_LISTED) : [],
    run ? leftOutCount(run.id, "failed") : 0,
    leftOutChanges(context.shopDomain, ITEMS_LISTED),
    ...(["product", "post"] as const).map((kind) =>
      run
        ? Promise.all([
            leftOutItems(run.id, "over_quota", ITEMS_LISTED, kind),
            leftOutCount(run.id, "over_quota", kind),
          ])
        : Promise.resolve([[], 0] as const),
    ),
  ]);
  const overQuotaTotal = overQuota.reduce((sum, [, count]) => sum + count, 0);
  const total = refusedCount + overQuotaTotal + changes.refusedCount + changes.heldCount;
  if (total === 0) return null;
  const names = await changeNames(context, [...changes.refused, ...changes.held]);
  const resetsOn = nextQuotaReset(now);
  const groups: LeftOutGroup[] = [];

  const refusedItems: LeftOutItem[] = [
    ...refusedRows.map((row) => {
      const kind = kindOf(row.kind);
      return {
        ...described(context.shopDomain, kind, row.itemId, nameOf(row.payload, kind)),
        why: refusalInMerchantWords(row.error),
        when: "Tried again by the next full sync (the scheduled check, or Resync), or now with Retry failed items.",
        todo: refusalRemedy(row.error),
      };
    }),
    ...changes.refused.map((change) => ({
      ...described(context.shopDomain, "product", change.productId, names.get(change.productId)),
      key: `change-${change.productId}`,
      why: refusalInMerchantWords(change.lastError),
      when: `A change the app tries again by itself every few minutes (${context.format.count(change.attempts, "try", "tries")} so far), or now with Retry failed items.`,
      todo: refusalRemedy(change.lastError),
    })),
  ];
  const refusedTotal = refusedCount + changes.refusedCount;
  if (refusedTotal > 0) {
    groups.push({
      id: "refused",
      label: "Refused items",
      items: refusedItems,
      more: refusedTotal - refusedItems.length,
    });
  }

  (["product", "post"] as const).forEach((kind, index) => {
    const [rows, count] = overQuota[index]!;
    if (count === 0) return;
    groups.push({
      id: `over-quota-${kind}`,
      label: kind === "product" ? "Products over quota" : "Pages and articles over quota",
      why: overQuotaInMerchantWords(kind, context.limits[kind], resetsOn, context.format),
      when: `Sent by the first full sync once the quota is back (the scheduled check, or Resync), from ${context.format.day(resetsOn)} or as soon as your plan is raised.`,
      todo: overQuotaRemedy(resetsOn, context.format),
      items: rows.map((row) => ({
        ...described(context.shopDomain, kind, row.itemId, nameOf(row.payload, kind)),
      })),
      more: count - rows.length,
    });
  });

  if (changes.heldCount > 0) {
    groups.push({
      id: "held-for-quota",
      label: "New products waiting for the quota",
      why: `Added or published in your store since the last sync, they are new to the index, and this month's quota of ${context.format.number(context.limits.product)} products is used up.`,
      when: `Sent by themselves when the quota comes back on ${context.format.day(resetsOn)}, or soon after your plan is raised (the app checks the quota again every few minutes).`,
      todo: overQuotaRemedy(resetsOn, context.format),
      items: changes.held.map((change) => ({
        ...described(context.shopDomain, "product", change.productId, names.get(change.productId)),
        key: `held-${change.productId}`,
      })),
      more: changes.heldCount - changes.held.length,
    });
  }

  const quotaTotal = overQuotaTotal + changes.heldCount;
  return {
    summary: `${context.format.count(total, "item is", "items are")} in your store but not in the index: ${context.format.count(refusedTotal, "refused by the search service", "refused by the search service")}, ${context.format.number(quotaTotal)} over this month's quota.`,
    refused: refusedTotal,
    groups,
  };
}

const kindOf = (kind: string): ContentKind => (kind === "product" ? "product" : "post");

/** An item's name, what it is and its page in the Shopify admin, from its service id. */
function described(
  shopDomain: string,
  kind: ContentKind,
  itemId: string,
  name: string | undefined,
): LeftOutItem {
  const admin = `https://${shopDomain}/admin`;
  const numberAfter = (prefix: string) => itemId.slice(prefix.length);
  if (kind === "product") {
    return {
      key: `product-${itemId}`,
      name: name ?? "A product without a title",
      what: "Product",
      adminUrl: `${admin}/products/${itemId}`,
    };
  }
  const [what, adminUrl] = itemId.startsWith(SERVICE_ID_PREFIXES.page)
    ? ["Page", `${admin}/pages/${numberAfter(SERVICE_ID_PREFIXES.page)}`]
    : itemId.startsWith(SERVICE_ID_PREFIXES.article)
      ? ["Article", `${admin}/articles/${numberAfter(SERVICE_ID_PREFIXES.article)}`]
      : itemId.startsWith(SERVICE_ID_PREFIXES.policy)
        ? ["Policy", `${admin}/settings/legal`]
        : itemId.startsWith(SERVICE_ID_PREFIXES.metaobject)
          ? ["Metaobject entry", `${admin}/content/entries`]
          : ["Page or article", null];
  return {
    key: `post-${itemId}`,
    name: name ?? `A ${what.toLowerCase()} without a title`,
    what,
    adminUrl,
  };
}

/** The item's title, from what the run meant to send. */
function nameOf(payload: string | null, kind: ContentKind): string | undefined {
  try {
    const item = JSON.parse(payload ?? "null") as Record<string, unknown> | null;
    const name = kind === "product" ? item?.name : item?.title;
    if (typeof name === "string" && name.trim()) return name;
  } catch {
    // An unreadable payload has no name to show.
  }
  return undefined;
}

/**
 * The names of products whose changes wait, as Shopify has them now (one point an id); the
 * ledger's title when Shopify is out of reach. A product neither can name goes unnamed.
 */
async function changeNames(
  context: Context,
  changes: readonly PendingChange[],
): Promise<Map<string, string>> {
  const ids = [...new Set(changes.map((change) => change.productId))];
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  try {
    const data = await queryAdmin<{ nodes: ({ title?: string } | null)[] }>(
      context.admin,
      PRODUCT_TITLES_QUERY,
      { ids: ids.map((id) => toGid("Product", id)) },
    );
    data.nodes.forEach((node, index) => {
      if (node?.title) names.set(ids[index]!, node.title);
    });
  } catch {
    // Shopify out of reach: the ledger's titles, for products the index holds.
  }
  const unnamed = ids.filter((id) => !names.has(id));
  if (unnamed.length > 0 && context.workspaceId) {
    const known = await indexedTitles(
      { shopDomain: context.shopDomain, workspaceId: context.workspaceId },
      "product",
      unnamed,
    );
    for (const [id, title] of known) names.set(id, title);
  }
  return names;
}
