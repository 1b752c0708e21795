/**
 * Service events over real HTTP: the app's production build on a loopback server whose public URL
 * is known before it starts (the webhook is registered there), the service emulator delivering
 * signed events to it, and a real database.
 */
import type { PrismaClient } from "@prisma/client";
import { startAppServer, type RunningAppServer } from "../app/server/app-server";
import { prepareAppEnvironment } from "./app-environment";
import { freePort } from "./free-port";
import { startTestEmulator, type RunningEmulator } from "./emulator";
import { requireCurrentBuild } from "./live-stack";
import prisma from "../app/models/db.server";
import { recordInstalledShop, saveServiceSettings } from "../app/models/shops.server";
import { sealSecret, openSecret } from "../app/secret-box.server";
import { config } from "../app/config.server";
import { ensureServiceWebhook } from "../app/service-events/registration.server";
import { signWebhookBody } from "../app/index-service/webhook-signature";

export const SHOP_A = "inbox-a.myshopify.com";
export const SHOP_B = "inbox-b.myshopify.com";
/** Each shop has its own service account (keys from the emulator's built-in accounts). */
export const KEYS = {
  [SHOP_A]: { account: "professional", secret: "svc_sk_test_professional" },
  [SHOP_B]: { account: "starter", secret: "svc_sk_test_starter" },
} as const;

export interface EventsEnvironment {
  emulator: RunningEmulator;
  app: RunningAppServer;
  appUrl: string;
  prisma: PrismaClient;
  /** Stops the app server (the emulator's deliveries then fail) and starts it again. */
  stopApp(): Promise<void>;
  startApp(): Promise<void>;
  close(): Promise<void>;
}

export async function startEventsEnvironment(
  env: Record<string, string> = {},
): Promise<EventsEnvironment> {
  requireCurrentBuild();
  const emulator = await startTestEmulator({ webhookTimeoutMs: 5_000 });
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  await prepareAppEnvironment({
    INDEX_API_URL: emulator.url,
    SHOPIFY_APP_URL: appUrl,
    BACKGROUND_WORK: "off",
    ...env,
  });
  let app = await startAppServer({ port });
  const environment: EventsEnvironment = {
    emulator,
    get app() {
      return app;
    },
    appUrl,
    prisma,
    stopApp: () => app.close(),
    startApp: async () => {
      app = await startAppServer({ port });
    },
    close: async () => {
      await app.close();
      await emulator.close();
    },
  };
  return environment;
}

/** The shop's workspace: named after its storefront domain, as the app names it. */
export function workspaceOfShop(shopDomain: string): string {
  return shopDomain.replace(".myshopify.com", "-example-com");
}

/**
 * Installs a shop and saves its secret key (its own account's unless another is given) through
 * the app's own code (which registers the webhook).
 */
export async function connectShop(
  shopDomain: keyof typeof KEYS,
  key: string = KEYS[shopDomain].secret,
  contactEmail?: string,
): Promise<void> {
  await recordInstalledShop({
    shopDomain,
    primaryDomain: shopDomain.replace(".myshopify.com", ".example.com"),
    ...(contactEmail ? { contactEmail } : {}),
  });
  await saveServiceSettings(shopDomain, {
    sealedSecretKey: { sealed: sealSecret(key, config().encryptionKey), last4: key.slice(-4) },
    publishableKey: key.replace("_sk_", "_pk_"),
    tier: "professional",
    workspaceOverride: null,
  });
  const result = await ensureServiceWebhook(shopDomain);
  if (result.state !== "registered")
    throw new Error(`registration failed: ${JSON.stringify(result)}`);
}

/**
 * A chat request to the emulator as the storefront widget sends it (not streamed), with the
 * publishable key of the shop's account unless another secret key's account is given.
 */
export async function chat(
  emulatorUrl: string,
  shopDomain: keyof typeof KEYS,
  body: Record<string, unknown>,
  secretKey: string = KEYS[shopDomain].secret,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulatorUrl}/chat`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${secretKey.replace("_sk_", "_pk_")}`,
      "Content-Type": "application/json",
      "X-Workspace-ID": workspaceOfShop(shopDomain),
    },
    body: JSON.stringify({ stream: false, ...body }),
  });
  if (!response.ok) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A shopper asks for a person, then fills the handoff form. */
export async function askForAPerson(
  emulatorUrl: string,
  shopDomain: keyof typeof KEYS,
  threadId: string,
  contact: { name: string; email: string; phone: string; message: string },
  secretKey?: string,
): Promise<void> {
  await chat(emulatorUrl, shopDomain, { threadId, message: "Can I talk to a person?" }, secretKey);
  await chat(
    emulatorUrl,
    shopDomain,
    {
      threadId,
      message: "Send",
      offerResponse: { domain: "live_agent", actionId: "submit", formData: contact },
    },
    secretKey,
  );
}

let eventSequence = 0;

/** One event signed with the shop's webhook secret and posted to its receiving URL, as the service does. */
export async function deliverEvent(
  prisma: PrismaClient,
  shopDomain: string,
  eventType: string,
  data: Record<string, unknown>,
): Promise<number> {
  const hook = await prisma.serviceWebhook.findUniqueOrThrow({ where: { shopDomain } });
  eventSequence += 1;
  // Every event but the contact form names the shop's workspace, as the service's do.
  const named =
    eventType === "contact.submitted"
      ? data
      : { workspace_id: workspaceOfShop(shopDomain), ...data };
  const body = JSON.stringify({
    id: `evt_harness${eventSequence}_${Date.now()}`,
    event_type: eventType,
    created_at: new Date().toISOString(),
    data: named,
  });
  const secret = openSecret(hook.secretCiphertext, config().encryptionKey);
  const response = await fetch(hook.url!, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Webhook-Signature": signWebhookBody(secret, body),
    },
    body,
  });
  return response.status;
}
