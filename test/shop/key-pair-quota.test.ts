/**
 * The key check's test page on a first connection (decision 0022) counts against the month's
 * pages quota, and the first full sync plans with it: the service's own count, read from the test
 * page's answer, is recorded before the sync starts, so no batch is refused for one page too many
 * (the failure that took the first key pair proof out, decision 0019).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  ACCOUNT,
  installShop,
  SHOP,
  startLiveEnvironment,
  WORKSPACE,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { recentRuns, runCounts } from "../../app/models/sync-runs.server";

const PAGES_QUOTA = 100;
const LEFT_BEFORE_INSTALL = 3;
let env: LiveEnvironment;

beforeAll(async () => {
  // Personal tier, its 100 pages a month, all but 3 spent (by another shop of the account, say).
  env = await startLiveEnvironment({
    products: 5,
    pages: 3,
    articles: 3,
    account: { tier: "personal", quotas: { products: 100_000, posts: PAGES_QUOTA } },
  });
  env.emulator.state.spendQuota(ACCOUNT, "posts", PAGES_QUOTA - LEFT_BEFORE_INSTALL);
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

it("a first connection's test page leaves one page less for the first sync, which plans with it", async () => {
  const posts = env.emulator.state.workspace(ACCOUNT, WORKSPACE)?.posts ?? [];
  // The test page took one of the three; the sync sent the two left, and no test page remains.
  expect(posts).toHaveLength(LEFT_BEFORE_INSTALL - 1);
  expect(posts.some((post) => String(post.id).startsWith("__catalog_chat_key_pair_"))).toBe(false);
  expect(env.emulator.state.account(ACCOUNT)?.usage.used.posts).toBe(PAGES_QUOTA);
  const [run] = await recentRuns(SHOP, 1);
  const counts = await runCounts(run!);
  expect(counts.posts).toMatchObject({ sent: LEFT_BEFORE_INSTALL - 1, failed: 0 });
  expect(counts.posts.overQuota).toBeGreaterThan(0);
});
