import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import prisma, { retryWhileBusy } from "./db.server";

/**
 * SQLite only: switches the database file to write-ahead logging (the setting stays with the
 * file). A commit then costs one sync of the log instead of the rollback journal's several, still
 * durable (synchronous stays FULL), and readers never wait for a writer: the app server takes
 * webhooks faster and `npm run worker` can share the file. Switching needs a moment without other
 * writers, hence the retries.
 */
export async function switchToWriteAheadLog(): Promise<void> {
  if (isPostgresUrl(databaseUrlFrom(process.env))) return;
  await retryWhileBusy(() => prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL"), 30_000);
}
