/**
 * A first connection on an account whose month of pages is used up (decision 0022): the key
 * check's test item is then a product, counted like the page would be, so the keys are still
 * proved and saved, and the first sync plans its products with the one the check used.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  ACCOUNT,
  installShop,
  startLiveEnvironment,
  WORKSPACE,
  type LiveEnvironment,
} from "../../testkit/live-stack";

const PRODUCTS_QUOTA = 30;
let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({
    products: 40,
    account: { tier: "personal", quotas: { products: PRODUCTS_QUOTA, posts: 100 } },
  });
  env.emulator.state.spendQuota(ACCOUNT, "posts", 100);
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

it("proves the keys with a test product, and the first sync leaves room for it", async () => {
  const workspace = env.emulator.state.workspace(ACCOUNT, WORKSPACE);
  const products = workspace?.products ?? [];
  // The test product took one of the 30, and is gone; the sync sent the 29 left, none refused.
  expect(products.some((p) => String(p.id).startsWith("__catalog_chat_key_pair_"))).toBe(false);
  expect(products).toHaveLength(PRODUCTS_QUOTA - 1);
  expect(env.emulator.state.account(ACCOUNT)?.usage.used.products).toBe(PRODUCTS_QUOTA);
});
