/**
 * The app's one webhook with the service per shop (spec §6): registered at the app's public URL
 * for the events the Inbox and Insights use, signed with a random per-shop secret stored sealed.
 * The URL names the shop by an opaque id, so it says nothing about which shop it is.
 */
import { randomBytes } from "node:crypto";
import type { Shop } from "@prisma/client";
import { config } from "../config.server";
import { IndexServiceClient } from "../index-service/client";
import { IndexServiceError, NotFoundError } from "../index-service/errors";
import type { WebhookEventType } from "../index-service/protocol";
import type { WebhookRecord } from "../index-service/types";
import { openSecret, sealSecret } from "../secret-box.server";
import {
  deleteServiceWebhook,
  recordServiceWebhookError,
  recordServiceWebhookRegistered,
  renewReceivingIdentity,
  serviceWebhookMadeIfMissing,
  serviceWebhookOf,
} from "../models/service-webhooks.server";
import { connectedShopDomains, findShop } from "../models/shops.server";
import { serviceClientFor } from "../shop/service-keys.server";
import { logFor } from "../server/log";

const log = logFor("service-events");

/** The label of the app's webhooks: with the URL's opaque id, how the app knows its own. */
export const SERVICE_WEBHOOK_NAME = "Catalog Chat inbox and insights";

/** What the Inbox and Insights read; content events (product.*, post.*) are not needed. */
const SUBSCRIBED_EVENTS: readonly WebhookEventType[] = [
  "chat.conversation_started",
  "chat.message_sent",
  "contact.submitted",
  "feedback.submitted",
  "handoff.accepted",
  "handoff.requested",
  "handoff.resolved",
];

const RECEIVING_PATH = "/service-events";

/** How long uninstall, shop/redact and a key change wait for the service to delete the webhook. */
const REMOVAL_TIMEOUT_MS = 1_500;

function receivingUrl(appUrl: string, publicId: string): string {
  return `${appUrl}${RECEIVING_PATH}/${publicId}`;
}

function eventsKey(events: readonly string[]): string {
  return [...events].sort().join(",");
}

type RegistrationResult =
  | { state: "registered"; webhookId: string; url: string; changed: boolean }
  | { state: "not-connected" }
  | { state: "failed"; message: string };

/** A new receiving address and signing secret: the opaque id and the sealed secret. */
function newReceivingIdentity(): { publicId: string; secretCiphertext: string } {
  return {
    publicId: randomBytes(18).toString("base64url"),
    secretCiphertext: sealSecret(randomBytes(32).toString("hex"), config().encryptionKey),
  };
}

/** What Settings shows: registered or not, and the last refusal. */
export async function serviceEventsStatus(
  shopDomain: string,
): Promise<{ registered: boolean; lastError: string | null }> {
  const row = await serviceWebhookOf(shopDomain);
  return { registered: Boolean(row?.webhookId), lastError: row?.lastError ?? null };
}

/** Whether what is registered differs from what the app wants now (URL, events, or nothing yet). */
export async function registrationIsStale(shopDomain: string): Promise<boolean> {
  const row = await serviceWebhookOf(shopDomain);
  if (!row?.webhookId) return true;
  return (
    row.url !== receivingUrl(config().appUrl, row.publicId) ||
    row.events !== eventsKey(SUBSCRIBED_EVENTS)
  );
}

/**
 * Makes the service's registration match what the app wants: created when missing, updated (URL,
 * events and secret) when it is there, and the app's older registrations for this shop (an old
 * app URL, a lost id) deleted. Never throws for a refusal of the service: it is returned.
 */
export async function ensureServiceWebhook(shopDomain: string): Promise<RegistrationResult> {
  const shop = await findShop(shopDomain);
  if (!shop?.secretKeyCiphertext || shop.state === "uninstalled") return { state: "not-connected" };
  // The shop's registration row, made (opaque id and sealed secret) on first use.
  const row = await serviceWebhookMadeIfMissing(shopDomain, newReceivingIdentity);
  const env = config();
  const url = receivingUrl(env.appUrl, row.publicId);
  const events = [...SUBSCRIBED_EVENTS];
  const input = {
    name: SERVICE_WEBHOOK_NAME,
    url,
    events,
    secret: openSecret(row.secretCiphertext, env.decryptionKeys),
  };
  try {
    const client = serviceClientFor(shop);
    const ours = (await client.listWebhooks()).data.filter((hook) =>
      isThisShopsWebhook(hook, row.publicId),
    );
    const current = ours.find((hook) => hook.id === row.webhookId) ?? ours[0];
    let webhookId: string;
    let changed = true;
    if (current) {
      changed = current.url !== url || eventsKey(current.events ?? []) !== eventsKey(events);
      // The secret is never shown by the service, so it is sent again every time.
      await client.updateWebhook(current.id, input);
      webhookId = current.id;
    } else {
      webhookId = (await client.createWebhook(input)).data.id;
    }
    for (const stale of ours.filter((hook) => hook.id !== webhookId)) {
      await client.deleteWebhook(stale.id).catch(() => undefined);
    }
    await recordServiceWebhookRegistered(shopDomain, { webhookId, url, events: eventsKey(events) });
    return { state: "registered", webhookId, url, changed };
  } catch (error) {
    if (!(error instanceof IndexServiceError)) throw error;
    const message = `The search service refused the event webhook: ${error.message}`;
    await recordServiceWebhookError(shopDomain, message);
    return { state: "failed", message };
  }
}

/** The app's webhook for this shop: its label, and its URL ending in the shop's opaque id. */
function isThisShopsWebhook(hook: WebhookRecord, publicId: string): boolean {
  if (hook.name !== SERVICE_WEBHOOK_NAME || typeof hook.url !== "string") return false;
  try {
    return new URL(hook.url).pathname.endsWith(`${RECEIVING_PATH}/${publicId}`);
  } catch {
    return false;
  }
}

/**
 * Uninstall and shop/redact: the service stops sending (its webhook deleted while the shop's key
 * still works, within a bound) and the app stops accepting (the row with the secret goes). Never
 * throws.
 */
export async function removeServiceWebhook(shopDomain: string): Promise<void> {
  const row = await serviceWebhookOf(shopDomain);
  if (!row) return;
  try {
    const shop: Shop | null = await findShop(shopDomain);
    if (row.webhookId && shop?.secretKeyCiphertext) {
      await serviceClientFor(shop).deleteWebhook(row.webhookId, {
        timeoutMs: REMOVAL_TIMEOUT_MS,
      });
    }
  } catch (error) {
    log.warn({ err: error, shop: shopDomain }, "the webhook could not be deleted");
  }
  await deleteServiceWebhook(shopDomain);
}

/**
 * Settings saved another secret key (perhaps another account): the service sends every event of
 * an account to every webhook of the account, so the former account's webhook must go. The shop
 * gets a new receiving address and secret first, so that whatever the former account still sends
 * is refused even when the deletion below fails (the former key revoked, the service down); then
 * the webhook is deleted with the former key, within a bound. The caller registers again with
 * the new key. Never throws for the service.
 */
export async function retireServiceWebhook(
  shopDomain: string,
  former: { secretKey: string | null; workspaceId: string | null },
): Promise<void> {
  const renewed = await renewReceivingIdentity(shopDomain, newReceivingIdentity());
  if (!renewed?.formerWebhookId || !former.secretKey || !former.workspaceId) return;
  try {
    await new IndexServiceClient({
      baseUrl: config().indexApiUrl,
      apiKey: former.secretKey,
      workspaceId: former.workspaceId,
    }).deleteWebhook(renewed.formerWebhookId, { timeoutMs: REMOVAL_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof NotFoundError) return;
    log.warn(
      { shop: shopDomain },
      `the former account's webhook could not be deleted (its deliveries are refused): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** Start-up: every connected shop whose registration is missing or differs is registered again. */
export async function ensureAllServiceWebhooks(): Promise<RegistrationResult[]> {
  const results: RegistrationResult[] = [];
  for (const shopDomain of await connectedShopDomains()) {
    if (await registrationIsStale(shopDomain)) results.push(await ensureServiceWebhook(shopDomain));
  }
  return results;
}
