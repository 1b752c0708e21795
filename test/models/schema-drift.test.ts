import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  POSTGRESQL_SCHEMA_PATH,
  SQLITE_SCHEMA_PATH,
  postgresqlSchemaFrom,
} from "../../prisma/postgresql-schema";
import {
  createEmptyDatabase,
  createMigratedDatabase,
  onPostgres,
} from "../../testkit/test-database";

const root = join(__dirname, "..", "..");

/** Columns and indexes as the database reports them, in a stable order. */
async function tableCatalog(url: string): Promise<string[]> {
  if (onPostgres()) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const columns = await client.query(
        `SELECT table_name, column_name, data_type, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      );
      const indexes = await client.query(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
      );
      return [
        ...columns.rows.map((r) => JSON.stringify(r)),
        ...indexes.rows.map((r) => String(r.indexdef)),
      ].sort();
    } finally {
      await client.end();
    }
  }
  const db = createClient({ url });
  try {
    const tables = await db.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name <> 'sqlite_sequence'",
    );
    const lines: string[] = [];
    for (const { name } of tables.rows) {
      for (const column of (await db.execute(`PRAGMA table_info("${String(name)}")`)).rows)
        lines.push(JSON.stringify({ table: name, ...column, cid: undefined }));
      for (const index of (await db.execute(`PRAGMA index_list("${String(name)}")`)).rows) {
        const columns = (await db.execute(`PRAGMA index_info("${String(index.name)}")`)).rows.map(
          (c) => c.name,
        );
        lines.push(
          JSON.stringify({ table: name, index: index.name, unique: index.unique, columns }),
        );
      }
    }
    return lines.sort();
  } finally {
    db.close();
  }
}

/** A new empty database of the run's provider with `script` executed in it. */
async function databaseFromScript(script: string): Promise<string> {
  const { url } = await createEmptyDatabase();
  if (onPostgres()) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(script);
    await client.end();
  } else {
    const db = createClient({ url });
    await db.executeMultiple(script);
    db.close();
  }
  return url;
}

describe("the database schemas stay in step", () => {
  it("the PostgreSQL schema is the SQLite schema with PostgreSQL's datasource (npm run db:pg-schema)", () => {
    expect(readFileSync(POSTGRESQL_SCHEMA_PATH, "utf8")).toBe(
      postgresqlSchemaFrom(readFileSync(SQLITE_SCHEMA_PATH, "utf8")),
    );
  });

  it("the committed migrations build exactly the tables and indexes the schema describes", async () => {
    const migrated = await createMigratedDatabase();
    const schema = onPostgres() ? POSTGRESQL_SCHEMA_PATH : SQLITE_SCHEMA_PATH;
    const script = execFileSync(
      join(root, "node_modules", ".bin", "prisma"),
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", schema, "--script"],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: migrated.url },
        stdio: ["ignore", "pipe", "pipe"],
      },
    ).toString();
    const fromSchema = await databaseFromScript(script);
    expect(await tableCatalog(migrated.url)).toEqual(await tableCatalog(fromSchema));
  });
});
