import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "@prisma/client";
import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import { lazyObject } from "../lazy";
import { SqliteAdapter } from "./sqlite-connections.server";

/**
 * One Prisma client for the URL's database: SQLite through libSQL (the embedded default) or
 * PostgreSQL through node-postgres. A generated client is tied to its schema's provider, so
 * PostgreSQL has its own, generated from prisma/postgresql/schema.prisma (the same models) into
 * node_modules/.prisma/postgresql-client and loaded only when it is used.
 */
export function createPrismaClient(url: string = databaseUrlFrom(process.env)): PrismaClient {
  if (!isPostgresUrl(url)) return new PrismaClient({ adapter: new SqliteAdapter({ url }) });
  const { PrismaClient: PostgresClient } = createRequire(import.meta.url)(
    ".prisma/postgresql-client",
  ) as { PrismaClient: typeof PrismaClient };
  return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) });
}

declare global {
  var prismaGlobal: PrismaClient | undefined;
}

/**
 * One client per process, made on its first use (importing this module reads no configuration and
 * opens nothing); the dev server's module reloads reuse it instead of opening another.
 */
function processClient(): PrismaClient {
  const client = globalThis.prismaGlobal ?? createPrismaClient();
  if (process.env.NODE_ENV !== "production") globalThis.prismaGlobal = client;
  return client;
}

const prisma: PrismaClient = lazyObject(processClient);

export default prisma;

/**
 * SQLite's SQLITE_BUSY through the libSQL adapter: another process (e.g. `npm run worker`) is
 * committing and the busy timeout ran out. Model queries report it as P1008 ("Operation has
 * timed out"), raw queries as P2010 with SQLITE_BUSY / "database is locked" in the message.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P1008") return true;
  return error.code === "P2010" && /SQLITE_BUSY|database is locked/i.test(error.message);
}

/**
 * Runs a short write again while the database is busy with another process's commit, for up to
 * `maxWaitMs` by `now`; other errors, and a database still busy after that, are thrown.
 */
export async function retryWhileBusy<T>(
  write: () => Promise<T>,
  maxWaitMs = 2_000,
  now: () => number = Date.now,
): Promise<T> {
  const deadline = now() + maxWaitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDatabaseBusy(error) || now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * attempt)));
    }
  }
}

/**
 * A date read by raw SQL: a Date through PostgreSQL, a number or a string through SQLite (model
 * queries convert it themselves).
 */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string | number);
}
