/**
 * What customers/redact keeps of a shopper: keyed hashes of their email, phone digits and chat
 * threads with the time of the redaction, never the values (app/models/redacted-shoppers.server.ts).
 * A service event older than the redaction that names one of them (a retry or a replay of a signed
 * event) is then recognised and refused, so the shopper's data never comes back. The hashing key
 * is random, made once, and stored sealed with ENCRYPTION_KEY in `AppKey` (re-sealed by
 * `npm run secrets:reencrypt` like every secret).
 */
import { createHmac, randomBytes } from "node:crypto";
import { config } from "../config.server";
import { appKeyCiphertext, forgetAppKey, storeAppKeyIfMissing } from "../models/app-keys.server";
import { recordRedactedHashes, redactedAtOrAfter } from "../models/redacted-shoppers.server";
import { openSecret, sealSecret, SecretUnreadableError } from "../secret-box.server";
import type { ShopperMark } from "./shopper-marks";
import { logFor } from "../server/log";

const log = logFor("privacy");

const REDACTION_KEY_NAME = "redaction";

/** The key never changes once made (re-sealing keeps its value), so a process reads it once. */
let cachedKey: Buffer | undefined;

/** The app's redaction key, made on first use. */
async function redactionKey(): Promise<Buffer> {
  if (cachedKey) return cachedKey;
  const env = config();
  for (;;) {
    const ciphertext = await appKeyCiphertext(REDACTION_KEY_NAME);
    if (ciphertext !== null) {
      try {
        cachedKey = Buffer.from(openSecret(ciphertext, env.decryptionKeys), "hex");
        return cachedKey;
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        // ENCRYPTION_KEY was replaced without rotation: the old hashes can no longer be
        // recognised (docs/privacy.md). A new key keeps redactions working from now on.
        log.warn("the redaction key cannot be opened with ENCRYPTION_KEY: a new one is made");
        await forgetAppKey(REDACTION_KEY_NAME, ciphertext);
        continue;
      }
    }
    const sealed = sealSecret(randomBytes(32).toString("hex"), env.encryptionKey);
    await storeAppKeyIfMissing(REDACTION_KEY_NAME, sealed);
  }
}

function hashesOf(key: Buffer, marks: readonly ShopperMark[]): string[] {
  return [
    ...new Set(
      marks.map((mark) =>
        createHmac("sha256", key).update(`${mark.kind}\0${mark.value}`).digest("hex"),
      ),
    ),
  ];
}

/** Remembers the shopper's marks as redacted at `redactedAt` (a later redaction moves it on). */
export async function recordRedactedShopper(
  shopDomain: string,
  marks: readonly ShopperMark[],
  redactedAt: Date,
): Promise<void> {
  if (marks.length === 0) return;
  await recordRedactedHashes(shopDomain, hashesOf(await redactionKey(), marks), redactedAt);
}

/**
 * Whether any of the marks was redacted for the shop at or after `createdAt` (less `skewMs`, the
 * clock difference allowed between the service and the app): the event is then from before the
 * redaction.
 */
export async function redactedSince(
  shopDomain: string,
  marks: readonly ShopperMark[],
  createdAt: Date,
  skewMs: number,
): Promise<boolean> {
  if (marks.length === 0) return false;
  const hashes = hashesOf(await redactionKey(), marks);
  return redactedAtOrAfter(shopDomain, hashes, new Date(createdAt.getTime() - skewMs));
}
