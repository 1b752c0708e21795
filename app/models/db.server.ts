import { createRequire } from "node:module";
import { Prisma, PrismaClient } from "@prisma/client";
import { clearLogs } from "@prisma/debug";
import { databaseUrlFrom, isPostgresUrl } from "../database-url";
import { lazyObject } from "../lazy";
import { PostgresAdapter, type ConnectedDriver, type SqlDriver } from "./driver-adapters.server";
import { SqliteAdapter } from "./sqlite-connections.server";

/**
 * One Prisma client for the URL's database: SQLite through libSQL (the embedded default) or
 * PostgreSQL through node-postgres. A generated client is tied to its schema's provider, so
 * PostgreSQL has its own, generated from prisma/postgresql/schema.prisma (the same models) into
 * node_modules/.prisma/postgresql-client and loaded only when it is used.
 */
export function createPrismaClient(url: string = databaseUrlFrom(process.env)): PrismaClient {
  const connected: ConnectedDriver = { current: null };
  let client: PrismaClient;
  if (!isPostgresUrl(url)) {
    client = new PrismaClient({ adapter: new SqliteAdapter({ url }, connected) });
  } else {
    const { PrismaClient: PostgresClient } = createRequire(import.meta.url)(
      ".prisma/postgresql-client",
    ) as { PrismaClient: typeof PrismaClient };
    client = new PostgresClient({
      adapter: new PostgresAdapter({ connectionString: url }, connected),
    });
  }
  drivers.set(client, connected);
  return client;
}

// On globalThis like the client: a dev server's module reload keeps both.
const drivers = (globalThis.prismaDrivers ??= new WeakMap<PrismaClient, ConnectedDriver>());

declare global {
  var prismaGlobal: PrismaClient | undefined;
  var prismaDrivers: WeakMap<PrismaClient, ConnectedDriver> | undefined;
}

/**
 * One client per process, made on its first use (importing this module reads no configuration and
 * opens nothing); the dev server's module reloads reuse it instead of opening another.
 */
let made: PrismaClient | undefined;
function processClient(): PrismaClient {
  made ??= globalThis.prismaGlobal ?? createPrismaClient();
  if (process.env.NODE_ENV !== "production") globalThis.prismaGlobal = made;
  return made;
}

const prisma: PrismaClient = lazyObject(processClient);

/**
 * Runs a raw statement on the driver adapter the process's client is connected through (the same
 * libSQL connection or PostgreSQL pool), without the client's query engine. Through the client a
 * raw statement costs about 0.3 ms (0.05 ms sent this way) and several copies of its values (JSON,
 * the query compiler's request, WebAssembly memory, the debug history of its last 100
 * statements): for the few statements run per webhook delivery and per hundred documents staged,
 * that was most of the intake's CPU and of a sync's garbage (docs/decisions/0052). What it gives up: values come back
 * as the driver reads them (dates as ISO text on SQLite, counts as numbers or text), and errors
 * are the adapter's `DriverAdapterError`, which `isDatabaseBusy` knows too.
 */
export async function driverQuery<Row>(
  statement: Prisma.Sql,
  client: PrismaClient = processClient(),
): Promise<Row[]> {
  const driver = await driverOf(client);
  const result = await forgotten(driver.queryRaw(sqlQueryOf(statement, driver.provider)));
  return result.rows.map((values) => {
    const row: Record<string, unknown> = {};
    result.columnNames.forEach((name, k) => (row[name] = values[k]));
    return row as Row;
  });
}

/** The database a driver speaks to, for a statement whose text differs between them. */
export type SqlProvider = "sqlite" | "postgres";

/**
 * As driverQuery, for a statement that returns nothing: how many rows it changed. A statement
 * that differs between the databases is given as a function of the driver's provider.
 */
export async function driverExecute(
  statement: Prisma.Sql | ((provider: SqlProvider) => Prisma.Sql),
  client: PrismaClient = processClient(),
): Promise<number> {
  const driver = await driverOf(client);
  const sql =
    typeof statement === "function" ? statement(driver.provider as SqlProvider) : statement;
  return forgotten(driver.executeRaw(sqlQueryOf(sql, driver.provider)));
}

/**
 * A batch's rows sent as one JSON parameter, read back as a table `j` whose `j.value` is each
 * row's array (`j.value ->> 0` its first field, as text or a number on SQLite, as text on
 * PostgreSQL). One value a column and row makes a statement of thousands of parameters, which
 * libSQL compiles into a program as large each time and frees only when V8 collects the
 * statement's object: a stock export's fill left about 100 MB of them behind (issue 28, item 6).
 */
export function jsonRows(provider: SqlProvider, rows: readonly (readonly unknown[])[]): Prisma.Sql {
  const json = JSON.stringify(rows);
  return provider === "postgres"
    ? Prisma.sql`jsonb_array_elements(${json}::jsonb) AS j(value)`
    : Prisma.sql`json_each(${json}) AS j`;
}

/**
 * The driver adapters log every statement with its values to `@prisma/debug`, which keeps the
 * last 100 entries whether or not debugging is on (for Prisma's crash reports). A statement's
 * values, a hundred staged documents say, then outlive it by a hundred statements: long enough to
 * be moved to V8's old generation, where they lay as garbage until a full collection. A full
 * sync's every document went that way (issue 28, item 6; docs/decisions/0055). The history is
 * emptied once the statement is done, whichever way.
 */
async function forgotten<T>(statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } finally {
    clearLogs();
  }
}

/**
 * A model's row read through the driver (`SELECT *`, with other columns beside it or not) as
 * Prisma's model query returns it: its scalar fields only, each converted by the schema's type
 * (dates, booleans and numbers as the driver reads them differ between SQLite and PostgreSQL).
 */
export function modelRowOf<Model>(model: Prisma.ModelName, row: Record<string, unknown>): Model {
  const converted: Record<string, unknown> = {};
  for (const field of scalarFieldsOf(model)) {
    const value = row[field.name];
    if (value == null) converted[field.name] = null;
    else if (field.type === "DateTime") converted[field.name] = toDate(value);
    else if (field.type === "Boolean") converted[field.name] = driverBoolean(value);
    else if (field.type === "Int" || field.type === "Float") converted[field.name] = Number(value);
    else if (field.type === "BigInt") converted[field.name] = BigInt(value as string);
    else if (field.type === "String" || field.kind === "enum") converted[field.name] = value;
    else throw new Error(`${model}.${field.name} is ${field.type}: not read here`);
  }
  return converted as Model;
}

/** Each model's scalar fields, looked up once: modelRowOf runs for every row of a batch. */
const scalarFields = new Map<string, readonly Prisma.DMMF.Field[]>();
function scalarFieldsOf(model: Prisma.ModelName): readonly Prisma.DMMF.Field[] {
  let fields = scalarFields.get(model);
  if (!fields) {
    const found = Prisma.dmmf.datamodel.models.find((m) => m.name === model);
    if (!found) throw new Error(`No model ${model} in the schema`);
    fields = found.fields.filter((field) => field.kind === "scalar" || field.kind === "enum");
    scalarFields.set(model, fields);
  }
  return fields;
}

/** A boolean column as the driver reads it: 1/0 from SQLite, true/false from PostgreSQL. */
export function driverBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

async function driverOf(client: PrismaClient): Promise<SqlDriver> {
  const connected = drivers.get(client);
  if (!connected) throw new Error("Not a client made by createPrismaClient");
  if (!connected.current) await client.$connect();
  if (!connected.current) throw new Error("The database client did not connect its driver");
  return connected.current;
}

const UNTYPED = { scalarType: "unknown", arity: "scalar" } as const;

/** The statement in the driver's placeholders (`?` for libSQL, `$1` for node-postgres). */
function sqlQueryOf(statement: Prisma.Sql, provider: string) {
  return {
    sql: provider === "postgres" ? statement.text : statement.sql,
    args: statement.values,
    argTypes: statement.values.map(() => UNTYPED),
  };
}

export default prisma;

/**
 * SQLite's SQLITE_BUSY through the libSQL adapter: another process (e.g. `npm run worker`) is
 * committing and the busy timeout ran out. Model queries report it as P1008 ("Operation has
 * timed out"), raw queries as P2010 with SQLITE_BUSY / "database is locked" in the message, and
 * statements sent to the driver (`driverQuery`) as the adapter's DriverAdapterError of kind
 * SocketTimeout.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof Error && error.name === "DriverAdapterError") {
    return (error.cause as { kind?: string } | undefined)?.kind === "SocketTimeout";
  }
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
