import prisma from "./db.server";

/** A trivial query: resolves when the database answers, throws when it cannot be reached. */
export async function pingDatabase(): Promise<void> {
  await prisma.$queryRawUnsafe("SELECT 1");
}

/**
 * The migrations Prisma finished applying to this database (`_prisma_migrations`, written by
 * `prisma migrate deploy`), by folder name; a failed or rolled-back one is not among them. Throws
 * when the table does not exist (a database never migrated).
 */
export async function appliedMigrationNames(): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ migration_name: string }[]>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
  );
  return rows.map((row) => row.migration_name);
}
