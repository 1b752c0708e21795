import { Prisma } from "@prisma/client";

/**
 * Prisma's code for SQLite's SQLITE_BUSY through the libSQL adapter ("Operation has timed out"):
 * another process (e.g. `npm run worker`) is committing, and the connection does not wait.
 */
const BUSY_CODE = "P1008";

export function isDatabaseBusy(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === BUSY_CODE;
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
