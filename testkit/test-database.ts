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
export async function createEmptyDatabase(): Promise<{ url: string; path: string | undefined }> {
  const cluster = testPostgresUrl();
  if (cluster) return { url: (await createPostgresDatabase(cluster, "test")).url, path: undefined };
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  return { url: `file:${path}`, path };
}

/**
 * A brand-new database with every committed migration applied: a copy of the run's template
 * where the global set-up made one, else migrated by Prisma's own CLI.
 */
export async function createMigratedDatabase(): Promise<{ url: string; path: string | undefined }> {
  const cluster = testPostgresUrl();
  const postgresTemplate = process.env[POSTGRES_TEMPLATE];
  if (cluster && postgresTemplate) {
    const copy = await createPostgresDatabase(cluster, "test", postgresTemplate);
    return { url: copy.url, path: undefined };
  }
  const sqliteTemplate = process.env[SQLITE_TEMPLATE];
  if (!cluster && sqliteTemplate) {
    const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
    copyFileSync(sqliteTemplate, path);
    return { url: `file:${path}`, path };
  }
  const db = await createEmptyDatabase();
  await migrateDatabase(db.url);
  return db;
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
