/**
 * What stops a command before it starts, said in one line with how to fix it, exit code 2, no
 * stack trace (docs/operations.md, "Start-up failures"): a database that does not answer, one that
 * cannot be migrated or is not migrated, a missing build.
 */
import { redactUrl } from "../config.server";
import { databaseUrlFrom } from "../database-url";
import { checkReadiness } from "../server/health.server";
import { migrateDatabase } from "./migrate-database";

/**
 * Prints the line and ends the process with exit code 2. Not a log record: the line for whoever
 * starts the command, as it is, on stderr (docs/operations.md, "Logs").
 */
export function exitWithStartUpFailure(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

function shown(url: string): string {
  return redactUrl(url);
}

function unreachable(url: string): string {
  return `The database at ${shown(url)} does not answer: start it, or set DATABASE_URL to one that runs.`;
}

/** Prisma's error code and first line out of `prisma migrate deploy`'s output, if any. */
function prismaReason(error: unknown): string {
  const failed = error as { stdout?: string; stderr?: string; message?: string };
  const text = `${failed.stderr ?? ""}\n${failed.stdout ?? ""}\n${failed.message ?? ""}`;
  const line =
    /^Error: (P\d{4}.*)$/m.exec(text)?.[1] ??
    /^(P\d{4}.*)$/m.exec(text)?.[1] ??
    /^Error: (.+)$/m.exec(text)?.[1] ??
    "prisma migrate deploy failed";
  return line.replace(/`/g, "").trim();
}

/**
 * Creates and migrates the database DATABASE_URL names (`npm start`, `npm run sync`), quietly:
 * Prisma's own output is shown only as the one reason of a failure. Null when it is ready,
 * else the line to print.
 */
export async function migrateOrExplain(url: string = databaseUrlFrom(process.env)) {
  try {
    await migrateDatabase(url);
    return null;
  } catch (error) {
    const reason = prismaReason(error);
    if (/^P1001|^P1002|^P1017|can't reach database server|ECONNREFUSED/i.test(reason)) {
      return unreachable(url);
    }
    return `The database at ${shown(url)} could not be migrated (${reason}): fix it (\`npx prisma migrate status\` says more), or set DATABASE_URL to another database.`;
  }
}

/**
 * Checks that the database answers and carries every migration (`npm run worker`, which never
 * migrates). Null when it does, else the line to print.
 */
export async function readyOrExplain(url: string = databaseUrlFrom(process.env)) {
  // A first answer slower than the check's 2 s (a loaded machine, a pool still connecting) is
  // asked again before the process gives up; a database that is down fails all three.
  let readiness = await checkReadiness({ log: false });
  for (let asked = 1; asked < 3 && readiness.failing.includes("database"); asked++) {
    readiness = await checkReadiness({ log: false });
  }
  if (readiness.ready) return null;
  if (readiness.failing.includes("database")) return unreachable(url);
  const detail = readiness.checks.migrations?.detail ?? "not migrated";
  return `The database at ${shown(url)} is not migrated (${detail}).`;
}
