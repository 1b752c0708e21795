// Generates both Prisma clients: SQLite's (the default, @prisma/client) and PostgreSQL's (from
// prisma/postgresql/schema.prisma into node_modules/.prisma/postgresql-client). Prisma copies its
// runtime beside a client generated to a custom output; the PostgreSQL client is pointed back at
// @prisma/client's runtime so that both share one `Prisma.sql`, one set of error classes and one
// Decimal (the app's raw SQL and the session storage's `instanceof` checks rely on them).
// Plain JavaScript: it runs as `postinstall`, also where dev dependencies are not installed.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const prisma = join(root, "node_modules", ".bin", "prisma");
const generate = (env) =>
  execFileSync(prisma, ["generate"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });

generate({ DATABASE_URL: "file:./prisma/app.db" });
// prisma.config.ts picks the PostgreSQL schema for a postgresql:// URL; generate connects to nothing.
generate({ DATABASE_URL: "postgresql://generate-only/none" });

const output = join(root, "node_modules", ".prisma", "postgresql-client");
for (const file of readdirSync(output).filter((name) => /\.(c|m)?js$/.test(name))) {
  const path = join(output, file);
  const text = readFileSync(path, "utf8");
  const shared = text.replaceAll("'./runtime/", "'@prisma/client/runtime/");
  if (shared !== text) writeFileSync(path, shared);
}
