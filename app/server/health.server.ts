/**
 * Readiness checks of a process (the app server's /readyz, app/entry.server.tsx; `npm run
 * worker`'s WORKER_PORT listener, app/cli/worker-process.ts). Each check says whether it passed,
 * never why in shop terms: the answer names no shop and carries no error text (a database error
 * can quote its URL); the cause of a failure is logged once, when the check starts failing.
 * See docs/operations.md.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import { appliedMigrationNames, pingDatabase } from "../models/prisma-migrations.server";
import { lockWaitingSince } from "../models/sqlite-connections.server";
import { logFor } from "./log";

const log = logFor("health");

/** A check that has not answered within this long has failed (a database that hangs). */
const CHECK_TIMEOUT_MS = 2_000;
/** A write waiting this long for another process's SQLite lock makes the process not ready. */
const LOCK_WAIT_NOT_READY_MS = 1_000;
/** The live worker's loop has run within this many poll intervals ... */
const LOOP_POLL_INTERVALS = 5;
/** ... or this long, whichever is longer (a round that runs the maintenance takes longer). */
const LOOP_MIN_MS = 15_000;

export interface CheckResult {
  ok: boolean;
  /** What failed, in operator's terms (no shop, no credential). */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  /** Names of the failed checks. */
  failing: string[];
  checks: Record<string, CheckResult>;
}

export interface ReadinessOptions {
  /** The live worker this process runs, if any: its loop must have run lately. */
  liveWorker?: { lastLoopAt(): number } | null;
  /** Its poll interval (LIVE_POLL_MS). */
  pollMs?: number;
  now?: () => number;
  /** False: log nothing (a start-up check, which says what failed itself). */
  log?: boolean;
}

// Both this file (app/server/) and the build that bundles it (build/server/) sit two folders
// below the project's root, where prisma/ is.
const PRISMA = join(import.meta.dirname, "..", "..", "prisma");

/** The migrations committed for this database's provider: prisma/migrations or prisma/postgresql/migrations. */
async function committedMigrations(): Promise<string[]> {
  const postgres = isPostgresUrl(databaseUrlFrom(process.env));
  const folder = postgres ? join(PRISMA, "postgresql", "migrations") : join(PRISMA, "migrations");
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function checkMigrations(): Promise<CheckResult> {
  const [committed, applied] = await Promise.all([
    committedMigrations(),
    withinTimeout(appliedMigrationNames()).catch(() => null),
  ]);
  if (applied === null) {
    return { ok: false, detail: "no migration was applied: run `npm run setup`" };
  }
  const done = new Set(applied);
  const missing = committed.filter((name) => !done.has(name));
  return missing.length === 0
    ? { ok: true }
    : {
        ok: false,
        detail: `${missing.length} migration(s) not applied (${missing.join(", ")}): run \`npm run setup\``,
      };
}

const failingBefore = new Set<string>();

/** Logs a check's cause when it starts failing, and when it passes again; not at every probe. */
function noteChange(name: string, ok: boolean, cause?: unknown): void {
  if (!ok && !failingBefore.has(name)) {
    failingBefore.add(name);
    log.error({ check: name, err: cause }, `readiness check "${name}" fails`);
  } else if (ok && failingBefore.delete(name)) {
    log.info({ check: name }, `readiness check "${name}" passes again`);
  }
}

/** SQLite: no write of this process has waited a second or more for another process's lock. */
function lockCheck(now: number): CheckResult {
  const waiting = lockWaitingSince();
  if (waiting === null || now - waiting < LOCK_WAIT_NOT_READY_MS) return { ok: true };
  const seconds = Math.round((now - waiting) / 100) / 10;
  return {
    ok: false,
    detail: `writes have waited ${seconds} s for another process's lock on the SQLite file`,
  };
}

/**
 * No write waits long for another process's SQLite lock; the database answers a trivial query;
 * every committed migration is applied; and, where this process runs the live worker, its loop
 * has run within a few poll intervals.
 */
export async function checkReadiness(options: ReadinessOptions = {}): Promise<Readiness> {
  const noteTransition = options.log === false ? () => undefined : noteChange;
  const checks: Record<string, CheckResult> = {};
  let cause: unknown;
  const now = options.now ?? Date.now;
  checks.databaseLock = lockCheck(now());
  noteTransition("databaseLock", checks.databaseLock.ok, checks.databaseLock.detail);
  // While writes wait for the lock the database is not asked: its statements queue behind
  // those writes' tries, and /readyz must answer at once.
  if (checks.databaseLock.ok) {
    const database = await withinTimeout(pingDatabase()).then(
      () => true,
      (error: unknown) => ((cause = error), false),
    );
    checks.database = database
      ? { ok: true }
      : { ok: false, detail: "the database does not answer" };
    noteTransition("database", database, cause);
    if (database) {
      checks.migrations = await checkMigrations().catch(
        (error: unknown) => (
          (cause = error),
          {
            ok: false,
            detail: "the committed migrations could not be read",
          }
        ),
      );
      noteTransition("migrations", checks.migrations.ok, checks.migrations.detail);
    } else {
      checks.migrations = { ok: false, detail: "not checked: the database does not answer" };
    }
  }
  if (options.liveWorker) {
    const limit = Math.max(LOOP_POLL_INTERVALS * (options.pollMs ?? 1_000), LOOP_MIN_MS);
    const age = now() - options.liveWorker.lastLoopAt();
    checks.liveWorker =
      age <= limit
        ? { ok: true }
        : { ok: false, detail: `the live worker's loop last ran ${Math.round(age / 1000)} s ago` };
    noteTransition("liveWorker", checks.liveWorker.ok);
  }
  const failing = Object.keys(checks).filter((name) => !checks[name]!.ok);
  return { ready: failing.length === 0, failing, checks };
}
