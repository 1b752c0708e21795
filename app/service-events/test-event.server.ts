/**
 * Settings' "Send a test event": asks the service for a test delivery to the shop's webhook, then
 * says whether it arrived and its signature was verified, by looking for it where the receiving
 * route stores what it verified.
 */
import { randomBytes } from "node:crypto";
import { IndexServiceError, NotFoundError } from "../index-service/errors";
import { registeredWebhookId } from "../models/service-webhooks.server";
import { testEventReceived } from "../models/service-events.server";
import { findShop } from "../models/shops.server";
import { serviceClientFor } from "../shop/service-keys.server";
import { ensureServiceWebhook, registrationIsStale } from "./registration.server";

/** The marker that tells a test delivery from a shopper's event (never in the Inbox or Insights). */
export const TEST_MARKER_FIELD = "catalog_chat_test";
const TEST_THREAD_PREFIX = "catalog-chat-test-";
/** A real service may deliver after answering: the app looks for the event this long. */
const ARRIVAL_WAIT_MS = 5_000;

type TestEventResult = { ok: true; message: string } | { ok: false; message: string };

export async function sendTestEvent(
  shopDomain: string,
  options: { arrivalWaitMs?: number } = {},
): Promise<TestEventResult> {
  const shop = await findShop(shopDomain);
  if (!shop?.secretKeyCiphertext) {
    return { ok: false, message: "Save your search service keys first." };
  }
  if (await registrationIsStale(shopDomain)) {
    const registered = await ensureServiceWebhook(shopDomain);
    if (registered.state === "failed") return { ok: false, message: registered.message };
  }
  const nonce = randomBytes(9).toString("base64url");
  const threadId = `${TEST_THREAD_PREFIX}${nonce}`;
  const test = async () => {
    return (
      await serviceClientFor(shop).testWebhook((await registeredWebhookId(shopDomain)) ?? "", {
        event_type: "chat.conversation_started",
        data: { thread_id: threadId, [TEST_MARKER_FIELD]: nonce },
      })
    ).data;
  };
  let answer: unknown;
  try {
    try {
      answer = await test();
    } catch (error) {
      // Deleted at the service (by hand, or by another installation): registered again, once.
      if (!(error instanceof NotFoundError)) throw error;
      const registered = await ensureServiceWebhook(shopDomain);
      if (registered.state === "failed") return { ok: false, message: registered.message };
      answer = await test();
    }
  } catch (error) {
    if (!(error instanceof IndexServiceError)) throw error;
    return { ok: false, message: `The search service refused the test: ${error.message}` };
  }
  const deadline = Date.now() + (options.arrivalWaitMs ?? ARRIVAL_WAIT_MS);
  for (;;) {
    if (await testEventReceived(shopDomain, threadId)) {
      return {
        ok: true,
        message: "The test event arrived and its signature was verified.",
      };
    }
    if (Date.now() >= deadline || deliveryFailed(answer)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ok: false, message: failureMessage(answer) };
}

function fields(answer: unknown): { delivered?: unknown; status?: unknown; error?: unknown } {
  if (typeof answer !== "object" || answer === null) return {};
  const record = answer as Record<string, unknown>;
  return { delivered: record.delivered, status: record.status_code, error: record.error };
}

function deliveryFailed(answer: unknown): boolean {
  return fields(answer).delivered === false;
}

function failureMessage(answer: unknown): string {
  const { status, error } = fields(answer);
  if (status === 401) {
    return "The test event arrived but its signature did not match: save Settings again to renew the webhook's secret.";
  }
  if (typeof status === "number") {
    return `The test event did not arrive: the app's address answered ${status}. Check that SHOPIFY_APP_URL is this app's public address.`;
  }
  if (typeof error === "string") {
    return `The test event did not arrive: ${error}. Check that SHOPIFY_APP_URL is this app's public address.`;
  }
  return "The test event did not arrive. Check that SHOPIFY_APP_URL is this app's public address.";
}
