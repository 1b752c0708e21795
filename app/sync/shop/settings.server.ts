import type { AdminGraphql } from "../../catalog";
import { config } from "../../config.server";
import { InvalidDomainError, workspaceIdFromDomain } from "../../index-service/workspace-id";
import { openSecret, SecretUnreadableError, sealSecret } from "../../models/secret-box.server";
import {
  findShop,
  workspaceOf,
  resumeShop,
  saveServiceSettings,
  saveSyncChoices,
  type SyncChoices,
} from "../../models/shops.server";
import {
  ensureServiceWebhook,
  retireServiceWebhook,
} from "../../service-events/registration.server";
import { checkServiceKeys, type KeyProblem } from "./service-keys.server";
import { pointStorefrontAt } from "./storefront-follows.server";
import { forgetReportedQuota } from "../../models/quota-usage.server";
import { NothingChosenError, startShopSync } from "../shopify/shop-sync.server";
import { RunInProgressError } from "../../models/sync-runs.server";

export interface SettingsForm extends SyncChoices {
  /** Empty keeps the stored secret key. */
  secretKey: string;
  publishableKey: string;
  /** Empty uses the workspace derived from the storefront domain. */
  workspaceOverride: string;
}

export type SettingsResult =
  | {
      ok: true;
      firstSyncStarted: boolean;
      /** Another account's key or another workspace was saved: the index is moving there. */
      moveStarted: boolean;
      /** A sync was already running: the move (or first sync) starts with the next one. */
      waitsForRun: boolean;
      tier: string;
      /** Null when the service's events reach the app; else why not, in the merchant's words. */
      eventsProblem: string | null;
    }
  | { ok: false; problems: (KeyProblem | { field: "workspaceOverride"; message: string })[] };

const UNREADABLE = Symbol("unreadable");

/** Shown when the stored secret key no longer opens (ENCRYPTION_KEY changed without rotation). */
export const UNREADABLE_SECRET_MESSAGE =
  "The saved secret key can no longer be read (the app's encryption key changed). Enter your secret key again.";

function readSavedSecret(
  sealed: string | null,
  keys: readonly Buffer[],
): string | null | typeof UNREADABLE {
  if (!sealed) return null;
  try {
    return openSecret(sealed, keys);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return UNREADABLE;
    throw error;
  }
}

/**
 * Saves the Settings form: both keys are checked against the service first, the secret key is
 * stored encrypted, the storefront configuration (publishable key only) is written where the
 * widget reads it, a pause for a key problem is lifted, a first connection starts the first
 * full sync, and the service's event webhook is registered (or brought up to date; after a key
 * change, the former key's webhook is deleted and the receiving address renewed first).
 */
export async function saveSettings(
  shopDomain: string,
  admin: AdminGraphql,
  form: SettingsForm,
): Promise<SettingsResult> {
  const env = config();
  const shop = await findShop(shopDomain);
  if (!shop) throw new Error(`${shopDomain} is not installed`);

  let workspaceOverride: string | null = null;
  if (form.workspaceOverride.trim()) {
    try {
      workspaceOverride = workspaceIdFromDomain(form.workspaceOverride);
    } catch (error) {
      if (!(error instanceof InvalidDomainError)) throw error;
      return {
        ok: false,
        problems: [
          {
            field: "workspaceOverride",
            message: "Enter a workspace id or domain, such as shop-example-com.",
          },
        ],
      };
    }
  }
  const workspaceId = workspaceOverride ?? shop.workspaceId ?? workspaceIdFromDomain(shopDomain);
  const newSecret = form.secretKey.trim();
  const saved = readSavedSecret(shop.secretKeyCiphertext, env.decryptionKeys);
  if (saved === UNREADABLE && !newSecret) {
    return { ok: false, problems: [{ field: "secretKey", message: UNREADABLE_SECRET_MESSAGE }] };
  }
  // An unreadable saved key cannot be compared or used to clean up: treated as none.
  const savedSecret = saved === UNREADABLE ? null : saved;
  const secretKey = newSecret || savedSecret || "";
  const savedWorkspace = workspaceOf(shop);
  // The ledger belongs to one account and workspace: a different key (the app cannot tell
  // whether it is the same account) or workspace moves the index.
  const moved =
    savedSecret !== null &&
    savedWorkspace !== null &&
    (secretKey !== savedSecret || workspaceId !== savedWorkspace);

  const check = await checkServiceKeys({
    baseUrl: env.indexApiUrl,
    workspaceId,
    secretKey,
    publishableKey: form.publishableKey,
  });
  if (!check.ok) return check;

  const { syncProducts, syncPages, syncArticles } = form;
  await saveSyncChoices(shopDomain, { syncProducts, syncPages, syncArticles });
  const { firstConnection } = await saveServiceSettings(shopDomain, {
    sealedSecretKey: newSecret
      ? { sealed: sealSecret(newSecret, env.encryptionKey), last4: newSecret.slice(-4) }
      : undefined,
    publishableKey: form.publishableKey.trim(),
    tier: check.tier,
    workspaceOverride,
    formerPlace:
      moved && shop.secretKeyCiphertext && savedWorkspace
        ? { workspaceId: savedWorkspace, sealedSecretKey: shop.secretKeyCiphertext }
        : undefined,
  });
  if (moved && secretKey !== savedSecret) await forgetReportedQuota(shopDomain);
  // Another key may be another account, whose events would otherwise keep arriving here.
  if (saved === UNREADABLE || (savedSecret !== null && secretKey !== savedSecret)) {
    await retireServiceWebhook(shopDomain, { secretKey: savedSecret, workspaceId: savedWorkspace });
  }
  // A save that names no other place keeps the storefront where a domain change left it: on the
  // old workspace while the new one is not yet filled (storefront-follows.server.ts).
  const storefrontWorkspace =
    workspaceId === savedWorkspace ? (shop.storefrontWorkspaceId ?? workspaceId) : workspaceId;
  await pointStorefrontAt(admin, shop, form.publishableKey.trim(), storefrontWorkspace);
  await resumeShop(shopDomain);
  let waitsForRun = false;
  let started = false;
  if (firstConnection || moved) {
    try {
      await startShopSync(shopDomain, firstConnection ? "install" : "move");
      started = true;
    } catch (error) {
      // Nothing chosen: the sync starts with the first Resync after something is ticked.
      if (error instanceof RunInProgressError) waitsForRun = true;
      else if (!(error instanceof NothingChosenError)) throw error;
    }
  }
  const events = await ensureServiceWebhook(shopDomain);
  return {
    ok: true,
    firstSyncStarted: firstConnection && started,
    moveStarted: moved && started,
    waitsForRun,
    tier: check.tier,
    eventsProblem: events.state === "failed" ? events.message : null,
  };
}
