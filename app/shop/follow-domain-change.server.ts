import type { SyncRun } from "@prisma/client";
import { readShopInfo } from "../shopify/shop-info";
import { findShop, recordPrimaryDomain, workspaceOf } from "../models/shops.server";
import { adminFor } from "../shopify/admin-auth.server";
import { isNoRunToStart, startShopSync } from "../sync/full/run-full-sync.server";
import type { SyncTrigger } from "../models/sync-runs.server";

/** The trigger of the full sync that re-indexes a shop into the workspace of its new domain. */
export const DOMAIN_CHANGE_TRIGGER: SyncTrigger = "domain-change";

export type DomainChangeOutcome =
  | { kind: "unknown-shop" }
  | { kind: "unchanged" }
  /** The storefront URLs changed but the workspace did not (an override names it). */
  | { kind: "urls-changed"; run: SyncRun | null }
  | { kind: "moved"; from: string | null; to: string; run: SyncRun | null };

/**
 * shop/update: the webhook only says "the shop changed"; the primary domain is read from the
 * Admin API (a late or repeated delivery with an old domain cannot move the shop back). When the
 * domain changed, the shop gets the new domain and the workspace id made from it, and a full sync
 * re-indexes it into that workspace. The storefront keeps asking the old workspace until the new
 * one holds the whole catalogue; only then does the live worker remove the shop's items from the
 * old workspace, where the ledger still lists them (leave-former-workspace.server.ts).
 */
export async function applyShopUpdate(shopDomain: string): Promise<DomainChangeOutcome> {
  const shop = await findShop(shopDomain);
  if (!shop || shop.state === "uninstalled") return { kind: "unknown-shop" };
  const info = await readShopInfo(await adminFor(shopDomain));
  const primaryDomain = info.primaryDomainHost;
  if (primaryDomain === shop.primaryDomain) return { kind: "unchanged" };

  const before = workspaceOf(shop);
  const updated = await recordPrimaryDomain(shop, primaryDomain);
  const after = workspaceOf(updated);
  const run = await resync(updated.shopDomain, updated.secretKeyCiphertext !== null && !!after);
  if (after && after !== before) return { kind: "moved", from: before, to: after, run };
  return { kind: "urls-changed", run };
}

async function resync(shopDomain: string, connected: boolean): Promise<SyncRun | null> {
  if (!connected) return null;
  try {
    return await startShopSync(shopDomain, DOMAIN_CHANGE_TRIGGER);
  } catch (error) {
    // A sync already running reads the old domain: the next one (Resync, or the daily
    // reconciliation) uses the new one, and the live worker removes the old workspace's items.
    if (isNoRunToStart(error)) return null;
    throw error;
  }
}
