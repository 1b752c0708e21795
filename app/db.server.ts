import { createRequire } from "node:module";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "@prisma/client";
import { databaseUrlFrom, isPostgresUrl } from "./database-url";

/** How long a connection waits for another process's commit before SQLite reports it busy. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * libSQL's connections wait 0 ms for a lock by default, and a new connection is opened after every
 * transaction: each one gets the busy timeout before its first statement, so the app server and
 * `npm run worker` can share one SQLite file under load.
 */
type Config = ConstructorParameters<typeof PrismaLibSQL>[0];
type Client = ReturnType<PrismaLibSQL["createClient"]>;

class BusyWaitingLibSQL extends PrismaLibSQL {
  override createClient(config: Config): Client {
    const client = super.createClient(config);
    let fresh = true;
    const prepare = async () => {
      if (!fresh) return;
      fresh = false;
      await client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    };
    return new Proxy(client, {
      get(target, property) {
        if (property === "execute" || property === "batch" || property === "executeMultiple") {
          return async (...args: unknown[]) => {
            await prepare();
            return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        if (property === "transaction") {
          return async (...args: unknown[]) => {
            await prepare();
            const transaction = await (
              target.transaction as (...a: unknown[]) => Promise<unknown>
            ).apply(target, args);
            fresh = true; // the client hands this connection over and opens another
            return transaction;
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}

/**
 * One Prisma client for the URL's database: SQLite through libSQL (the embedded default) or
 * PostgreSQL through node-postgres. A generated client is tied to its schema's provider, so
 * PostgreSQL has its own, generated from prisma/postgresql/schema.prisma (the same models) into
 * node_modules/.prisma/postgresql-client and loaded only when it is used.
 */
export function createPrismaClient(url: string = databaseUrlFrom(process.env)): PrismaClient {
  if (!isPostgresUrl(url)) return new PrismaClient({ adapter: new BusyWaitingLibSQL({ url }) });
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
 * SQLite only: switches the database file to write-ahead logging (the setting stays with the
 * file). A commit then costs one sync of the log instead of the rollback journal's several, still
 * durable (synchronous stays FULL), and readers never wait for a writer: the app server takes
 * webhooks faster and `npm run worker` can share the file. Switching needs a moment without other
 * writers, hence the retries.
 */
export async function switchToWriteAheadLog(): Promise<void> {
  if (isPostgresUrl(databaseUrlFrom(process.env))) return;
  await retryWhileBusy(() => prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL"), 30_000);
}
