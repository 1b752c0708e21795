/**
 * Does the process grow with the number of database queries? (printed, never asserted)
 *   node --expose-gc --import tsx bench/query-memory.bench.ts [--queries 20000] [--modes model,raw,update,tight]
 *     [--database-url postgresql://…]   (default: a new SQLite file)
 *
 * One query shape repeated, each mode in its own process; RSS and V8 heap after forced collections,
 * at the start and after each quarter:
 *   model   `prisma.shop.findUnique` (a model query, the same shape every time)
 *   raw     the same through tagged `$queryRaw`
 *   update  `prisma.shop.updateMany` (a write)
 *   tight   the model query in a loop that never yields to the event loop (a batch job)
 * Every mode but `tight` lets the event loop turn every 100 queries, as a server does.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    queries: { type: "string", default: "20000" },
    modes: { type: "string", default: "model,raw,update,tight" },
    "database-url": { type: "string" },
    mode: { type: "string" },
  },
});
const QUERIES = Number(values.queries);

if (values.mode) await measure(values.mode);
else {
  console.log(
    `Memory per query: ${QUERIES} queries of one shape, RSS / heap after GC (MB), ${values["database-url"] ? "PostgreSQL" : "SQLite"}`,
  );
  for (const mode of values.modes.split(",")) {
    const out = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        "--import",
        "tsx",
        import.meta.filename,
        "--mode",
        mode,
        "--queries",
        String(QUERIES),
        ...(values["database-url"] ? ["--database-url", values["database-url"]] : []),
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    console.log(`  ${mode.padEnd(7)} ${out.trim().split("\n").pop()}`);
  }
}

async function measure(mode: string) {
  const url =
    values["database-url"] ??
    `file:${join(mkdtempSync(join(tmpdir(), "query-memory-")), "bench.db")}`;
  process.env.DATABASE_URL = url;
  const { migrateDatabase } = await import("../app/cli/migrate-database");
  await migrateDatabase(url);
  const prisma = (await import("../app/db.server")).default;
  const shopDomain = `query-memory-${Date.now()}.myshopify.com`;
  await prisma.shop.create({ data: { shopDomain, state: "active" } });
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc");
  const memory = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await turn();
    }
    const usage = process.memoryUsage();
    return `${(usage.rss / 2 ** 20).toFixed(0)} / ${(usage.heapUsed / 2 ** 20).toFixed(0)}`;
  };
  const figures = [`start ${await memory()}`];
  for (let i = 1; i <= QUERIES; i++) {
    if (mode === "raw")
      await prisma.$queryRaw`SELECT * FROM "Shop" WHERE "shopDomain" = ${shopDomain}`;
    else if (mode === "update")
      await prisma.shop.updateMany({ where: { shopDomain }, data: { state: "active" } });
    else await prisma.shop.findUnique({ where: { shopDomain } });
    if (mode !== "tight" && i % 100 === 0) await turn();
    if (i % (QUERIES / 4) === 0) figures.push(`${i} ${await memory()}`);
  }
  await prisma.$disconnect();
  console.log(figures.join(", "));
}
