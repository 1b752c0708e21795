import { createRequire } from "node:module";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { databaseUrlFrom, isPostgresUrl } from "./database-url";

/**
 * One Prisma client for the URL's database: SQLite through libSQL (the embedded default) or
 * PostgreSQL through node-postgres. A generated client is tied to its schema's provider, so
 * PostgreSQL has its own, generated from prisma/postgresql/schema.prisma (the same models) into
 * node_modules/.prisma/postgresql-client and loaded only when it is used.
 */
export function createPrismaClient(url: string = databaseUrlFrom(process.env)): PrismaClient {
  if (!isPostgresUrl(url)) return new PrismaClient({ adapter: new PrismaLibSQL({ url }) });
  const { PrismaClient: PostgresClient } = createRequire(import.meta.url)(
    ".prisma/postgresql-client",
  ) as { PrismaClient: typeof PrismaClient };
  return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) });
}

declare global {
  var prismaGlobal: PrismaClient | undefined;
}

// One client per process; the dev server's module reloads reuse it instead of opening another.
const prisma: PrismaClient = globalThis.prismaGlobal ?? createPrismaClient();
if (process.env.NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
