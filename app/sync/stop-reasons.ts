import { FORBIDDEN_CODES, TRIAL_EXPIRED_CODE } from "../index-service/assumptions";
import {
  ForbiddenError,
  IndexServiceError,
  NetworkError,
  QuotaExceededError,
  SubscriptionInactiveError,
  TrialExpiredError,
  UnauthorizedError,
} from "../index-service/errors";
import { SecretUnreadableError } from "../models/secret-box.server";

const SECRET_UNREADABLE_CODE = "SECRET_KEY_UNREADABLE";

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

/** Stop codes of key and plan problems: they pause the shop until the merchant acts. */
const PAUSING_CODES: ReadonlySet<string> = new Set([
  "UNAUTHORIZED",
  SECRET_UNREADABLE_CODE,
  TRIAL_EXPIRED_CODE,
  FORBIDDEN_CODES.forbidden,
  FORBIDDEN_CODES.subscriptionInactive,
]);

/** Whether a run stopped for a key or plan problem (shown by the pause banner while it lasts). */
export function isPausingStop(code: string | null): boolean {
  return code !== null && PAUSING_CODES.has(code);
}

export function stopReasonOf(error: unknown): StopReason {
  if (error instanceof SecretUnreadableError) {
    return {
      code: SECRET_UNREADABLE_CODE,
      message: "The app can no longer read your saved secret key: its encryption key was changed.",
      action: "Enter your secret key again in Settings.",
      pausesShop: true,
    };
  }
  if (error instanceof UnauthorizedError) {
    return {
      code: error.code,
      message:
        "The search service no longer accepts your secret key: it was revoked, expired or mistyped.",
      action: "Copy a current secret key from your search service account and save it in Settings.",
      pausesShop: true,
    };
  }
  if (error instanceof TrialExpiredError) {
    return {
      code: error.code,
      message: "Your free trial of the search service has ended. Your indexed catalogue is kept.",
      action: "Choose a plan to resume syncing and the storefront chat.",
      url: error.upgradeUrl,
      pausesShop: true,
    };
  }
  if (error instanceof SubscriptionInactiveError) {
    return {
      code: error.code,
      message: "Your search service subscription is inactive.",
      action: "Reactivate the subscription in your search service account, then press Resync.",
      pausesShop: true,
    };
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
    return {
      code: error.code,
      message: "The key saved as the secret key cannot write to the index.",
      action: "Save the secret key (it starts with svc_sk_) in Settings, not the publishable key.",
      pausesShop: true,
    };
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
