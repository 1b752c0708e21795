/**
 * The PostgreSQL schema is the SQLite schema with another datasource and its own generated
 * client: Prisma cannot take the provider from the environment, and a generated client is tied to
 * its provider. `npm run db:pg-schema` writes it; a test fails when the committed copy drifts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const SQLITE_SCHEMA_PATH = join(here, "schema.prisma");
export const POSTGRESQL_SCHEMA_PATH = join(here, "postgresql", "schema.prisma");

const HEADER =
  "// Generated from prisma/schema.prisma by `npm run db:pg-schema`: edit that file, not this one.\n\n";

export function postgresqlSchemaFrom(sqliteSchema: string): string {
  const replaced = sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace(
      /(generator client \{[^}]*?)(\n\})/,
      '$1\n  output     = "../../node_modules/.prisma/postgresql-client"$2',
    );
  if (!replaced.includes('provider = "postgresql"') || !replaced.includes("postgresql-client"))
    throw new Error("prisma/schema.prisma no longer has the shape postgresqlSchemaFrom expects");
  return HEADER + replaced;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(
    POSTGRESQL_SCHEMA_PATH,
    postgresqlSchemaFrom(readFileSync(SQLITE_SCHEMA_PATH, "utf8")),
  );
  console.log(`wrote ${POSTGRESQL_SCHEMA_PATH}`);
}
