import { writeStorefrontConfig, type AdminGraphql } from "../catalog";
import { config } from "../config.server";
import { InvalidDomainError, workspaceIdFromDomain } from "../index-service/workspace-id";
import { openSecret, sealSecret } from "../models/secret-box.server";
import {
  findShop,
  resumeShop,
  saveServiceSettings,
  saveSyncChoices,
  type SyncChoices,
} from "../models/shops.server";
import { ensureServiceWebhook } from "../service-events/registration.server";
import { checkServiceKeys, type KeyProblem } from "./service-keys";
import { startShopSync } from "./shop-sync.server";

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
      tier: string;
      /** Null when the service's events reach the app; else why not, in the merchant's words. */
      eventsProblem: string | null;
    }
  | { ok: false; problems: (KeyProblem | { field: "workspaceOverride"; message: string })[] };

/**
 * Saves the Settings form: both keys are checked against the service first, the secret key is
 * stored encrypted, the storefront configuration (publishable key only) is written where the
 * widget reads it, a pause for a key problem is lifted, a first connection starts the first
 * full sync, and the service's event webhook is registered (or brought up to date).
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
  const secretKey =
    newSecret ||
    (shop.secretKeyCiphertext ? openSecret(shop.secretKeyCiphertext, env.encryptionKey) : "");

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
  });
  await writeStorefrontConfig(admin, {
    apiUrl: env.indexApiUrl,
    publishableKey: form.publishableKey.trim(),
    workspaceId,
  });
  await resumeShop(shopDomain);
  if (firstConnection) await startShopSync(shopDomain, "install");
  const events = await ensureServiceWebhook(shopDomain);
  return {
    ok: true,
    firstSyncStarted: firstConnection,
    tier: check.tier,
    eventsProblem: events.state === "failed" ? events.message : null,
  };
}
