import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../support/test-database";

describe("migrations", () => {
  it("apply to a brand-new SQLite file and create the app's tables", async () => {
    const { url } = await createMigratedDatabase();
    const db = createClient({ url });
    const { rows } = await db.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    );
    const tables = rows.map((r) => String(r.name));
    expect(tables).toEqual(
      expect.arrayContaining(["Session", "Shop", "ComplianceRequest", "_prisma_migrations"]),
    );
    const applied = await db.execute(
      "SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL",
    );
    expect(Number(applied.rows[0]?.n)).toBeGreaterThan(0);
    db.close();
  });
});
