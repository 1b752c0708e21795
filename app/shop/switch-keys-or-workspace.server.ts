/**
 * Switching keys, account or workspace: what follows once Settings saved the service's keys and
 * workspace. The ledger belongs to one account and workspace, so another secret key (the app
 * cannot tell whether it is the same account) or another workspace moves the index: the quota
 * the service reported is forgotten, the former key's event webhook is deleted and the receiving
 * address renewed, the storefront configuration names the new place, a pause for a key problem is
 * lifted, and a full sync starts ("move"; "install" on a first connection). That run first leaves
 * the former place with the former key (sync/full/leave-former-place.server.ts) and then sends
 * everything to the new one. A save that changes none of these only rewrites the storefront
 * configuration, lifts a pause and brings the event webhook up to date.
 */
import type { Shop } from "@prisma/client";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { writeStorefrontConfig } from "../shopify/storefront-config";
import { config } from "../config.server";
import { forgetReportedQuota, recordReportedQuota } from "../models/quota-usage.server";
import { recordStorefrontWorkspace, resumeShop, workspaceOf } from "../models/shops.server";
import { RunInProgressError, type SyncTrigger } from "../models/sync-runs.server";
import { ensureServiceWebhook, retireServiceWebhook } from "../service-events/registration.server";
import {
  NothingChosenError,
  startShopSync,
  SyncPausedByMerchantError,
} from "../sync/full/run-full-sync.server";
import { filledDomainWorkspaces } from "../sync/full/presence-workspaces.server";
import type { ReportedQuota } from "./service-keys.server";

/** The trigger of the full sync that moves the index after Settings saved another place. */
export const MOVE_TRIGGER: SyncTrigger = "move";

/** The keys and workspace Settings is about to save, against those saved before. */
export interface KeysOrWorkspaceSwitch {
  /** The shop as it was before the save. */
  shop: Shop;
  before: {
    /** Null when none was saved, or when it no longer opens (`keyUnreadable`). */
    secretKey: string | null;
    keyUnreadable: boolean;
    workspaceId: string | null;
  };
  after: { secretKey: string; workspaceId: string };
  /** Another key or another workspace than a saved one: the index moves there. */
  moves: boolean;
}

/** Decides whether saving these keys and workspace moves the index. */
export function keysOrWorkspaceSwitch(
  shop: Shop,
  before: { secretKey: string | null; keyUnreadable: boolean },
  after: { secretKey: string; workspaceId: string },
): KeysOrWorkspaceSwitch {
  const savedWorkspace = workspaceOf(shop);
  const moves =
    before.secretKey !== null &&
    savedWorkspace !== null &&
    (after.secretKey !== before.secretKey || after.workspaceId !== savedWorkspace);
  return { shop, before: { ...before, workspaceId: savedWorkspace }, after, moves };
}

/** The place the ledger describes, saved with the new keys until the move's run has left it. */
export function formerPlaceOf(
  change: KeysOrWorkspaceSwitch,
): { workspaceId: string; sealedSecretKey: string } | undefined {
  const { shop, before, moves } = change;
  return moves && shop.secretKeyCiphertext && before.workspaceId
    ? { workspaceId: before.workspaceId, sealedSecretKey: shop.secretKeyCiphertext }
    : undefined;
}

export interface SwitchOutcome {
  firstSyncStarted: boolean;
  /** Another account's key or another workspace was saved: the index is moving there. */
  moveStarted: boolean;
  /** A sync was already running: the move (or first sync) starts with the next one. */
  waitsForRun: boolean;
  /** Null when the service's events reach the app; else why not, in the merchant's words. */
  eventsProblem: string | null;
}

/** What follows a saved Settings form, once the keys and workspace are stored. */
export async function switchKeysOrWorkspace(
  admin: AdminGraphql,
  change: KeysOrWorkspaceSwitch,
  saved: {
    publishableKey: string;
    firstConnection: boolean;
    /** The quota the service reported after the key check's test item, if it wrote one. */
    testItemQuota?: ReportedQuota | undefined;
  },
): Promise<SwitchOutcome> {
  const { shop, before, moves } = change;
  const shopDomain = shop.shopDomain;
  const keyChanged = before.secretKey !== null && change.after.secretKey !== before.secretKey;
  if (moves && keyChanged) await forgetReportedQuota(shopDomain);
  // Before any sync starts, so that it plans with the page the key check used.
  if (saved.testItemQuota) {
    await recordReportedQuota(
      shopDomain,
      saved.testItemQuota.kind,
      new Date(),
      saved.testItemQuota,
    );
  }
  // Another key may be another account, whose events would otherwise keep arriving here.
  if (before.keyUnreadable || keyChanged) {
    await retireServiceWebhook(shopDomain, {
      secretKey: before.secretKey,
      workspaceId: before.workspaceId,
    });
  }
  await pointStorefrontAt(admin, shop, saved.publishableKey, storefrontWorkspaceAfter(change));
  await resumeShop(shopDomain);
  const sync = await startSyncAfterSave(shopDomain, saved.firstConnection, moves);
  const events = await ensureServiceWebhook(shopDomain);
  return {
    firstSyncStarted: saved.firstConnection && sync.started,
    moveStarted: moves && sync.started,
    waitsForRun: sync.waitsForRun,
    eventsProblem: events.state === "failed" ? events.message : null,
  };
}

/**
 * A save that names no other place keeps the storefront where a domain change left it: on the
 * old workspace while the new one is not yet filled (leave-former-workspace.server.ts).
 */
function storefrontWorkspaceAfter({ shop, before, after }: KeysOrWorkspaceSwitch): string {
  return after.workspaceId === before.workspaceId
    ? (shop.storefrontWorkspaceId ?? after.workspaceId)
    : after.workspaceId;
}

/** A first connection starts the first full sync, a move the move's. */
async function startSyncAfterSave(
  shopDomain: string,
  firstConnection: boolean,
  moves: boolean,
): Promise<{ started: boolean; waitsForRun: boolean }> {
  if (!firstConnection && !moves) return { started: false, waitsForRun: false };
  try {
    await startShopSync(shopDomain, firstConnection ? "install" : MOVE_TRIGGER);
    return { started: true, waitsForRun: false };
  } catch (error) {
    // Nothing chosen: the sync starts with the first Resync after something is ticked.
    if (error instanceof RunInProgressError) return { started: false, waitsForRun: true };
    if (error instanceof NothingChosenError || error instanceof SyncPausedByMerchantError)
      return { started: false, waitsForRun: false };
    throw error;
  }
}

/** Writes the storefront configuration naming `workspaceId` (no secret), and records that it does. */
export async function pointStorefrontAt(
  admin: AdminGraphql,
  shop: Pick<Shop, "shopDomain">,
  publishableKey: string,
  workspaceId: string,
): Promise<void> {
  await writeStorefrontConfig(
    admin,
    {
      apiUrl: config().indexApiUrl,
      publishableKey,
      workspaceId,
      // Each storefront domain's own filled workspace stays named (decision 0032).
      workspaces: await filledDomainWorkspaces(shop.shopDomain),
    },
    shop.shopDomain,
  );
  await recordStorefrontWorkspace(shop.shopDomain, workspaceId);
}
