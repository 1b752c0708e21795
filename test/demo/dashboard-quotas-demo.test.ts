/**
 * "This month's quota" on the Dashboard, in Chromium against the running demo: every quota the
 * service counts, with its use and limit as the service reports them, and a warning near and at
 * the limit that says what shoppers see once it is used up.
 */
import { describe, expect, it } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";

const session = useDemoInBrowser({ products: 10, waitForFirstSync: true, artifacts: "quotas" });

/** The day quotas come back, as the page writes days ("1 Dec 2026"). */
function resetDay(): string {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
  return `1 ${months[next.getUTCMonth()]} ${next.getUTCFullYear()}`;
}

describe("the Dashboard's quotas", () => {
  it("shows chat, search and recommendations beside products and pages, and warns near and at the limit", async () => {
    const emulator = session.demo.emulator.state;
    const account = emulator.account("professional")!;
    const used = account.usage.used;
    // Shoppers have spent 85% of the chat messages and every search query of the month.
    emulator.spendQuota("professional", "chatMessages", 3_400 - used.chatMessages!);
    emulator.spendQuota("professional", "searchQueries", 50_000 - used.searchQueries!);
    const products = emulator.account("professional")!.usage.used.products!;

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(session.demo.adminUrl);
    await page.getByRole("heading", { name: "This month's quota" }).waitFor();
    const text = (id: string) => page.locator(`#${id}`).innerText();
    const day = resetDay();

    expect(await text("quota-product")).toBe(
      `Products: ${products.toLocaleString("en-GB")} of 1,000`,
    );
    expect(await text("quota-chat")).toBe("Chat messages: 3,400 of 4,000");
    expect(await text("quota-search")).toBe("Search queries: 50,000 of 50,000");
    expect(await text("quota-recommendation")).toMatch(/^Recommendations: \d+ of 5,000$/);
    expect(await text("quota-reset")).toBe(`The quota starts again on ${day}.`);

    expect(await text("quota-chat-warning")).toBe(
      "Chat messages: 85% of this month's quota is used (600 left). When it runs out, the storefront chat does not answer; shoppers who ask a question are offered your store's own search for their words and your contact page instead.",
    );
    expect(await text("quota-search-warning")).toBe(
      `Search queries: none left until ${day}. The search box shows no suggestions, and shoppers' searches go to your theme's own search page. To get more before then, move the search service account to a larger plan.`,
    );
    expect(await page.locator("#quota-recommendation-warning").count()).toBe(0);
    expect(await page.locator("#quota-product-warning").count()).toBe(0);
    await session.shot(page, "dashboard-quotas");

    // The warnings read whole on a phone too: nothing runs off the side.
    await page.setViewportSize({ width: 375, height: 900 });
    await page.reload();
    await page.locator("#quota-search-warning").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await session.shot(page, "dashboard-quotas-375");
    await page.close();
  });
});
