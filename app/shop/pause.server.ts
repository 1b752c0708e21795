import type { Shop } from "@prisma/client";
import { FORBIDDEN_CODES, TRIAL_EXPIRED_CODE } from "../index-service/assumptions";
import type { IndexServiceClient } from "../index-service/client";
import {
  ForbiddenError,
  IndexServiceError,
  NetworkError,
  QuotaExceededError,
  SubscriptionInactiveError,
  TrialExpiredError,
  UnauthorizedError,
} from "../index-service/errors";
import { SecretUnreadableError } from "../secret-box.server";
import { pausedShopsWith, pauseShop, resumeShop } from "../models/shops.server";
import type { Pacer } from "../sync/engine/pacer";

// Why syncing stopped, in the merchant's words, and what decides that a shop pauses: a full sync
// that stops, a live batch the service refuses and the dashboard's banner all read the one list
// below, and every pause is written by pauseForStop.

const UNAUTHORIZED_CODE = "UNAUTHORIZED";
const SECRET_UNREADABLE_CODE = "SECRET_KEY_UNREADABLE";

/**
 * The stops that pause a shop until the merchant acts (key and plan problems), and whether the
 * live worker asks the service again from time to time and resumes the shop once it answers (key
 * restored, plan subscribed…). An unreadable saved key only the merchant can fix, in Settings.
 */
const PAUSING_STOPS: Readonly<Record<string, { askServiceAgain: boolean }>> = {
  [UNAUTHORIZED_CODE]: { askServiceAgain: true },
  [TRIAL_EXPIRED_CODE]: { askServiceAgain: true },
  [FORBIDDEN_CODES.forbidden]: { askServiceAgain: true },
  [FORBIDDEN_CODES.subscriptionInactive]: { askServiceAgain: true },
  [SECRET_UNREADABLE_CODE]: { askServiceAgain: false },
};

const ASKED_AGAIN = Object.keys(PAUSING_STOPS).filter(
  (code) => PAUSING_STOPS[code]!.askServiceAgain,
);

/** Why syncing stopped, in words a merchant understands, with what to do about it. */
export interface StopReason {
  code: string;
  message: string;
  action: string;
  /** Where to do it, when it is outside the app (e.g. the service's upgrade page). */
  url?: string;
  /** Whether the shop's sync pauses until the merchant acts (rather than a one-off failure). */
  pausesShop: boolean;
}

/** Whether a stop pauses the shop (and, for a run, whether the pause banner shows it). */
export function isPausingStop(code: string | null): boolean {
  return code !== null && Object.hasOwn(PAUSING_STOPS, code);
}

/** The one way a shop is paused: when the stop's reason pauses it. Returns whether it paused. */
export async function pauseForStop(shopDomain: string, reason: StopReason): Promise<boolean> {
  if (!reason.pausesShop) return false;
  await pauseShop(shopDomain, {
    code: reason.code,
    message: `${reason.message} ${reason.action}`,
    url: reason.url,
  });
  return true;
}

/**
 * Pauses the shop when the service refused its key or plan (the reason in the merchant's words,
 * as the full sync says it). Returns whether it paused.
 */
export async function pauseForServiceRefusal(shopDomain: string, error: unknown): Promise<boolean> {
  if (!(error instanceof IndexServiceError)) return false;
  return pauseForStop(shopDomain, stopReasonOf(error));
}

/** Shops paused by one of the service's refusals, with a key to try again. */
export function shopsPausedByService(): Promise<Shop[]> {
  return pausedShopsWith(ASKED_AGAIN);
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

/** A stop on the list: it pauses the shop until the merchant does what `action` says. */
function pausingStop(code: string, message: string, action: string, url?: string): StopReason {
  return {
    code,
    message,
    action,
    ...(url === undefined ? {} : { url }),
    pausesShop: isPausingStop(code),
  };
}

export function stopReasonOf(error: unknown): StopReason {
  if (error instanceof SecretUnreadableError) {
    return pausingStop(
      SECRET_UNREADABLE_CODE,
      "The app can no longer read your saved secret key: its encryption key was changed.",
      "Enter your secret key again in Settings.",
    );
  }
  if (error instanceof UnauthorizedError) {
    return pausingStop(
      UNAUTHORIZED_CODE,
      "The search service no longer accepts your secret key: it was revoked, expired or mistyped.",
      "Copy a current secret key from your search service account and save it in Settings.",
    );
  }
  if (error instanceof TrialExpiredError) {
    return pausingStop(
      TRIAL_EXPIRED_CODE,
      "Your free trial of the search service has ended. Your indexed catalogue is kept.",
      "Choose a plan to resume syncing and the storefront chat.",
      error.upgradeUrl,
    );
  }
  if (error instanceof SubscriptionInactiveError) {
    return pausingStop(
      FORBIDDEN_CODES.subscriptionInactive,
      "Your search service subscription is inactive.",
      "Reactivate the subscription in your search service account, then press Resync.",
    );
  }
  if (error instanceof QuotaExceededError) {
    return {
      code: error.code,
      message: "This month's quota of the search service is used up.",
      action:
        "New items are added after the quota resets on the 1st, or sooner if you upgrade your plan.",
      pausesShop: false,
    };
  }
  if (error instanceof ForbiddenError) {
    return pausingStop(
      FORBIDDEN_CODES.forbidden,
      "The key saved as the secret key cannot write to the index.",
      "Save the secret key (it starts with svc_sk_) in Settings, not the publishable key.",
    );
  }
  if (error instanceof NetworkError || (error instanceof IndexServiceError && error.retryable)) {
    return {
      code: error.code,
      message: "The search service could not be reached, or kept failing, so the sync stopped.",
      action: "Nothing is lost: press Resync in a few minutes.",
      pausesShop: false,
    };
  }
  if (error instanceof IndexServiceError) {
    return {
      code: error.code,
      message: `The search service refused the sync (${error.code}).`,
      action: "Press Resync; if it happens again, contact support with this code.",
      pausesShop: false,
    };
  }
  return {
    code: "INTERNAL",
    message: "The sync stopped because of an error in the app.",
    action: "Press Resync; if it happens again, contact support.",
    pausesShop: false,
  };
}

/** Shopify's bulk export failures (BulkOperation.errorCode and status). */
export function exportStopReason(errorCodeOrStatus: string): StopReason {
  const code = `SHOPIFY_${errorCodeOrStatus}`;
  switch (errorCodeOrStatus) {
    case "ACCESS_DENIED":
      return {
        code,
        message:
          "Shopify refused to export your catalogue to the app: it lacks a permission it needs.",
        action:
          "Open the app from your Shopify admin and approve the permissions it asks for, then press Resync.",
        pausesShop: false,
      };
    case "TIMEOUT":
      return {
        code,
        message: "Shopify's export of your catalogue took too long and was stopped.",
        action: "Press Resync to try again.",
        pausesShop: false,
      };
    case "EXPIRED":
      return {
        code,
        message: "Shopify's export of your catalogue expired before the app could read it.",
        action: "Press Resync to export again.",
        pausesShop: false,
      };
    default:
      return {
        code,
        message: `Shopify could not export your catalogue (${errorCodeOrStatus}).`,
        action: "Press Resync to try again.",
        pausesShop: false,
      };
  }
}
