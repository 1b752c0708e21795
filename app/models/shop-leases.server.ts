import { randomUUID } from "node:crypto";
import { Prisma } from "@prisma/client";
import prisma, { driverExecute, driverQuery } from "./db.server";

/** How long a lease lasts without renewal: a holder that died frees the shop after this. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * The fencing token of one holding of a shop's lease: new at every take-over, kept by renewals.
 * A write that matters names it in the same statement (`fenceCondition`, `fencedText`), so a
 * process that lost the lease (stalled past it, cut off from the database) writes nothing once
 * another took the shop over, and learns it from `LeaseLostError`.
 */
export interface LeaseFence {
  shopDomain: string;
  token: string;
}

/** A write was refused because another process took the shop's lease over: stop at once. */
export class LeaseLostError extends Error {
  constructor(shopDomain: string) {
    super(`Another process took over ${shopDomain}'s lease; this one stops sending for it.`);
    this.name = "LeaseLostError";
  }
}

/** SQL that is true only while `fence` is the shop's current lease (for a write's WHERE). */
export function fenceCondition(fence: LeaseFence): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "ShopLease" WHERE "shopDomain" = ${fence.shopDomain} AND "token" = ${fence.token})`;
}

/**
 * A text value for an INSERT's VALUES that is NULL unless `fence` is the shop's current lease:
 * put in a NOT NULL column it makes the whole statement fail, atomically, once the lease is lost.
 */
export function fencedText(fence: LeaseFence, value: string): Prisma.Sql {
  return Prisma.sql`(SELECT ${value} FROM "ShopLease" WHERE "shopDomain" = ${fence.shopDomain} AND "token" = ${fence.token})`;
}

/** Whether `fence` is still the shop's lease (and, with `minRemainingMs`, for that long yet). */
export async function leaseStillHeld(
  fence: LeaseFence,
  minRemainingMs = 0,
  now: Date = new Date(),
): Promise<boolean> {
  const until = new Date(now.getTime() + minRemainingMs);
  const [row] = await driverQuery<{ n: number | bigint }>(Prisma.sql`
    SELECT COUNT(*) AS "n" FROM "ShopLease"
    WHERE "shopDomain" = ${fence.shopDomain} AND "token" = ${fence.token} AND "expiresAt" >= ${until}`);
  return Number(row?.n ?? 0) > 0;
}

/**
 * Runs a fenced write: when it fails or changes nothing and the lease is no longer `fence`'s,
 * throws LeaseLostError instead (the caller stops); otherwise returns what the write returned.
 */
export async function fencedWrite<T>(
  fence: LeaseFence | undefined,
  write: () => Promise<T>,
  changedNothing: (result: T) => boolean = () => false,
): Promise<T> {
  if (!fence) return write();
  let result: T;
  try {
    result = await write();
  } catch (error) {
    if (!(await leaseStillHeld(fence))) throw new LeaseLostError(fence.shopDomain);
    throw error;
  }
  if (changedNothing(result) && !(await leaseStillHeld(fence))) {
    throw new LeaseLostError(fence.shopDomain);
  }
  return result;
}

/**
 * Takes the shop's lease for `holder` when it is free, expired or already held by `holder`
 * (then renewing it); atomic, so two workers never both hold it. Returns the fencing token of
 * the holding, or null when another holds it. A take-over gets a new token; `holder`'s own
 * renewal keeps the token it had.
 */
export async function takeShopLease(
  shopDomain: string,
  holder: string,
  leaseMs: number = DEFAULT_LEASE_MS,
  now: Date = new Date(),
): Promise<string | null> {
  const expiresAt = new Date(now.getTime() + leaseMs);
  const token = randomUUID();
  // One statement: taken when absent, renewed when mine, taken over when expired.
  const rows = await prisma.$queryRaw<{ token: string }[]>`
    INSERT INTO "ShopLease" ("shopDomain", "holder", "expiresAt", "token")
    VALUES (${shopDomain}, ${holder}, ${expiresAt}, ${token})
    ON CONFLICT ("shopDomain") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt",
      "token" = CASE WHEN "ShopLease"."holder" = excluded."holder" THEN "ShopLease"."token" ELSE excluded."token" END
    WHERE "ShopLease"."holder" = excluded."holder" OR "ShopLease"."expiresAt" < ${now}
    RETURNING "token"`;
  return rows[0]?.token ?? null;
}

/**
 * takeShopLease, answering only whether it was taken (the lease tests ask it).
 * @public
 */
export async function acquireShopLease(
  shopDomain: string,
  holder: string,
  leaseMs: number = DEFAULT_LEASE_MS,
  now: Date = new Date(),
): Promise<boolean> {
  return (await takeShopLease(shopDomain, holder, leaseMs, now)) !== null;
}

/**
 * Renews one holding: only while its token is still the shop's (nobody took the shop over
 * meanwhile, even if the lease ran out). False when it was lost.
 */
export async function renewShopLease(fence: LeaseFence, leaseMs: number): Promise<boolean> {
  const expiresAt = new Date(Date.now() + leaseMs);
  const changed = await driverExecute(Prisma.sql`
    UPDATE "ShopLease" SET "expiresAt" = ${expiresAt}
    WHERE "shopDomain" = ${fence.shopDomain} AND "token" = ${fence.token}`);
  return changed > 0;
}

/** Gives a holding back: the shop's lease is free at once (unless another took it over meanwhile). */
export async function releaseShopLease(fence: LeaseFence): Promise<void> {
  await prisma.$executeRaw`
          DELETE FROM "ShopLease" WHERE "shopDomain" = ${fence.shopDomain} AND "token" = ${fence.token}`;
}

/**
 * Who holds the shop's lease now, if anyone (the lease tests ask it).
 * @public
 */
export async function leaseHolder(shopDomain: string, now: Date = new Date()) {
  const [lease] = await prisma.$queryRaw<{ holder: string }[]>`
    SELECT "holder" FROM "ShopLease" WHERE "shopDomain" = ${shopDomain} AND "expiresAt" >= ${now}`;
  return lease?.holder ?? null;
}
