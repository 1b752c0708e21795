/** The embedded default: a SQLite file beside the schema, created and migrated by `npm run setup`. */
export const DEFAULT_DATABASE_URL = "file:./prisma/app.db";

export function databaseUrlFrom(env: Readonly<Record<string, string | undefined>>): string {
  const url = env.DATABASE_URL?.trim();
  return url ? url : DEFAULT_DATABASE_URL;
}

/** `postgresql://` or `postgres://` selects PostgreSQL; anything else is SQLite (libSQL). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
