import { startPostgresCluster } from "./postgres-cluster";

/**
 * Vitest global set-up: with TEST_DATABASE=postgresql, one throwaway cluster for the whole run;
 * each test's database is created in it (testkit/test-database.ts). Workers are forked
 * after this runs, so they inherit TEST_POSTGRES_URL.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.TEST_DATABASE !== "postgresql") return;
  const cluster = await startPostgresCluster();
  process.env.TEST_POSTGRES_URL = cluster.url;
  return () => cluster.stop();
}
