/**
 * A new, empty database in a PostgreSQL server, for runs that must start from nothing (the demo,
 * each test): created beside the database the server URL names, dropped again by `drop()`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface PostgresDatabase {
  /** The new database's URL (the server URL with its database name replaced). */
  url: string;
  /** Drops the database, closing whatever connections are still open to it. */
  drop(): Promise<void>;
}

/**
 * `template`: a database to copy (PostgreSQL copies its files: milliseconds, where migrating anew
 * takes seconds); PostgreSQL refuses while another session is connected to it.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await asAdmin(
    serverUrl,
    template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => asAdmin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function asAdmin(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
