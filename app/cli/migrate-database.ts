import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { databaseUrlFrom } from "../database-url";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Creates the database when it does not exist and applies pending migrations (Prisma's CLI). */
export async function migrateDatabase(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const url = databaseUrlFrom(env);
  process.env.DATABASE_URL = url;
  await promisify(execFile)(
    join(projectRoot, "node_modules", ".bin", "prisma"),
    ["migrate", "deploy"],
    {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: url },
    },
  );
  return url;
}
