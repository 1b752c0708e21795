import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { heldWhileConnected, type ConnectedDriver } from "./driver-adapters.server";

/**
 * How long a statement waits, in all, for another process's lock before it fails as busy: short
 * enough that a webhook is answered (503, retried by Shopify) within Shopify's 5 s.
 */
export const BUSY_TIMEOUT_MS = 3_000;
/**
 * SQLite's own busy wait blocks the thread, and libSQL runs statements on the event loop's: so it
 * waits this little per try, and between tries the process waits with a timer, free to answer
 * /healthz, /readyz and whatever does not need the lock.
 */
const BUSY_TRY_MS = 20;
const BUSY_PAUSE_MS = [10, 25, 50, 100];

declare global {
  var sqliteLockWaits: Set<number> | undefined;
}

/**
 * When each statement now waiting for another process's lock began waiting: on globalThis, like
 * the client (app/models/db.server.ts), which a second copy of this module (the build's, beside
 * the source's in a test) may be using.
 */
const waitingSince = (globalThis.sqliteLockWaits ??= new Set<number>());

/** Since when the longest-waiting statement waits for another process's lock (null: none waits). */
export function lockWaitingSince(): number | null {
  return waitingSince.size === 0 ? null : Math.min(...waitingSince);
}

/** SQLITE_BUSY, as Prisma's libSQL adapter reports it. */
function isBusy(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === "DriverAdapterError" &&
    (error.cause as { kind?: string } | undefined)?.kind === "SocketTimeout"
  );
}

/**
 * Runs `attempt` again while another process holds the lock, for up to BUSY_TIMEOUT_MS. Between
 * tries the adapter's lock is free (it serialises every statement of the process), so reads and
 * other writes of the process go on meanwhile.
 */
async function whileLocked<T>(attempt: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let tries = 0;
  try {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || Date.now() - started >= BUSY_TIMEOUT_MS) throw error;
        if (tries === 0) waitingSince.add(started);
        const pause = BUSY_PAUSE_MS[Math.min(tries, BUSY_PAUSE_MS.length - 1)]!;
        tries += 1;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  } finally {
    if (tries > 0) waitingSince.delete(started);
  }
}

type Config = ConstructorParameters<typeof PrismaLibSQL>[0];
type Client = ReturnType<PrismaLibSQL["createClient"]>;
type Transaction = Awaited<ReturnType<Client["transaction"]>>;
type Statement = Parameters<Client["execute"]>[0];
type ResultSet = Awaited<ReturnType<Client["execute"]>>;

/** A libSQL client holds one connection, opened on first use; this one waits for locks. */
async function openConnection(create: () => Client): Promise<Client> {
  const connection = create();
  try {
    await connection.execute(`PRAGMA busy_timeout = ${BUSY_TRY_MS}`);
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}

function closeQuietly(connection: Client): void {
  try {
    connection.close();
  } catch {
    // Already closed: nothing is held.
  }
}

/**
 * A transaction on a connection of its own, closed when the transaction ends whichever way.
 * A COMMIT that fails leaves SQLite's transaction open (and its write lock held) until a ROLLBACK,
 * and Prisma never rolls back after a failed commit: so the rollback is done here.
 */
class ConnectionTransaction implements Transaction {
  #connection: Client;
  closed = false;

  constructor(connection: Client) {
    this.#connection = connection;
  }

  #open(): Client {
    if (this.closed) throw new Error("The transaction is closed");
    return this.#connection;
  }

  execute(statement: Statement): Promise<ResultSet> {
    return this.#open().execute(statement);
  }

  async batch(statements: Statement[]): Promise<ResultSet[]> {
    const results: ResultSet[] = [];
    for (const statement of statements) results.push(await this.execute(statement));
    return results;
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#open().executeMultiple(sql);
  }

  async commit(): Promise<void> {
    try {
      await this.#open().execute("COMMIT");
    } catch (error) {
      await this.#rollbackQuietly();
      throw error;
    } finally {
      this.close();
    }
  }

  async rollback(): Promise<void> {
    if (this.closed) return;
    try {
      await this.#connection.execute("ROLLBACK");
    } finally {
      this.close();
    }
  }

  async #rollbackQuietly(): Promise<void> {
    try {
      await this.#connection.execute("ROLLBACK");
    } catch {
      // "no transaction is active": SQLite ended it itself.
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeQuietly(this.#connection);
  }
}

/**
 * libSQL's local client as Prisma's adapter uses it, with two faults of `@libsql/client` 0.15
 * (`lib-esm/sqlite3.js`) taken out:
 * - A statement that fails (SQLITE_BUSY after the busy timeout, say) is never reset, so it stays
 *   "in progress" on its connection; the client's next transaction begins on that same connection
 *   and its COMMIT then fails ("cannot commit transaction - SQL statements in progress"). Here a
 *   failed statement's connection is closed and the next statement opens another.
 * - Its transactions keep their connection open after COMMIT until a garbage collection
 *   (tursodatabase/libsql-client-ts#350), and stay open, write lock held, when COMMIT fails. Here
 *   each transaction opens a connection of its own, `BEGIN IMMEDIATE` (the write lock taken at
 *   once, under the busy timeout: a deferred transaction that read first fails at once with
 *   SQLITE_BUSY_SNAPSHOT when another process wrote in between), and closes it when it ends; a
 *   failed COMMIT is rolled back first.
 * See docs/database.md ("A lock held by another process").
 */
class SqliteConnections implements Client {
  readonly protocol = "file";
  closed = false;
  #create: () => Client;
  #current: Promise<Client> | null = null;

  constructor(create: () => Client) {
    this.#create = create;
  }

  async #use<T>(work: (connection: Client) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("The database client is closed");
    this.#current ??= openConnection(this.#create);
    const opening = this.#current;
    let connection: Client;
    try {
      connection = await opening;
    } catch (error) {
      if (this.#current === opening) this.#current = null;
      throw error;
    }
    try {
      return await work(connection);
    } catch (error) {
      if (this.#current === opening) this.#current = null;
      closeQuietly(connection);
      throw error;
    }
  }

  execute(statement: Statement): Promise<ResultSet> {
    return this.#use((connection) => connection.execute(statement));
  }

  batch(statements: Statement[], mode?: Parameters<Client["batch"]>[1]): Promise<ResultSet[]> {
    return this.#use((connection) => connection.batch(statements, mode));
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#use((connection) => connection.executeMultiple(sql));
  }

  async transaction(): Promise<Transaction> {
    if (this.closed) throw new Error("The database client is closed");
    const connection = await openConnection(this.#create);
    try {
      await connection.execute("BEGIN IMMEDIATE");
    } catch (error) {
      closeQuietly(connection);
      throw error;
    }
    return new ConnectionTransaction(connection);
  }

  async sync(): Promise<void> {
    // A local file has nothing to sync.
  }

  close(): void {
    this.closed = true;
    const current = this.#current;
    this.#current = null;
    void current?.then(closeQuietly, () => undefined);
  }
}

/**
 * Prisma's libSQL adapter over SqliteConnections, telling `connected` which adapter the client's
 * engine is using (for `driverQuery`).
 */
export class SqliteAdapter extends PrismaLibSQL {
  #connected: ConnectedDriver;
  constructor(config: Config, connected: ConnectedDriver) {
    super(config);
    this.#connected = connected;
  }

  override createClient(config: Config): Client {
    return new SqliteConnections(() => super.createClient(config));
  }

  override async connect() {
    const adapter = await super.connect();
    // A statement (or a transaction's BEGIN IMMEDIATE) refused as busy did nothing: its
    // connection is closed and the next try opens another.
    const { queryRaw, executeRaw, startTransaction } = adapter;
    adapter.queryRaw = (query) => whileLocked(() => queryRaw.call(adapter, query));
    adapter.executeRaw = (query) => whileLocked(() => executeRaw.call(adapter, query));
    adapter.startTransaction = (level) => whileLocked(() => startTransaction.call(adapter, level));
    return heldWhileConnected(adapter, this.#connected);
  }
}
