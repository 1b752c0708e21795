/**
 * Leaving a former workspace once its replacement is filled. After the shop's workspace changed
 * (its primary domain, follow-domain-change.server.ts), the ledger still lists its items in the
 * old workspace and the storefront configuration (the chat's app-data metafield) still names it.
 * The shop is first indexed into the new workspace; once that holds the whole catalogue, the
 * storefront is pointed at it (at the end of that full sync, or by the live worker's maintenance);
 * only then are the shop's items removed from the old one, by the live worker's maintenance.
 * (A move saved in Settings leaves its former place at the start of the move's run instead:
 * sync/full/leave-former-place.server.ts.)
 */
import type { Shop } from "@prisma/client";
import { type AdminGraphql } from "../shopify/admin-graphql";
import { adminFor } from "../shopify/admin-auth.server";
import {
  forgetLedger,
  formerWorkspaces,
  indexedCount,
  lastSentInto,
} from "../models/ledger.server";
import { domainWorkspacesOf } from "./follow-storefront-domains.server";
import { nextQuotaReset } from "../index-service/tiers";
import {
  findShop,
  recordStorefrontWorkspace,
  storefrontWorkspaceOf,
  workspaceOf,
} from "../models/shops.server";
import {
  countRunsAfter,
  lastFinishedRun,
  latestRunWithTrigger,
  runBefore,
  runCounts,
  runStatesInto,
  unfinishedRun,
} from "../models/sync-runs.server";
import { sendingTierOf } from "../sync/engine/pacer-registry.server";
import { startShopSyncUnlessRunning } from "../sync/full/run-full-sync.server";
import { afterFullSync } from "../sync/full/after-full-sync.server";
import type { WorkerContext } from "../sync/live/worker-context";
import { DOMAIN_CHANGE_TRIGGER } from "./follow-domain-change.server";
import { pauseForServiceRefusal } from "./pause.server";
import { removeWorkspaceItems } from "./remove-from-index.server";
import { serviceKeyIdOf } from "./service-keys.server";
import { MOVE_TRIGGER, pointStorefrontAt } from "./switch-keys-or-workspace.server";

type Worker = Pick<WorkerContext, "launch" | "leases" | "registry" | "serviceClient" | "log">;

/** The live worker's maintenance: every shop with items in former workspaces leaves them. */
export async function leaveFormerWorkspaces(worker: Worker): Promise<void> {
  const former = new Map<string, string[]>();
  for (const { shopDomain, workspaceId } of await formerWorkspaces()) {
    former.set(shopDomain, [...(former.get(shopDomain) ?? []), workspaceId]);
  }
  for (const [shopDomain, workspaceIds] of former) {
    worker.launch(shopDomain, () => emptyFormerWorkspaces(worker, shopDomain, workspaceIds));
  }
}

/**
 * After a move to another workspace (shop/update, or a new domain or workspace saved another
 * way): the shop is first indexed in the new one, the storefront then asks the new one, and only
 * then do its items leave the old one.
 */
async function emptyFormerWorkspaces(
  worker: Worker,
  shopDomain: string,
  workspaceIds: string[],
): Promise<void> {
  const shop = await findShop(shopDomain);
  const current = shop && workspaceOf(shop);
  if (!shop || !current || (await unfinishedRun(shopDomain))) return;
  const reindexed = await reindexedSince(shopDomain, current, workspaceIds);
  if (reindexed === "no") {
    await startShopSyncUnlessRunning(worker.leases, shopDomain, DOMAIN_CHANGE_TRIGGER);
    return;
  }
  if (reindexed === "failed") return;
  // The old workspace is what the storefront asks until the new one holds the whole catalogue
  // (a spent quota can leave it short): emptied only once the storefront asks the new one.
  try {
    if (!(await followStorefront(shopDomain))) return;
  } catch (error) {
    worker.log("the storefront could not be pointed at its new workspace", error, shopDomain);
    return;
  }
  const lease = await worker.leases.hold(shopDomain);
  if (!lease) return;
  try {
    const client = worker.serviceClient(shop);
    const pacer = worker.registry.pacerFor(shopDomain, sendingTierOf(shop), serviceKeyIdOf(shop));
    // A former workspace that is now a storefront domain's (the primary moved away from it) is
    // that domain's to fill: the shop's rows are forgotten, its items written over, never deleted.
    const domains = await domainWorkspacesOf(shop);
    for (const workspaceId of workspaceIds) {
      if (domains.has(workspaceId)) {
        await forgetLedger({ shopDomain, workspaceId });
        continue;
      }
      await removeWorkspaceItems({ shopDomain, workspaceId }, client, {
        send: (request) => pacer.send(request),
      });
    }
  } catch (error) {
    if (!(await pauseForServiceRefusal(shopDomain, error))) {
      worker.log("removing items from its former workspace failed", error, shopDomain);
    }
  } finally {
    await lease.release();
  }
}

/**
 * Whether the shop was indexed into `current` after its items last went to the former
 * workspaces: "yes" (a full sync succeeded since), "failed" (one ran and failed: the next Resync
 * or reconciliation will do it), "no" (none ran yet).
 */
async function reindexedSince(
  shopDomain: string,
  current: string,
  former: readonly string[],
): Promise<"yes" | "failed" | "no"> {
  const since = await lastSentInto(shopDomain, former);
  const states = await runStatesInto(shopDomain, current, since);
  if (states.some((state) => state === "succeeded")) return "yes";
  return states.length > 0 ? "failed" : "no";
}

/**
 * Points the storefront at the shop's workspace once that workspace holds the catalogue. Returns
 * true when the storefront asks the shop's workspace (already, or now): only then may the
 * workspaces before it be emptied.
 */
export async function followStorefront(shopDomain: string, admin?: AdminGraphql): Promise<boolean> {
  const shop = await findShop(shopDomain);
  if (!shop) return false;
  const standing = await storefrontStanding(shop);
  if (standing.kind === "follows") return true;
  if (standing.wait.kind !== "filled") return false;
  // Without a publishable key the storefront has no configuration to follow.
  if (shop.publishableKey)
    await pointStorefrontAt(
      admin ?? (await adminFor(shopDomain)),
      shop,
      shop.publishableKey,
      standing.to,
    );
  else await recordStorefrontWorkspace(shopDomain, standing.to);
  return true;
}

// At the end of each full sync: a run that filled a workspace the storefront does not ask yet
// (a domain change) points the storefront at it; after a refusal, leaveFormerWorkspaces retries.
afterFullSync("follow-storefront", {
  run: followStorefront,
  failure: (shopDomain) => `the storefront of ${shopDomain} could not be pointed at its workspace`,
});

/** Why the storefront still asks the old workspace. */
export type MoveWait =
  /** A full sync into the new workspace is under way. */
  | { kind: "sending" }
  /** No full sync has gone into the new workspace yet (the worker starts one). */
  | { kind: "not-started" }
  /** The last full sync into it stopped, for this reason (in the merchant's words). */
  | { kind: "stopped"; message: string | null }
  /** The month's quota could not take everything: what was left out, and when it comes back. */
  | { kind: "over-quota"; products: number; posts: number; resetsOn: Date }
  /** Filled: the storefront is being pointed at it (a moment, or Shopify refused the write). */
  | { kind: "filled" };

export type StorefrontStanding =
  | { kind: "follows"; workspaceId: string | null }
  | { kind: "waiting"; from: string; to: string; wait: MoveWait };

/**
 * Whether the storefront asks the shop's own workspace, and if not, why not yet. The new
 * workspace holds the catalogue once the shop's newest finished full sync went there, succeeded,
 * and left nothing over quota (an item the service refused would be refused in any workspace).
 */
export async function storefrontStanding(shop: Shop): Promise<StorefrontStanding> {
  const current = workspaceOf(shop);
  const storefront = storefrontWorkspaceOf(shop);
  if (!current || !storefront || storefront === current)
    return { kind: "follows", workspaceId: current };
  const waiting = (wait: MoveWait): StorefrontStanding => ({
    kind: "waiting",
    from: storefront,
    to: current,
    wait,
  });
  const active = await unfinishedRun(shop.shopDomain);
  if (active?.workspaceId === current) return waiting({ kind: "sending" });
  const last = await lastFinishedRun(shop.shopDomain);
  if (!last || last.workspaceId !== current) return waiting({ kind: "not-started" });
  if (last.state !== "succeeded") return waiting({ kind: "stopped", message: last.errorMessage });
  const counts = await runCounts(last);
  const products = counts.products.overQuota;
  const posts = counts.posts.overQuota;
  // A succeeded run owes nothing; should one still, the next run sends it.
  if (counts.pending > 0) return waiting({ kind: "stopped", message: null });
  if (products + posts > 0)
    return waiting({
      kind: "over-quota",
      products,
      posts,
      resetsOn: nextQuotaReset(last.finishedAt ?? last.startedAt),
    });
  return waiting({ kind: "filled" });
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
  const move = await latestRunWithTrigger(shopDomain, [DOMAIN_CHANGE_TRIGGER, MOVE_TRIGGER]);
  if (!move) return null;
  const [previous, later] = await Promise.all([
    runBefore(shopDomain, move.startedAt),
    countRunsAfter(shopDomain, move.startedAt),
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
      ? await indexedCount({ shopDomain, workspaceId: previous.workspaceId })
      : 0,
  };
}
