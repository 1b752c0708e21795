/**
 * Does the process grow with the number of database queries? (printed, never asserted)
 *   node --expose-gc --import tsx bench/query-memory.bench.ts [--queries 20000] [--modes model,raw,…]
 *     [--database-url postgresql://…]   (default: a new SQLite file)
 *
 * One query shape repeated, each mode in its own process; RSS and V8 heap after forced collections,
 * at the start and after each quarter, and the most files the process held open at once (sampled
 * every 100 queries: on SQLite each open connection holds one):
 *   model        `prisma.shop.findUnique` (a model query, the same shape every time)
 *   raw          the same through tagged `$queryRaw`
 *   update       `prisma.shop.updateMany` (a write Prisma runs in a transaction of its own)
 *   update-one   `prisma.shop.update` (one statement, no transaction)
 *   upsert       `prisma.shop.upsert` (a native upsert: one statement)
 *   delete-many  `prisma.shop.deleteMany` (matching nothing)
 *   create       `prisma.complianceRequest.create`
 *   create-many  `prisma.complianceRequest.createMany` of one row (a transaction, as updateMany)
 *   execute-raw  the update through tagged `$executeRaw`
 *   batch        `$transaction([findUnique, $executeRaw])`
 *   interactive  `$transaction(async (tx) => tx.$executeRaw…)`
 *   tight        the model query in a loop that never yields to the event loop (a batch job)
 * Every mode but `tight` lets the event loop turn every 100 queries, as a server does.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { PrismaClient } from "@prisma/client";
import { migrateDatabase } from "../app/cli/migrate-database";
import prisma from "../app/models/db.server";

const ALL_MODES =
  "model,raw,update,update-one,upsert,delete-many,create,create-many,execute-raw,batch,interactive,tight";

const { values } = parseArgs({
  options: {
    queries: { type: "string", default: "20000" },
    modes: { type: "string", default: ALL_MODES },
    "database-url": { type: "string" },
    mode: { type: "string" },
  },
});
const QUERIES = Number(values.queries);

if (values.mode) await measure(values.mode);
else {
  console.log(
    `Memory per query: ${QUERIES} queries of one shape, RSS / heap after GC (MB), most open files, ${values["database-url"] ? "PostgreSQL" : "SQLite"}`,
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
    console.log(`  ${mode.padEnd(12)} ${out.trim().split("\n").pop()}`);
  }
}

/** One call of the mode's query shape. */
function queryOf(mode: string, prisma: PrismaClient, shopDomain: string) {
  let created = 0;
  const request = () => ({
    shopDomain,
    topic: "query-memory",
    webhookId: `query-memory-${created++}`,
    outcome: "measured",
  });
  switch (mode) {
    case "model":
    case "tight":
      return () => prisma.shop.findUnique({ where: { shopDomain } });
    case "raw":
      return () => prisma.$queryRaw`SELECT * FROM "Shop" WHERE "shopDomain" = ${shopDomain}`;
    case "update":
      return () => prisma.shop.updateMany({ where: { shopDomain }, data: { state: "active" } });
    case "update-one":
      return () => prisma.shop.update({ where: { shopDomain }, data: { state: "active" } });
    case "upsert":
      return () =>
        prisma.shop.upsert({
          where: { shopDomain },
          create: { shopDomain, state: "active" },
          update: { state: "active" },
        });
    case "delete-many":
      return () => prisma.shop.deleteMany({ where: { shopDomain: `${shopDomain}.none` } });
    case "create":
      return () => prisma.complianceRequest.create({ data: request() });
    case "create-many":
      return () => prisma.complianceRequest.createMany({ data: [request()] });
    case "execute-raw":
      return () =>
        prisma.$executeRaw`UPDATE "Shop" SET "state" = ${"active"} WHERE "shopDomain" = ${shopDomain}`;
    case "batch":
      return () =>
        prisma.$transaction([
          prisma.shop.findUnique({ where: { shopDomain } }),
          prisma.$executeRaw`UPDATE "Shop" SET "state" = ${"active"} WHERE "shopDomain" = ${shopDomain}`,
        ]);
    case "interactive":
      return () =>
        prisma.$transaction(
          (tx) =>
            tx.$executeRaw`UPDATE "Shop" SET "state" = ${"active"} WHERE "shopDomain" = ${shopDomain}`,
        );
    default:
      throw new Error(`unknown mode ${mode}; modes: ${ALL_MODES}`);
  }
}

async function measure(mode: string) {
  const url =
    values["database-url"] ??
    `file:${join(mkdtempSync(join(tmpdir(), "query-memory-")), "bench.db")}`;
  process.env.DATABASE_URL = url;
  await migrateDatabase(url);
  const shopDomain = `query-memory-${Date.now()}.myshopify.com`;
  await prisma.shop.create({ data: { shopDomain, state: "active" } });
  const query = queryOf(mode, prisma, shopDomain);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc");
  const openFiles = () => readdirSync("/proc/self/fd").length;
  let mostOpenFiles = openFiles();
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
    await query();
    if (i % 100 === 0) {
      mostOpenFiles = Math.max(mostOpenFiles, openFiles());
      if (mode !== "tight") await turn();
    }
    if (i % (QUERIES / 4) === 0) figures.push(`${i} ${await memory()}`);
  }
  figures.push(`open files ≤ ${mostOpenFiles}`);
  await prisma.$disconnect();
  console.log(figures.join(", "));
}
