import type { Shop } from "@prisma/client";
import prisma from "../../db.server";
import { FORBIDDEN_CODES, TRIAL_EXPIRED_CODE } from "../../index-service/assumptions";
import type { IndexServiceClient } from "../../index-service/client";
import { IndexServiceError } from "../../index-service/errors";
import { pauseShop, resumeShop } from "../../models/shops.server";
import type { Pacer } from "../pacer";
import { stopReasonOf } from "../stop-reasons";

/**
 * Pauses that the service's answer explains (401, 402, 403): the worker asks the service again
 * from time to time and resumes the shop once it answers (key restored, plan subscribed…).
 */
export const SERVICE_PAUSE_CODES: ReadonlySet<string> = new Set([
  "UNAUTHORIZED",
  TRIAL_EXPIRED_CODE,
  FORBIDDEN_CODES.forbidden,
  FORBIDDEN_CODES.subscriptionInactive,
]);

/**
 * Pauses the shop when the service refused its key or plan (the reason in the merchant's words,
 * as the full sync says it). Returns whether it paused.
 */
export async function pauseForServiceRefusal(shopDomain: string, error: unknown): Promise<boolean> {
  if (!(error instanceof IndexServiceError)) return false;
  const reason = stopReasonOf(error);
  if (!reason.pausesShop) return false;
  await pauseShop(shopDomain, {
    code: reason.code,
    message: `${reason.message} ${reason.action}`,
    url: reason.url,
  });
  return true;
}

/** Shops paused by one of the service's refusals, with a key to try again. */
export function shopsPausedByService(): Promise<Shop[]> {
  return prisma.shop.findMany({
    where: {
      state: "paused",
      pauseCode: { in: [...SERVICE_PAUSE_CODES] },
      secretKeyCiphertext: { not: null },
    },
  });
}

/**
 * Asks the service with a cheap call only a working secret key may make (listing its webhooks);
 * when it answers, the shop resumes. Returns whether it resumed.
 */
export async function probePausedShop(
  shop: Shop,
  client: IndexServiceClient,
  pacer: Pacer,
): Promise<boolean> {
  try {
    await pacer.send(() => client.listWebhooks());
  } catch {
    return false;
  }
  await resumeShop(shop.shopDomain);
  return true;
}
