/**
 * "Retry failed items" below the page (the browser test in test/demo/dashboard-demo.test.ts drives
 * the button): a page, an article and a product the service refused in the first sync are read
 * again by id and sent alone, with no bulk export; a refused product deleted from the store
 * meanwhile is removed; the answer names each item and what came of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  installShop,
  numericId,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  WORKSPACE,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { indexedIds } from "../../../testkit/emulator";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { retryRefusedItems } from "../../../app/sync/full/retry-refused-items.server";
import { retryMessage } from "../../../app/admin/dashboard-actions.server";

let env: LiveEnvironment;

beforeAll(async () => {
  // With the app's server, Shopify's finish webhooks end the first sync's exports as they come.
  env = await startLiveEnvironment({ products: 12, pages: 3, articles: 3 });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const published = (posts: Record<string, unknown>[]) =>
  posts.filter((post) => post.isPublished === true);

describe("Retry failed items", () => {
  it("sends the refused items alone, read again from the store, and says what came of each", async () => {
    const page = published(env.shopify.state.pages())[0]!;
    const article = published(env.shopify.state.articles())[0]!;
    const [kept, gone] = sellableProducts(env);
    const ids = {
      page: `page-${numericId(String(page.id))}`,
      article: `article-${numericId(String(article.id))}`,
      kept: numericId(kept!.id as string),
      gone: numericId(gone!.id as string),
    };
    env.emulator.state.refuseItems(Object.values(ids), "VALIDATION_ERROR: price must be a number");
    await installShop(env);
    const before = indexedIds(env.emulator, ACCOUNT, WORKSPACE);
    for (const id of Object.values(ids)) {
      expect([...before.products, ...before.posts]).not.toContain(id);
    }

    env.emulator.state.acceptItems();
    env.shopify.state.deleteProduct(ids.gone);
    const exports = env.shopify.state.bulkOperations().length;
    const outcome = await retryRefusedItems(SHOP, await adminFor(SHOP));

    const after = indexedIds(env.emulator, ACCOUNT, WORKSPACE);
    expect(after.posts).toContain(ids.page);
    expect(after.posts).toContain(ids.article);
    expect(after.products).toContain(ids.kept);
    expect(after.products).not.toContain(ids.gone);
    expect(env.shopify.state.bulkOperations().length).toBe(exports);
    expect(await env.prisma.syncRun.count({ where: { shopDomain: SHOP } })).toBe(1);

    const message = retryMessage(outcome);
    expect(message.message).toBe(
      "Retried 4 refused items, read again from your store: 3 items are in the index now, 1 item was removed (no longer in your store or not for sale).",
    );
    expect([...(message.details ?? [])].sort()).toEqual(
      [
        `${String(page.title)}: in the index now.`,
        `${String(article.title)}: in the index now.`,
        `${String(kept!.title)}: in the index now.`,
        `${String(gone!.title)}: removed from the index.`,
      ].sort(),
    );
    // Nothing is left to retry.
    expect(retryMessage(await retryRefusedItems(SHOP, await adminFor(SHOP))).message).toBe(
      "No refused items to retry.",
    );
  });
});
