import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A brand-new SQLite file with every committed migration applied by Prisma's own CLI. */
export async function createMigratedDatabase(): Promise<{ url: string; path: string }> {
  const path = join(mkdtempSync(join(tmpdir(), "catalog-chat-db-")), "test.db");
  const url = `file:${path}`;
  await run("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
  });
  return { url, path };
}
