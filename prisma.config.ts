import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import pg from "pg";
import { databaseUrlFrom, isPostgresUrl } from "./app/database-url";

// The CLI runs Prisma's bundled WASM schema engine through a driver adapter, so migrations work
// without downloading native engines. A config file turns off Prisma's .env loading, hence the
// default here. DATABASE_URL picks the schema: SQLite (`file:`, the embedded default) or
// PostgreSQL (`postgresql://`), each with its own migrations.
const url = databaseUrlFrom(process.env);
process.env.DATABASE_URL = url;
const postgres = isPostgresUrl(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgresql/migrations" : "prisma/migrations" },
  async adapter() {
    return postgres ? new PrismaPg(catalogTolerantPool(url)) : new PrismaLibSQL({ url });
  },
});

/**
 * The schema engine reads PostgreSQL's catalog columns of type `name` (oid 19) and `"char"`
 * (oid 18), which @prisma/adapter-pg 6.19 refuses (prisma/prisma#27403). For the CLI only, they
 * are reported as text (oid 25); the app's runtime adapter never sees this pool.
 */
function catalogTolerantPool(connectionString: string): pg.Pool {
  const asText = <T>(result: T): T => {
    for (const field of (result as { fields?: { dataTypeID: number }[] })?.fields ?? [])
      if (field.dataTypeID === 18 || field.dataTypeID === 19) field.dataTypeID = 25;
    return result;
  };
  const patch = (target: { query: (...args: never[]) => unknown }) => {
    const query = target.query.bind(target) as (...args: unknown[]) => unknown;
    target.query = ((...args: unknown[]) => {
      const answer = query(...args);
      return answer instanceof Promise ? answer.then(asText) : answer;
    }) as typeof target.query;
  };
  const pool = new pg.Pool({ connectionString });
  patch(pool);
  pool.on("connect", (client) => patch(client));
  return pool;
}
