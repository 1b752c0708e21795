/**
 * The figures behind Settings' choice of storefront domains (decision 0042): each domain that
 * can have a workspace of its own, ticked or not, with its product count and whether it is
 * filled, and what the month's product quota has left. The page plans the cost of a choice
 * from them (storefront-choice.ts) as the merchant ticks.
 */
import { isTier } from "../index-service/tiers";
import { indexedCount } from "../models/ledger.server";
import { quotaStanding } from "../models/quota-usage.server";
import type { Shop } from "@prisma/client";
import { unindexedDomainsOf, workspaceOf } from "../models/shops.server";
import type { StorefrontPresence } from "../shopify/storefront-presences.server";
import { filledWorkspaceKeys } from "../sync/full/domain-workspace-standing.server";
import { presenceWorkspacesOf } from "../sync/full/presence-workspaces.server";
import {
  choiceElsewhere,
  NOTHING_ELSEWHERE,
  type ChoiceElsewhere,
  type DomainChoiceRow,
} from "./storefront-choice";

export interface StorefrontChoice {
  /** The primary domain first, then each other domain, in Shopify's order. */
  rows: DomainChoiceRow[];
  /** Hosts the merchant unticked. */
  unticked: string[];
  /** Products the month's quota has left; null before the keys are saved (no plan known). */
  remaining: number | null;
  /** The ticked domains on the list's other pages, planned around the page's (issue 24). */
  elsewhere: ChoiceElsewhere;
}

export const NO_CHOICE: StorefrontChoice = {
  rows: [],
  unticked: [],
  remaining: null,
  elsewhere: NOTHING_ELSEWHERE,
};

/**
 * The choice for the shop as its caller read it, with the presences kept for it. With `counted`
 * (the domains a page shows), only those filled are counted in the index; any other domain is
 * known to be filled or not, which is all its cost needs (a filled one costs nothing), so
 * thousands of domains cost a query a thousand (filledWorkspaceKeys), not queries each.
 */
export async function storefrontChoiceOf(
  shop: Shop | null,
  presences: readonly StorefrontPresence[],
  counted?: ReadonlySet<string>,
): Promise<StorefrontChoice> {
  const workspaceId = shop ? workspaceOf(shop) : null;
  if (!shop || !shop.primaryDomain || !workspaceId) return NO_CHOICE;
  const { shopDomain } = shop;
  // Every domain that would be indexed were it ticked.
  const { workspaces } = presenceWorkspacesOf({ ...shop, unindexedDomains: "[]" }, presences);
  const primaryCount = await indexedCount({ shopDomain, workspaceId, kind: "product" });
  const rows: DomainChoiceRow[] = [
    {
      domain: shop.primaryDomain.toLowerCase(),
      primary: true,
      productCount: primaryCount,
      estimated: false,
      filled: true,
    },
  ];
  const filledKeys = await filledWorkspaceKeys(workspaces.map((workspace) => workspace.ledgerKey));
  for (const workspace of workspaces) {
    const filled = filledKeys.has(workspace.ledgerKey);
    rows.push({
      domain: workspace.host,
      primary: false,
      // Before its fill the domain's own selection is unknown: the primary's catalogue is the
      // most it can hold.
      productCount: filled
        ? counted && !counted.has(workspace.host)
          ? 0
          : await indexedCount({
              shopDomain: workspace.ledgerKey,
              workspaceId: workspace.workspaceId,
              kind: "product",
            })
        : primaryCount,
      estimated: !filled,
      filled,
    });
  }
  const remaining = isTier(shop.tier)
    ? (await quotaStanding(shopDomain, shop.tier, "product", new Date())).remaining
    : null;
  return { rows, unticked: unindexedDomainsOf(shop), remaining, elsewhere: NOTHING_ELSEWHERE };
}

/**
 * The part of the choice one page of the list shows (issue 24): the primary and the page's
 * domains, the page's unticked ones, and what the other pages' ticked domains take.
 */
export function choiceOnPage(
  choice: StorefrontChoice,
  shown: ReadonlySet<string>,
): StorefrontChoice {
  const unticked = new Set(choice.unticked);
  return {
    rows: choice.rows.filter((row) => row.primary || shown.has(row.domain)),
    unticked: choice.unticked.filter((host) => shown.has(host)),
    remaining: choice.remaining,
    elsewhere: choiceElsewhere(choice.rows, unticked, shown),
  };
}
