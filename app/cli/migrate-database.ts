import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Creates the database at `url` when it does not exist and applies pending migrations (Prisma's CLI). */
export async function migrateDatabase(url: string): Promise<void> {
  await promisify(execFile)(
    join(projectRoot, "node_modules", ".bin", "prisma"),
    ["migrate", "deploy"],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: url } },
  );
}
