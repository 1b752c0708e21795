/**
 * Takes one service event delivery (spec §6), the HTTP-facing part of filling the Inbox: the shop
 * named by the URL's opaque id, the signature checked against that shop's secret before the body
 * is even parsed, and the event's date within the replay window; then ./fill-inbox.server.ts
 * attributes, stores and folds it. Nothing is asked of the service or Shopify here, so the answer
 * comes in milliseconds.
 */
import { config } from "../config.server";
import { appMetrics } from "../server/metrics";
import { verifyWebhookSignature } from "../index-service/webhook-signature";
import { openSecret, SecretUnreadableError } from "../secret-box.server";
import { receivingWebhookOf } from "../models/service-webhooks.server";
import { MalformedEventError, parseServiceEventBody, type ServiceEventBody } from "./event-body";
import { ALLOWED_CLOCK_SKEW_MS, fillInbox, type FillOutcome } from "./fill-inbox.server";

/** The opaque id in the receiving URL: base64url, as made by newPublicId(). */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

interface ServiceEventDelivery {
  publicId: string;
  rawBody: string;
  signature: string | null;
  receivedAt?: Date;
}

type ReceiveOutcome =
  | { status: 401; reason: "unknown-shop" | "bad-signature" }
  | { status: 400; reason: "malformed" | "future"; message: string }
  | {
      status: 200;
      /** "expired" here; the others as ./fill-inbox.server.ts says. */
      reason: "expired" | FillOutcome["reason"];
      shopDomain: string;
      eventId: string;
      /** The delivery opened a new Inbox entry. */
      newInboxEntry: boolean;
      threadId: string | null;
    };

/** Every delivery of the service's events counts in the metrics by its outcome's reason. */
export async function receiveServiceEvent(delivery: ServiceEventDelivery): Promise<ReceiveOutcome> {
  const outcome = await receive(delivery);
  appMetrics().serviceEvents.inc({ outcome: outcome.reason });
  return outcome;
}

async function receive(delivery: ServiceEventDelivery): Promise<ReceiveOutcome> {
  const receivedAt = delivery.receivedAt ?? new Date();
  const env = config();
  if (!PUBLIC_ID_PATTERN.test(delivery.publicId)) return { status: 401, reason: "unknown-shop" };
  const hook = await receivingWebhookOf(delivery.publicId);
  if (!hook) return { status: 401, reason: "unknown-shop" };
  let secret: string;
  try {
    secret = openSecret(hook.secretCiphertext, env.decryptionKeys);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return { status: 401, reason: "bad-signature" };
    throw error;
  }
  if (!verifyWebhookSignature(secret, delivery.rawBody, delivery.signature)) {
    return { status: 401, reason: "bad-signature" };
  }
  let event: ServiceEventBody;
  try {
    event = parseServiceEventBody(delivery.rawBody);
  } catch (error) {
    if (error instanceof MalformedEventError) {
      return { status: 400, reason: "malformed", message: error.message };
    }
    throw error;
  }
  const shopDomain = hook.shopDomain;
  const answer = {
    status: 200 as const,
    shopDomain,
    eventId: event.id,
    threadId: event.threadId,
    newInboxEntry: false,
  };
  // A replay window bounded on both sides: a future date would outlive the pruning of its id.
  if (event.createdAt.getTime() > receivedAt.getTime() + ALLOWED_CLOCK_SKEW_MS) {
    return {
      status: 400,
      reason: "future",
      message: `created_at is more than ${ALLOWED_CLOCK_SKEW_MS / 60_000} minutes ahead of the app's clock`,
    };
  }
  // Older than what is kept: its id may have been pruned, so it could not be told from a replay.
  const oldest = receivedAt.getTime() - env.serviceEvents.retentionDays * 86_400_000;
  if (event.createdAt.getTime() < oldest) return { ...answer, reason: "expired" };
  const filled = await fillInbox({ shopDomain, shopWorkspace: hook.workspace, event, receivedAt });
  return { ...answer, ...filled };
}
