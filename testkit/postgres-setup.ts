import { startPostgresCluster } from "./postgres-cluster";
import { preparePostgresTemplate } from "./test-database";

/**
 * Vitest global set-up of the `postgresql` project: one throwaway cluster for the whole run, with
 * one migrated template database that each test's database copies (testkit/test-database.ts).
 * Workers are forked after this runs, so they inherit TEST_POSTGRES_URL; only the workers of the
 * project that sets TEST_DATABASE=postgresql use it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  process.env.TEST_POSTGRES_URL = cluster.url;
  await preparePostgresTemplate(cluster.url);
  return () => cluster.stop();
}
