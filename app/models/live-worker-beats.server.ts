/**
 * The live workers' heartbeats (`LiveWorkerBeat`): each worker loop records when it last ran, so
 * any process can tell whether some worker is taking the outbox's changes (the Dashboard's "Live
 * updates stopped" line). Rows of workers gone for a day are dropped.
 */
import { Prisma } from "@prisma/client";
import prisma, { driverExecute, retryWhileBusy } from "./db.server";

const FORGOTTEN_AFTER_MS = 24 * 3_600_000;

export async function recordWorkerBeat(holder: string, at: Date): Promise<void> {
  await retryWhileBusy(() =>
    driverExecute(Prisma.sql`
      INSERT INTO "LiveWorkerBeat" ("holder", "beatAt") VALUES (${holder}, ${at})
      ON CONFLICT ("holder") DO UPDATE SET "beatAt" = excluded."beatAt"`),
  );
  const forgotten = new Date(at.getTime() - FORGOTTEN_AFTER_MS);
  await retryWhileBusy(() =>
    driverExecute(Prisma.sql`DELETE FROM "LiveWorkerBeat" WHERE "beatAt" < ${forgotten}`),
  );
}

/** When any live worker last ran its loop; null when none ever did (or none for a day). */
export async function latestWorkerBeat(): Promise<Date | null> {
  const latest = await prisma.liveWorkerBeat.findFirst({
    orderBy: { beatAt: "desc" },
    select: { beatAt: true },
  });
  return latest?.beatAt ?? null;
}
