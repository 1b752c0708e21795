/**
 * Following the store's storefront domains (issue 24 item 4, decision 0038): each domain presence
 * other than the primary has a workspace of its own (decision 0032). After every read of the
 * store's presences (a domains/*, markets/* or locales/* webhook, the periodic check) and on the
 * live worker's maintenance, the shop's domain workspaces are brought in line with them:
 *
 * - a domain presence that has no filled workspace (just added, or back after it was removed) is
 *   filled now, within the month's quota, rather than at the next daily sync; until then its
 *   shoppers get the primary workspace, as the storefront configuration does not name it;
 * - a domain workspace whose presence is gone (the presence deleted, its market deactivated or
 *   made a draft, its default locale unpublished, or its domain now the primary) is first dropped
 *   from the storefront configuration, and only once Shopify took that is it emptied (the service's
 *   bulk delete, through the shop's pacer, its ledger rows and runs forgotten). A workspace that a
 *   storefront still asks (the shop's own, the one the storefront asks while a move is under way,
 *   another domain's) is never emptied: its ledger rows are forgotten and the ledger that now
 *   answers for it writes over the same ids.
 *
 * A fill or a clean-up that fails is tried again at the next pass; both hold the shop's lease, as
 * a full sync does, so nothing else sends for the shop meanwhile.
 */
import type { Shop } from "@prisma/client";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { adminFor } from "../shopify/admin-auth.server";
import { storefrontPresencesOf } from "../models/storefront-presences.server";
import { domainLedgersOf, forgetLedger } from "../models/ledger.server";
import { forgetDomainRuns, unfinishedRun } from "../models/sync-runs.server";
import {
  chosenMetafieldsOf,
  findShop,
  isPausedByMerchant,
  storefrontWorkspaceOf,
  workspaceOf,
} from "../models/shops.server";
import { config } from "../config.server";
import { processLeases, type ShopLeases } from "../sync/engine/process-leases.server";
import { pacers, sendingTierOf } from "../sync/engine/pacer-registry.server";
import { bulkQueryOf, typesToSync } from "../sync/full/run-full-sync.server";
import { referenceNamesFor } from "../sync/engine/reference-names.server";
import {
  filledDomainWorkspaces,
  fillStorefrontDomains,
  pointDomainsAtTheirWorkspaces,
  presenceWorkspacesOf,
  type PresenceWorkspace,
} from "../sync/full/presence-workspaces.server";
import { domainWorkspaceStanding } from "../sync/full/domain-workspace-standing.server";
import { removeWorkspaceItems } from "./remove-from-index.server";
import { serviceClientForWorkspace, serviceKeyIdOf } from "./service-keys.server";
import { pauseForServiceRefusal } from "./pause.server";
import type { SyncTrigger } from "../models/sync-runs.server";
import { logFor } from "../server/log";
import { oneAtATimePerShop } from "../server/one-at-a-time-per-shop";

const log = logFor("presences");

/** The trigger of a fill that a domain's arrival started (not a full sync's). */
export const DOMAIN_ADDED_TRIGGER: SyncTrigger = "domain-added";

/** A fill that stopped or was short of quota is tried again after this long (or by the daily sync). */
const RETRY_FILL_AFTER_MS = 60 * 60_000;

export interface DomainFollowing {
  leases?: ShopLeases;
  adminOf?: (shopDomain: string) => Promise<AdminGraphql>;
  now?: () => Date;
  /** How often a translated export is asked whether it finished. */
  pollEveryMs?: number;
}

const oneAtATime = oneAtATimePerShop();

/**
 * Brings the shop's domain workspaces in line with its presences (see the file's comment): one
 * pass per shop at a time in this process (a call during a pass asks for one more after it; the
 * shop's lease keeps other processes out). Never throws: a failure is logged, the next pass
 * tries again. Resolves when the shop's passes are done.
 */
export function followStorefrontDomains(
  shopDomain: string,
  following: DomainFollowing = {},
): Promise<void> {
  return oneAtATime(shopDomain, async () => {
    try {
      await followOnce(shopDomain, following);
    } catch (error) {
      log.error(
        { err: error, shop: shopDomain },
        "the storefront domains' workspaces did not follow",
      );
    }
  });
}

interface DomainsFollowed {
  /** Workspaces a fill went into. */
  filled: string[];
  /** Workspaces emptied (or whose ledger was forgotten, when a storefront still asks them). */
  left: string[];
}

const NOTHING: DomainsFollowed = { filled: [], left: [] };

async function followOnce(
  shopDomain: string,
  following: DomainFollowing,
): Promise<DomainsFollowed> {
  const shop = await findShop(shopDomain);
  if (!shop || shop.state !== "active" || isPausedByMerchant(shop)) return NOTHING;
  if (!shop.secretKeyCiphertext || !workspaceOf(shop)) return NOTHING;
  // The shop's own full sync fills its domains when it ends, and holds the lease meanwhile.
  if (await unfinishedRun(shopDomain)) return NOTHING;
  const { presences } = await storefrontPresencesOf(shopDomain);
  const wanted = presenceWorkspacesOf(shop, presences).workspaces;
  const gone = (await domainLedgersOf(shopDomain)).filter(
    (held) => !wanted.some((w) => w.ledgerKey === held.ledgerKey),
  );
  const types = typesToSync(shop);
  // A domain workspace holds products and pages: with neither chosen there is nothing to fill.
  const fillable = types.includes("product") || types.includes("page");
  const toFill = fillable
    ? await workspacesToFill(wanted, (following.now ?? (() => new Date()))())
    : [];
  if (gone.length === 0 && toFill.length === 0) return NOTHING;

  const leases = following.leases ?? processLeases(config().live.leaseMs);
  const lease = await leases.hold(shopDomain);
  if (!lease) return NOTHING;
  try {
    const admin = await (following.adminOf ?? adminFor)(shopDomain);
    const left = gone.length > 0 ? await leaveGoneDomains(shop, admin, gone, lease) : [];
    if (toFill.length === 0) return { filled: [], left };
    const metafields = chosenMetafieldsOf(shop);
    await fillStorefrontDomains(shop, admin, types, {
      keyId: serviceKeyIdOf(shop),
      tier: sendingTierOf(shop),
      lease,
      trigger: DOMAIN_ADDED_TRIGGER,
      bulkQueryOf: (type) => bulkQueryOf(type, shop),
      metafields,
      referenceNames: referenceNamesFor(admin, metafields),
      only: toFill,
      ...(following.pollEveryMs ? { pollEveryMs: following.pollEveryMs } : {}),
    });
    return { filled: toFill, left };
  } finally {
    await lease.release();
  }
}

/**
 * The domains whose workspace is not filled and whose fill is due: never tried, or tried and
 * stopped (or short of quota) long enough ago. One under way is left to finish.
 */
async function workspacesToFill(
  wanted: readonly PresenceWorkspace[],
  now: Date,
): Promise<string[]> {
  const due: string[] = [];
  for (const workspace of wanted) {
    const standing = await domainWorkspaceStanding(workspace.ledgerKey);
    if (standing.kind === "not-started") due.push(workspace.workspaceId);
    else if (
      (standing.kind === "stopped" || standing.kind === "over-quota") &&
      now.getTime() - standing.at.getTime() >= RETRY_FILL_AFTER_MS
    )
      due.push(workspace.workspaceId);
  }
  return due;
}

/**
 * The storefront stops naming the gone domains first (a refused write stops here: nothing is
 * emptied that it may still name); then each gone workspace is emptied, unless a storefront still
 * asks it.
 */
async function leaveGoneDomains(
  shop: Shop,
  admin: AdminGraphql,
  gone: readonly { ledgerKey: string; workspaceId: string }[],
  lease: NonNullable<Awaited<ReturnType<ShopLeases["hold"]>>>,
): Promise<string[]> {
  await pointDomainsAtTheirWorkspaces(shop.shopDomain, admin);
  const asked = new Set<string | null>([
    workspaceOf(shop),
    storefrontWorkspaceOf(shop),
    ...Object.values(await filledDomainWorkspaces(shop.shopDomain)),
  ]);
  const pacer = pacers.pacerFor(shop.shopDomain, sendingTierOf(shop), serviceKeyIdOf(shop));
  const left: string[] = [];
  for (const { ledgerKey, workspaceId } of gone) {
    const scope = { shopDomain: ledgerKey, workspaceId };
    if (asked.has(workspaceId)) {
      await forgetLedger(scope);
      await forgetDomainRuns(shop.shopDomain, ledgerKey);
      left.push(workspaceId);
      continue;
    }
    try {
      const remaining = await removeWorkspaceItems(
        { ...scope, fence: lease.fence },
        serviceClientForWorkspace(shop, workspaceId),
        { send: (request) => pacer.send(request) },
      );
      if (remaining > 0) continue;
      await forgetDomainRuns(shop.shopDomain, ledgerKey);
      left.push(workspaceId);
      log.info(
        { shop: shop.shopDomain, workspaceId },
        `workspace ${workspaceId} emptied: its storefront is gone`,
      );
    } catch (error) {
      if (error instanceof Error && error.name === "LeaseLostError") throw error;
      if (!(await pauseForServiceRefusal(shop.shopDomain, error)))
        log.error(
          { err: error, shop: shop.shopDomain, workspaceId },
          "emptying a gone storefront's workspace failed",
        );
      break;
    }
  }
  return left;
}

/**
 * Which of these workspaces the shop's storefront domains have now (the move between the shop's
 * workspaces must leave them to their own ledger, not empty them).
 */
export async function domainWorkspacesOf(shop: Shop): Promise<Set<string>> {
  const { presences } = await storefrontPresencesOf(shop.shopDomain);
  return new Set(presenceWorkspacesOf(shop, presences).workspaces.map((w) => w.workspaceId));
}
