import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Two projects, run together by `npm test`: every file on SQLite, and every file that can reach
 * the database again on PostgreSQL (all but the folders below, which never open one). Files run
 * in parallel: most wait on sockets, browsers and child processes, so more workers than this
 * machine's two cores keep both busy (docs/testing.md).
 */
const NO_DATABASE = [
  "test/catalogue/**",
  "test/fake-shopify/**",
  "test/index-service/**",
  "test/widget/**",
  "test/testkit/**",
];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: Number(process.env.TEST_WORKERS) || 6,
    reporters: ["default", "./testkit/slowest-files-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["test/**/*.test.ts"],
          env: { TEST_DATABASE: "sqlite" },
          globalSetup: ["testkit/sqlite-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgresql",
          include: ["test/**/*.test.ts"],
          exclude: NO_DATABASE,
          env: { TEST_DATABASE: "postgresql" },
          globalSetup: ["testkit/postgres-setup.ts"],
        },
      },
    ],
  },
});
