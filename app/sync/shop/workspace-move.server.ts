import type { SyncRun } from "@prisma/client";
import { readShopInfo } from "../../catalog";
import prisma from "../../db.server";
import { findShop, recordPrimaryDomain, workspaceOf } from "../../models/shops.server";
import { adminFor } from "../../shopify-admin.server";
import { NothingChosenError, startShopSync } from "../shopify/shop-sync.server";
import { RunInProgressError, type SyncTrigger } from "../../models/sync-runs.server";

/** The trigger of the full sync that re-indexes a shop into the workspace of its new domain. */
export const DOMAIN_CHANGE_TRIGGER: SyncTrigger = "domain-change";
/** The trigger of the full sync that moves the index after Settings saved another place. */
const MOVE_TRIGGER: SyncTrigger = "move";

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
 * one holds the whole catalogue (`followStorefront`, at the end of that sync or a later one);
 * only then does the live worker remove the shop's items from the old workspace (the ledger still
 * lists them there).
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
    if (error instanceof RunInProgressError || error instanceof NothingChosenError) return null;
    throw error;
  }
}

export interface WorkspaceMove {
  /** A new storefront domain, or another workspace or account saved in Settings. */
  cause: "domain" | "settings";
  /** The workspace before the move (the same as `to` when only the keys' account changed). */
  from: string;
  to: string;
  at: Date;
  /** The move's own run is still under way. */
  running: boolean;
  /** Another run has followed the move's. */
  followed: boolean;
  /** Items of the shop the old workspace still holds (removed by the live worker). */
  leftInOldWorkspace: number;
}

/**
 * The shop's latest move (a domain-change or Settings move run), compared with the run just
 * before it: that run's workspace is where the catalogue came from. A Settings move in the same
 * workspace is a move to the keys of another account.
 */
export async function latestWorkspaceMove(shopDomain: string): Promise<WorkspaceMove | null> {
  const move = await prisma.syncRun.findFirst({
    where: { shopDomain, trigger: { in: [DOMAIN_CHANGE_TRIGGER, MOVE_TRIGGER] } },
    orderBy: { startedAt: "desc" },
  });
  if (!move) return null;
  const [previous, later] = await Promise.all([
    prisma.syncRun.findFirst({
      where: { shopDomain, startedAt: { lt: move.startedAt } },
      orderBy: { startedAt: "desc" },
    }),
    prisma.syncRun.count({ where: { shopDomain, startedAt: { gt: move.startedAt } } }),
  ]);
  if (!previous) return null;
  const workspaceMoved = previous.workspaceId !== move.workspaceId;
  // A domain change that kept the workspace (an override names it) moved nothing.
  if (move.trigger === DOMAIN_CHANGE_TRIGGER && !workspaceMoved) return null;
  return {
    cause: move.trigger === MOVE_TRIGGER ? "settings" : "domain",
    from: previous.workspaceId,
    to: move.workspaceId,
    at: move.startedAt,
    running: move.state === "running",
    followed: later > 0,
    leftInOldWorkspace: workspaceMoved
      ? await prisma.indexedItem.count({ where: { shopDomain, workspaceId: previous.workspaceId } })
      : 0,
  };
}
