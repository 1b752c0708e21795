/**
 * Signatures of the service's webhook deliveries (spec §6.2): header
 * `X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the secret>`.
 * Server-side only (node:crypto); the pure modules never import it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_PREFIX } from "./protocol";

export type RawBody = string | Uint8Array;

function hmacHex(secret: string, rawBody: RawBody): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

export function signWebhookBody(secret: string, rawBody: RawBody): string {
  return `${WEBHOOK_SIGNATURE_PREFIX}${hmacHex(secret, rawBody)}`;
}

/**
 * True when `header` is the signature of `rawBody` (the bytes as received, before any JSON
 * parsing). Compared in constant time; a missing, malformed or wrong-length header is false.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: RawBody,
  header: string | readonly string[] | null | undefined,
): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== "string" || secret === "") return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody), "utf8");
  const received = Buffer.from(value.trim().toLowerCase(), "utf8");
  if (received.length !== expected.length) {
    // Same work either way, so the length of a wrong header does not show in the timing.
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(received, expected);
}
