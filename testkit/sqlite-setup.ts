import { prepareSqliteTemplate } from "./test-database";

/** Vitest global set-up of the `sqlite` project: one migrated SQLite file that tests copy. */
export default async function setup(): Promise<void> {
  await prepareSqliteTemplate();
}
