import { createMigratedDatabase } from "./test-database";

export const TEST_API_KEY = "test-api-key";
export const TEST_API_SECRET = "test_secret_key";
export const TEST_APP_URL = "https://catalog-chat.test";

/**
 * Points the app's configuration at test values and a fresh migrated database. Call before the
 * first import of any app module (they read configuration when loaded).
 */
export async function prepareAppEnvironment(
  overrides: Record<string, string> = {},
): Promise<{ databaseUrl: string; databasePath: string | undefined }> {
  const db = await createMigratedDatabase();
  Object.assign(process.env, {
    NODE_ENV: "test",
    SHOPIFY_API_KEY: TEST_API_KEY,
    SHOPIFY_API_SECRET: TEST_API_SECRET,
    SHOPIFY_APP_URL: TEST_APP_URL,
    SCOPES: "read_products,read_online_store_pages,read_inventory",
    DATABASE_URL: db.url,
    ...overrides,
  });
  return { databaseUrl: db.url, databasePath: db.path };
}
