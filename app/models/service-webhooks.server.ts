/** The shop's registration with the service's webhooks (`ServiceWebhook`), beyond registering. */
import prisma from "../db.server";

/**
 * Gives the shop a new receiving address (opaque id) and signing secret, forgetting the webhook
 * registered under the old ones; returns that webhook's id. Deliveries to the old address are
 * refused from then on (unknown address, 401).
 */
export async function renewReceivingIdentity(
  shopDomain: string,
  identity: { publicId: string; secretCiphertext: string },
): Promise<{ formerWebhookId: string | null } | null> {
  const row = await prisma.serviceWebhook.findUnique({ where: { shopDomain } });
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
