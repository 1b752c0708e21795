/**
 * What customers/redact keeps of a shopper: keyed hashes of their email, phone digits and chat
 * threads with the time of the redaction, never the values. A service event older than the
 * redaction that names one of them (a retry or a replay of a signed event) is then recognised and
 * refused, so the shopper's data never comes back. The hashing key is random, made once, and
 * stored sealed with ENCRYPTION_KEY (re-sealed by `npm run secrets:reencrypt` like every secret).
 */
import { createHmac, randomBytes } from "node:crypto";
import { Prisma } from "@prisma/client";
import { config } from "../config.server";
import prisma from "../db.server";
import type { ShopperMark } from "../service-events/shopper-marks";
import { openSecret, sealSecret, SecretUnreadableError } from "./secret-box.server";

const REDACTION_KEY_NAME = "redaction";

/** The key never changes once made (re-sealing keeps its value), so a process reads it once. */
let cachedKey: Buffer | undefined;

/** The app's redaction key, made on first use. */
async function redactionKey(): Promise<Buffer> {
  if (cachedKey) return cachedKey;
  const env = config();
  for (;;) {
    const [row] = await prisma.$queryRaw<{ ciphertext: string }[]>`
      SELECT "ciphertext" FROM "AppKey" WHERE "name" = ${REDACTION_KEY_NAME}`;
    if (row) {
      try {
        cachedKey = Buffer.from(openSecret(row.ciphertext, env.decryptionKeys), "hex");
        return cachedKey;
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        // ENCRYPTION_KEY was replaced without rotation: the old hashes can no longer be
        // recognised (docs/privacy.md). A new key keeps redactions working from now on.
        console.warn(
          "[privacy] the redaction key cannot be opened with ENCRYPTION_KEY: a new one is made",
        );
        await prisma.$executeRaw`
          DELETE FROM "AppKey" WHERE "name" = ${REDACTION_KEY_NAME} AND "ciphertext" = ${row.ciphertext}`;
        continue;
      }
    }
    const sealed = sealSecret(randomBytes(32).toString("hex"), env.encryptionKey);
    await prisma.$executeRaw`
      INSERT INTO "AppKey" ("name", "ciphertext") VALUES (${REDACTION_KEY_NAME}, ${sealed})
      ON CONFLICT ("name") DO NOTHING`;
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
  const key = await redactionKey();
  for (const hash of hashesOf(key, marks)) {
    await prisma.$executeRaw`
      INSERT INTO "RedactedShopper" ("shopDomain", "hash", "redactedAt")
      VALUES (${shopDomain}, ${hash}, ${redactedAt})
      ON CONFLICT ("shopDomain", "hash") DO UPDATE SET "redactedAt" = ${redactedAt}`;
  }
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
  const [row] = await prisma.$queryRaw<{ found: number }[]>`
    SELECT 1 AS "found" FROM "RedactedShopper"
    WHERE "shopDomain" = ${shopDomain} AND "hash" IN (${Prisma.join(hashes)})
      AND "redactedAt" >= ${new Date(createdAt.getTime() - skewMs)}
    LIMIT 1`;
  return row !== undefined;
}

/** Forgets redactions made before `before` (events that old are refused anyway). */
export function pruneRedactedShoppers(before: Date): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "RedactedShopper" WHERE "redactedAt" < ${before}`;
}
