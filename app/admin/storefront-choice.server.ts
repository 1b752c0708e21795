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
import { isDomainWorkspaceFilled } from "../sync/full/domain-workspace-standing.server";
import { presenceWorkspacesOf } from "../sync/full/presence-workspaces.server";
import type { DomainChoiceRow } from "./storefront-choice";

export interface StorefrontChoice {
  /** The primary domain first, then each other domain, in Shopify's order. */
  rows: DomainChoiceRow[];
  /** Hosts the merchant unticked. */
  unticked: string[];
  /** Products the month's quota has left; null before the keys are saved (no plan known). */
  remaining: number | null;
}

/** The choice for the shop as its caller read it, with the presences kept for it. */
export async function storefrontChoiceOf(
  shop: Shop | null,
  presences: readonly StorefrontPresence[],
): Promise<StorefrontChoice> {
  const workspaceId = shop ? workspaceOf(shop) : null;
  if (!shop || !shop.primaryDomain || !workspaceId) {
    return { rows: [], unticked: [], remaining: null };
  }
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
  for (const workspace of workspaces) {
    const filled = await isDomainWorkspaceFilled(workspace.ledgerKey);
    rows.push({
      domain: workspace.host,
      primary: false,
      // Before its fill the domain's own selection is unknown: the primary's catalogue is the
      // most it can hold.
      productCount: filled
        ? await indexedCount({
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
  return { rows, unticked: unindexedDomainsOf(shop), remaining };
}
