/**
 * What customers/redact keeps of a shopper (`RedactedShopper`): keyed hashes of their email, phone
 * digits and chat threads with the time of the redaction, never the values. The hashes are made by
 * app/service-events/redaction-hashes.server.ts.
 */
import { Prisma } from "@prisma/client";
import prisma from "./db.server";

/** Remembers the hashes as redacted at `redactedAt` (a later redaction moves it on). */
export async function recordRedactedHashes(
  shopDomain: string,
  hashes: readonly string[],
  redactedAt: Date,
): Promise<void> {
  for (const hash of hashes) {
    await prisma.$executeRaw`
      INSERT INTO "RedactedShopper" ("shopDomain", "hash", "redactedAt")
      VALUES (${shopDomain}, ${hash}, ${redactedAt})
      ON CONFLICT ("shopDomain", "hash") DO UPDATE SET "redactedAt" = ${redactedAt}`;
  }
}

/** Whether any of the hashes was redacted for the shop at or after `since`. */
export async function redactedAtOrAfter(
  shopDomain: string,
  hashes: readonly string[],
  since: Date,
): Promise<boolean> {
  const [row] = await prisma.$queryRaw<{ found: number }[]>`
    SELECT 1 AS "found" FROM "RedactedShopper"
    WHERE "shopDomain" = ${shopDomain} AND "hash" IN (${Prisma.join([...hashes])})
      AND "redactedAt" >= ${since}
    LIMIT 1`;
  return row !== undefined;
}

/** Forgets redactions made before `before` (events that old are refused anyway). */
export function pruneRedactedShoppers(before: Date): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "RedactedShopper" WHERE "redactedAt" < ${before}`;
}
