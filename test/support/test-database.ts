import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDatabase } from "../../app/cli/migrate-database";

/** A brand-new SQLite file with every committed migration applied by Prisma's own CLI. */
export async function createMigratedDatabase(): Promise<{ url: string; path: string }> {
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  const url = `file:${path}`;
  await migrateDatabase(url);
  return { url, path };
}
