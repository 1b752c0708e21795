/**
 * The mail outbox (`NotificationMail`): what notification emails are owed, who is sending one, and
 * what failed. Written by the service events' intake before it answers 200; read and settled by the
 * mail sender of every process that runs background work. Raw statements without transactions
 * (decision 0001): a claim is a compare-and-swap on one row, the same on SQLite and PostgreSQL, so
 * several processes can send from one outbox and each row is taken by one of them at a time.
 */
import { randomUUID } from "node:crypto";
import prisma, { retryWhileBusy } from "./db.server";

export type NotificationKind = "contact" | "handoff";

export interface OwedMail {
  id: number;
  shopDomain: string;
  mailKey: string;
  threadId: string;
  kind: NotificationKind;
  attempts: number;
}

export interface Claim {
  mail: OwedMail;
  token: string;
}

/**
 * Records that a notification is owed, once: a repeated delivery of the same event (the service's
 * retry after a crash, a duplicate) finds the row and changes nothing, not even its time.
 */
export async function oweNotificationMail(mail: {
  shopDomain: string;
  threadId: string;
  kind: NotificationKind;
  /** The event (a contact form) or the thread (a handoff request) the mail is for. */
  key: string;
  notBefore: Date;
}): Promise<void> {
  const mailKey = `${mail.kind}:${mail.key}`;
  await retryWhileBusy(
    () => prisma.$executeRaw`
      INSERT INTO "NotificationMail" ("shopDomain", "mailKey", "threadId", "kind", "state", "notBefore", "attempts", "createdAt")
      VALUES (${mail.shopDomain}, ${mailKey}, ${mail.threadId}, ${mail.kind}, 'owed', ${mail.notBefore}, 0, ${new Date()})
      ON CONFLICT ("shopDomain", "mailKey") DO NOTHING`,
  );
}

/**
 * Takes up to `limit` owed mails that are due and that no live claim holds, each for `leaseMs`.
 * Rows another sender took between the read and the update are left to it (a few more than asked
 * for are read, so losing such a race still finds work).
 */
export async function claimDueMails(now: Date, leaseMs: number, limit: number): Promise<Claim[]> {
  const due = await prisma.$queryRaw<
    {
      id: number;
      shopDomain: string;
      mailKey: string;
      threadId: string;
      kind: string;
      attempts: number;
    }[]
  >`
    SELECT "id", "shopDomain", "mailKey", "threadId", "kind", "attempts" FROM "NotificationMail"
    WHERE "state" = 'owed' AND "notBefore" <= ${now}
      AND ("claimedUntil" IS NULL OR "claimedUntil" <= ${now})
    ORDER BY "notBefore", "id"
    LIMIT ${limit + 8}`;
  const claims: Claim[] = [];
  const until = new Date(now.getTime() + leaseMs);
  for (const row of due) {
    if (claims.length >= limit) break;
    const token = randomUUID();
    const taken = await retryWhileBusy(
      () => prisma.$executeRaw`
        UPDATE "NotificationMail" SET "claimToken" = ${token}, "claimedUntil" = ${until},
          "attempts" = "attempts" + 1
        WHERE "id" = ${row.id} AND "state" = 'owed'
          AND ("claimedUntil" IS NULL OR "claimedUntil" <= ${now})`,
    );
    if (taken === 0) continue;
    claims.push({
      token,
      mail: {
        id: Number(row.id),
        shopDomain: row.shopDomain,
        mailKey: row.mailKey,
        threadId: row.threadId,
        kind: row.kind === "contact" ? "contact" : "handoff",
        attempts: Number(row.attempts) + 1,
      },
    });
  }
  return claims;
}

/** Settles a claimed mail as sent or as needing none; false when the claim was lost meanwhile. */
export async function settleMail(
  claim: Claim,
  state: "sent" | "skipped",
  now: Date,
): Promise<boolean> {
  const changed = await retryWhileBusy(
    () => prisma.$executeRaw`
      UPDATE "NotificationMail" SET "state" = ${state}, "settledAt" = ${now}, "claimToken" = NULL,
        "claimedUntil" = NULL, "lastError" = NULL, "failingSince" = NULL, "serverUnreachable" = false
      WHERE "id" = ${claim.mail.id} AND "claimToken" = ${claim.token}`,
    30_000,
  );
  return changed > 0;
}

/**
 * Gives a claimed mail back after a failed send, to be tried again at `retryAt`, or as soon as a
 * send succeeds when the failure was the mail server being unreachable (`serverUnreachable`).
 */
export async function failMail(
  claim: Claim,
  failure: { reason: string; retryAt: Date; serverUnreachable: boolean },
  now: Date,
): Promise<void> {
  await retryWhileBusy(
    () => prisma.$executeRaw`
      UPDATE "NotificationMail" SET "claimToken" = NULL, "claimedUntil" = NULL,
        "notBefore" = ${failure.retryAt}, "lastError" = ${failure.reason},
        "serverUnreachable" = ${failure.serverUnreachable},
        "failingSince" = COALESCE("failingSince", ${now})
      WHERE "id" = ${claim.mail.id} AND "claimToken" = ${claim.token}`,
    30_000,
  );
}

/**
 * Makes every mail that waits out a backoff only because the mail server could not be reached due
 * now: a send just went through, so the server is back. Mails the server refused keep their
 * backoff. Returns how many were brought forward.
 */
export async function retryMailsWaitingForServer(now: Date): Promise<number> {
  return retryWhileBusy(
    () => prisma.$executeRaw`
      UPDATE "NotificationMail" SET "notBefore" = ${now}, "serverUnreachable" = false
      WHERE "state" = 'owed' AND "serverUnreachable" = true AND "notBefore" > ${now}`,
    30_000,
  );
}

export interface MailStanding {
  /** Owed mails of the shop, due or not. */
  waiting: number;
  /** The earliest failure among them still owed, and the latest reason; null when none failed. */
  failing: { since: Date; reason: string } | null;
}

/** What the Dashboard says about the shop's notification emails. */
export async function mailStanding(shopDomain: string): Promise<MailStanding> {
  const [waiting, failing] = await Promise.all([
    prisma.notificationMail.count({ where: { shopDomain, state: "owed" } }),
    prisma.notificationMail.findMany({
      where: { shopDomain, state: "owed", failingSince: { not: null } },
      orderBy: { failingSince: "asc" },
      select: { failingSince: true, lastError: true, notBefore: true },
      take: 50,
    }),
  ]);
  const first = failing[0];
  if (!first?.failingSince) return { waiting, failing: null };
  const latest = failing.reduce((a, b) => (b.notBefore > a.notBefore ? b : a));
  return {
    waiting,
    failing: { since: first.failingSince, reason: latest.lastError ?? "unknown error" },
  };
}

/** Drops the outbox rows of Inbox entries that are gone (retention, redaction, uninstall). */
export async function pruneMailsWithoutEntry(): Promise<number> {
  return retryWhileBusy(
    () => prisma.$executeRaw`
      DELETE FROM "NotificationMail" WHERE NOT EXISTS (
        SELECT 1 FROM "InboxItem" i
        WHERE i."shopDomain" = "NotificationMail"."shopDomain"
          AND i."threadId" = "NotificationMail"."threadId")`,
    30_000,
  );
}
