import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { migrateDatabase } from "../../app/cli/migrate-database";

/**
 * A brand-new database with every committed migration applied by Prisma's own CLI: a SQLite file,
 * or, when the suite runs on PostgreSQL (`TEST_DATABASE=postgresql`, see
 * test/support/postgres-setup.ts), a new database in the run's throwaway cluster.
 */
export async function createMigratedDatabase(): Promise<{ url: string; path: string | undefined }> {
  const cluster = process.env.TEST_POSTGRES_URL;
  if (cluster) {
    const name = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: cluster });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(cluster);
    url.pathname = `/${name}`;
    await migrateDatabase(url.href);
    return { url: url.href, path: undefined };
  }
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  const url = `file:${path}`;
  await migrateDatabase(url);
  return { url, path };
}

/** Whether this run's databases are PostgreSQL (tests of SQLite's own files skip then). */
export const onPostgres = (): boolean => Boolean(process.env.TEST_POSTGRES_URL);
