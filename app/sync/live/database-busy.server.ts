import { Prisma } from "@prisma/client";

/**
 * SQLite's SQLITE_BUSY through the libSQL adapter: another process (e.g. `npm run worker`) is
 * committing and the busy timeout ran out. Model queries report it as P1008 ("Operation has
 * timed out"), raw queries as P2010 with SQLITE_BUSY / "database is locked" in the message.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P1008") return true;
  return error.code === "P2010" && /SQLITE_BUSY|database is locked/i.test(error.message);
}

/**
 * Runs a short write again while the database is busy with another process's commit, for up to
 * `maxWaitMs`; other errors, and a database still busy after that, are thrown.
 */
export async function retryWhileBusy<T>(write: () => Promise<T>, maxWaitMs = 2_000): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDatabaseBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * attempt)));
    }
  }
}
