import { existsSync } from "node:fs";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { DemoRefusedError, startDemo } from "../../dev/demo/admin-demo";
import { testPostgresUrl } from "../../testkit/test-database";

const nodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = nodeEnv;
});

describe("the demo refuses to start where it could be reached or deployed", () => {
  it("refuses NODE_ENV=production", async () => {
    process.env.NODE_ENV = "production";
    await expect(startDemo()).rejects.toThrow(DemoRefusedError);
  });

  it.each(["0.0.0.0", "192.168.1.20", "::"])("refuses to bind to %s", async (host) => {
    await expect(startDemo({ host })).rejects.toThrow(/loopback only/);
  });
});

describe("the demo cleans up after itself", () => {
  it("removes its temporary folder and its database when it stops", async () => {
    // The demo's own database, as `npm run demo` makes it (tests' demos get a copy of the run's).
    const demo = await startDemo({
      products: 3,
      saveKeys: false,
      presences: "primary-only",
      postgresUrl: testPostgresUrl(),
    });
    expect(existsSync(demo.workDir)).toBe(true);
    expect(await databaseAnswers(demo.databaseUrl)).toBe(true);
    await demo.close();
    expect(existsSync(demo.workDir)).toBe(false);
    expect(await databaseAnswers(demo.databaseUrl)).toBe(false);
  }, 180_000);
});

/** Whether the demo's database is still there: its SQLite file, or its PostgreSQL database. */
async function databaseAnswers(url: string): Promise<boolean> {
  if (url.startsWith("file:")) return existsSync(url.slice("file:".length));
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
