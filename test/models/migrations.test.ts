import { createClient } from "@libsql/client";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createMigratedDatabase, onPostgres } from "../../testkit/test-database";

/** The tables and the count of finished migrations of a migrated database, on either provider. */
async function inspect(url: string): Promise<{ tables: string[]; applied: number }> {
  const tablesSql = onPostgres()
    ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
    : "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
  const appliedSql = 'SELECT count(*) AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL';
  if (onPostgres()) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = (await client.query(tablesSql)).rows.map((r) => String(r.name));
      const applied = Number((await client.query(appliedSql)).rows[0]?.n);
      return { tables, applied };
    } finally {
      await client.end();
    }
  }
  const db = createClient({ url });
  try {
    const tables = (await db.execute(tablesSql)).rows.map((r) => String(r.name));
    const applied = Number((await db.execute(appliedSql)).rows[0]?.n);
    return { tables, applied };
  } finally {
    db.close();
  }
}

describe("migrations", () => {
  it("apply to a brand-new database and create the app's tables", async () => {
    const { url } = await createMigratedDatabase();
    const { tables, applied } = await inspect(url);
    expect(tables).toEqual(
      expect.arrayContaining(["Session", "Shop", "ComplianceRequest", "_prisma_migrations"]),
    );
    expect(applied).toBeGreaterThan(0);
  });
});
