import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase } from "../app/cli/migrate-database";
import { createPostgresDatabase } from "../dev/postgres-database";

/**
 * Databases for tests. The `postgresql` project of vitest.config.ts sets TEST_DATABASE=postgresql
 * and its global set-up (testkit/postgres-setup.ts) starts one cluster for the run
 * (TEST_POSTGRES_URL); every other run is on SQLite files. Both set-ups migrate one template
 * database per run, so a test's migrated database is a copy of it rather than a run of Prisma's
 * CLI (about 2 s of CPU each).
 */
export const testPostgresUrl = (): string | undefined =>
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;

/** Whether this run's databases are PostgreSQL (tests of SQLite's own files skip then). */
export const onPostgres = (): boolean => Boolean(testPostgresUrl());

/** The run's migrated SQLite file (testkit/sqlite-setup.ts), or the PostgreSQL template's name. */
const SQLITE_TEMPLATE = "TEST_SQLITE_TEMPLATE";
const POSTGRES_TEMPLATE = "TEST_POSTGRES_TEMPLATE";

/**
 * A new empty database of the run's provider: a database in the run's PostgreSQL cluster, else a
 * new SQLite file.
 */
export function createEmptyDatabase(): Promise<{ url: string; path: string | undefined }> {
  return createDatabase(undefined);
}

/**
 * A brand-new database with every committed migration applied: a copy of the run's template
 * where the global set-up made one, else migrated by Prisma's own CLI.
 */
export async function createMigratedDatabase(): Promise<{ url: string; path: string | undefined }> {
  const template = process.env[testPostgresUrl() ? POSTGRES_TEMPLATE : SQLITE_TEMPLATE];
  if (template) return createDatabase(template);
  const db = await createEmptyDatabase();
  await migrateDatabase(db.url);
  return db;
}

/** A new database of the run's provider, empty or a copy of `template` (a file, or a database name). */
async function createDatabase(
  template: string | undefined,
): Promise<{ url: string; path: string | undefined }> {
  const cluster = testPostgresUrl();
  if (cluster) {
    return { url: (await createPostgresDatabase(cluster, "test", template)).url, path: undefined };
  }
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  if (template) copyFileSync(template, path);
  return { url: `file:${path}`, path };
}

/** Global set-up: one migrated SQLite file for the run, copied by `createMigratedDatabase`. */
export async function prepareSqliteTemplate(): Promise<void> {
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-template-")), "template.db");
  await migrateDatabase(`file:${path}`);
  process.env[SQLITE_TEMPLATE] = path;
}

/** Global set-up: one migrated database in the run's cluster, the template of every test's. */
export async function preparePostgresTemplate(clusterUrl: string): Promise<void> {
  const template = await createPostgresDatabase(clusterUrl, "template");
  await migrateDatabase(template.url);
  process.env[POSTGRES_TEMPLATE] = new URL(template.url).pathname.slice(1);
}
