/**
 * The Dashboard as a merchant reads it, in Chromium against the running demo: products and
 * pages/articles apart, the quota's reset date, the items left out by name with their reasons in
 * plain words, and "Retry failed items" putting the refused items into the emulator's index.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { useDemoInBrowser } from "../support/demo-browser";
import { indexedIds } from "../support/emulator";
import { ask, openChat, waitIdle } from "../widget/harness";

vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({ products: 30, saveKeys: false, artifacts: "dashboard" });
const { shot, saveKeys } = session;

/** The store's products a sync sends (active, on the online store), with their index ids. */
function sellableProducts() {
  return session.demo.shopify.state
    .products()
    .filter((p) => p.status === "ACTIVE" && p.onlineStoreUrl)
    .map((p) => ({ id: /(\d+)$/.exec(p.id)![1]!, title: String(p.title) }));
}

/** The checklist's steps as the page shows them: label and whether done. */
async function checklist(page: Page): Promise<Record<string, boolean>> {
  const steps = page.getByRole("list", { name: "Getting started" }).getByRole("listitem");
  const result: Record<string, boolean> = {};
  for (const text of await steps.allInnerTexts()) {
    const match = /^(?:✓ )?(.+?) \((done|to do)\)/.exec(text);
    if (match) result[match[1]!] = match[2] === "done";
  }
  return result;
}

describe("the first-run checklist", () => {
  it("starts with every step to do, each read from where it is true", async () => {
    const page = await session.browser.newPage();
    await page.goto(session.demo.adminUrl);
    expect(await checklist(page)).toEqual({
      "Keys saved": false,
      "First sync done": false,
      "Chat switched on in the live theme": false,
      "First conversation": false,
    });
    await page.close();
  });
});

describe("the Dashboard says what is not in the index, and why", () => {
  it("lists refused and over-quota items by name, apart by kind, and retries the refused ones", async () => {
    const [first, second] = sellableProducts();
    // The service refuses two products one by one, and this month's pages and articles are
    // almost spent on the account.
    session.demo.emulator.state.refuseItems(
      [first!.id],
      "VALIDATION_ERROR: price must be a number >= 0",
    );
    session.demo.emulator.state.refuseItems([second!.id], "VALIDATION_ERROR: name is required");
    session.demo.emulator.state.spendQuota("professional", "posts", 998);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await saveKeys(page);
    await page.goto(session.demo.adminUrl);
    await page.getByText(/^Last sync: First sync, (finished|stopped)/).waitFor({ timeout: 90_000 });

    const index = indexedIds(session.demo.emulator, "professional", session.demo.workspaceId);
    expect(index.products).not.toContain(first!.id);
    expect(index.posts).toEqual([]);

    // Products and pages/articles apart.
    const cell = (kind: string, key: string) => page.locator(`#count-${kind}-${key}`).innerText();
    expect(await cell("product", "sent")).toBe(String(index.products.length));
    expect(await cell("product", "failed")).toBe("2");
    expect(Number(await cell("post", "overQuota"))).toBeGreaterThan(2);
    expect(await page.locator("#indexed").innerText()).toBe(
      `In the index: ${index.products.length} products, 0 pages and articles.`,
    );

    // The quota's reset date, as a day written like every other date on the page ("1 Dec 2026").
    // Quotas come back on the 1st of next month, 00:00 UTC (spec §8).
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
    const reset = `1 ${months[next.getUTCMonth()]} ${next.getUTCFullYear()}`;
    expect(await page.locator("#quota-reset").innerText()).toBe(
      `The quota starts again on ${reset}.`,
    );

    // The items left out, by name, with reasons in plain words (no codes, no ids).
    const refused = page.getByRole("list", { name: "Refused items" });
    expect((await refused.getByRole("listitem").allInnerTexts()).sort()).toEqual(
      [
        `${first!.title} (Product): The search service did not accept its price.`,
        `${second!.title} (Product): The search service needs a title, and this item has none.`,
      ].sort(),
    );
    await page
      .getByText(
        `Left out: this month's quota of 1,000 pages and articles is used up. It comes back on ${reset}.`,
      )
      .waitFor();
    const overQuota = await page
      .getByRole("list", { name: "Pages and articles over quota" })
      .getByRole("listitem")
      .allInnerTexts();
    const postTitles = [
      ...session.demo.shopify.state.pages(),
      ...session.demo.shopify.state.articles(),
    ].map((post) => String(post.title));
    expect(overQuota.length).toBeGreaterThan(2);
    for (const name of overQuota) expect(postTitles).toContain(name);
    const card = await page.locator("body").innerText();
    expect(card).not.toMatch(/VALIDATION_ERROR|without a title|\d{10,}/);
    await shot(page, "items-left-out");

    // The service takes them now: "Retry failed items" puts both into the index.
    session.demo.emulator.state.acceptItems();
    await page.getByRole("button", { name: "Retry failed items" }).click();
    await page.getByText("Retrying 2 failed items").waitFor();
    await page
      .getByText(/^Last sync: Retry of failed items, finished/)
      .waitFor({ timeout: 90_000 });
    const after = indexedIds(session.demo.emulator, "professional", session.demo.workspaceId);
    expect(after.products).toContain(first!.id);
    expect(after.products).toContain(second!.id);
    expect(await cell("product", "failed")).toBe("0");
    expect(await page.getByRole("list", { name: "Refused items" }).count()).toBe(0);
    await shot(page, "after-retry");
  });
});

describe("the first-run checklist, step by step", () => {
  it("ticks the chat when the theme's app embed is switched on, and the first conversation, then goes", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    expect(await checklist(page)).toEqual({
      "Keys saved": true,
      "First sync done": true,
      "Chat switched on in the live theme": false,
      "First conversation": false,
    });
    // The step names the toggle as the theme editor lists it: the app embed block's own name.
    const embedName = (
      JSON.parse(
        await readFile(
          path.resolve("extensions/chat-widget/locales/en.default.schema.json"),
          "utf8",
        ),
      ) as { name: string }
    ).name;
    await page.getByText(`Switch on “${embedName}” under App embeds in your live theme`).waitFor();
    await shot(page, "checklist-chat-off");

    // The merchant switches the app embed on in the theme editor (the fake store's toggle).
    session.demo.shopify.state.setChatEmbed(true);
    await page.reload();
    expect((await checklist(page))["Chat switched on in the live theme"]).toBe(true);
    // Switched off again: the checklist says so (it is read, never remembered).
    session.demo.shopify.state.setChatEmbed(false);
    await page.reload();
    expect((await checklist(page))["Chat switched on in the live theme"]).toBe(false);
    session.demo.shopify.state.setChatEmbed(true);

    // A shopper's first conversation on the storefront: the checklist is complete and goes.
    const shopper = await session.browser.newPage();
    await shopper.goto(session.demo.storefrontUrl);
    await openChat(shopper);
    await ask(shopper, "Hello, what do you sell?");
    await waitIdle(shopper);
    await shopper.close();
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("list", { name: "Getting started" }).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(0);
    await shot(page, "checklist-complete");
  });
});
