/** The shop's registration with the service's webhooks (`ServiceWebhook`). */
import prisma from "./db.server";

interface ReceivingIdentity {
  publicId: string;
  secretCiphertext: string;
}

/**
 * The receiving address's shop, sealed secret and the workspace the shop writes to, for a
 * delivery. Raw SQL: it runs for every event (docs/decisions/0001).
 */
export async function receivingWebhookOf(
  publicId: string,
): Promise<{ shopDomain: string; secretCiphertext: string; workspace: string | null } | null> {
  const [hook] = await prisma.$queryRaw<
    { shopDomain: string; secretCiphertext: string; workspace: string | null }[]
  >`
    SELECT w."shopDomain", w."secretCiphertext",
      COALESCE(s."workspaceOverride", s."workspaceId") AS "workspace"
    FROM "ServiceWebhook" w LEFT JOIN "Shop" s ON s."shopDomain" = w."shopDomain"
    WHERE w."publicId" = ${publicId}`;
  return hook ?? null;
}

export function serviceWebhookOf(shopDomain: string) {
  return prisma.serviceWebhook.findUnique({ where: { shopDomain } });
}

/** The service's id of the shop's webhook (null until registered); throws when the shop has no row. */
export async function registeredWebhookId(shopDomain: string): Promise<string | null> {
  return (await prisma.serviceWebhook.findUniqueOrThrow({ where: { shopDomain } })).webhookId;
}

/** The shop's registration row, made with `identity()` (opaque id, sealed secret) when missing. */
export async function serviceWebhookMadeIfMissing(
  shopDomain: string,
  identity: () => ReceivingIdentity,
) {
  const existing = await serviceWebhookOf(shopDomain);
  if (existing) return existing;
  await prisma.serviceWebhook.upsert({
    where: { shopDomain },
    create: { shopDomain, ...identity() },
    update: {},
  });
  return prisma.serviceWebhook.findUniqueOrThrow({ where: { shopDomain } });
}

/** What the service registered: its webhook id, URL and events (a sorted key); no error since. */
export async function recordServiceWebhookRegistered(
  shopDomain: string,
  registered: { webhookId: string; url: string; events: string },
): Promise<void> {
  await prisma.serviceWebhook.update({
    where: { shopDomain },
    data: { ...registered, registeredAt: new Date(), lastError: null },
  });
}

/** The service's last refusal, as Settings shows it. */
export async function recordServiceWebhookError(shopDomain: string, message: string) {
  await prisma.serviceWebhook.update({ where: { shopDomain }, data: { lastError: message } });
}

export async function deleteServiceWebhook(shopDomain: string): Promise<void> {
  await prisma.serviceWebhook.deleteMany({ where: { shopDomain } });
}

/**
 * Gives the shop a new receiving address (opaque id) and signing secret, forgetting the webhook
 * registered under the old ones; returns that webhook's id. Deliveries to the old address are
 * refused from then on (unknown address, 401).
 */
export async function renewReceivingIdentity(
  shopDomain: string,
  identity: ReceivingIdentity,
): Promise<{ formerWebhookId: string | null } | null> {
  const row = await serviceWebhookOf(shopDomain);
  if (!row) return null;
  await prisma.serviceWebhook.update({
    where: { shopDomain },
    data: {
      ...identity,
      webhookId: null,
      url: null,
      events: null,
      registeredAt: null,
      lastError: null,
    },
  });
  return { formerWebhookId: row.webhookId };
}
