import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase } from "../app/cli/migrate-database";
import { createPostgresDatabase } from "../dev/postgres-database";

/**
 * A new empty database of the run's provider: a database in the run's PostgreSQL cluster
 * (`TEST_DATABASE=postgresql`, see testkit/postgres-setup.ts), else a new SQLite file.
 */
export async function createEmptyDatabase(): Promise<{ url: string; path: string | undefined }> {
  const cluster = process.env.TEST_POSTGRES_URL;
  if (cluster) return { url: (await createPostgresDatabase(cluster, "test")).url, path: undefined };
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  return { url: `file:${path}`, path };
}

/** A brand-new database with every committed migration applied by Prisma's own CLI. */
export async function createMigratedDatabase(): Promise<{ url: string; path: string | undefined }> {
  const db = await createEmptyDatabase();
  await migrateDatabase(db.url);
  return db;
}

/** Whether this run's databases are PostgreSQL (tests of SQLite's own files skip then). */
export const onPostgres = (): boolean => Boolean(process.env.TEST_POSTGRES_URL);
