/**
 * The admin writes dates and numbers in the admin's language (issue 26, item 7): Shopify puts the
 * admin's `locale` on the app's URL; in Chromium against the running demo, German ("de") writes
 * "1.000" and "26. Nov. 2026", English ("en") "1,000" and "Nov 26, 2026", on the Dashboard and,
 * reached through the app's own navigation (whose URL has no locale), on Insights.
 */
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";

vi.setConfig({ testTimeout: 180_000 });

const session = useDemoInBrowser({
  products: 20,
  artifacts: "admin-locale",
  waitForFirstSync: true,
});

async function pageIn(locale: string): Promise<Page> {
  const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${session.demo.adminUrl}?locale=${locale}`);
  await page.locator("#quota-product").waitFor();
  return page;
}

/** The days of the Insights figures table, reached by the app's own "Insights" link. */
async function insightsDays(page: Page): Promise<string[]> {
  await page
    .getByRole("navigation", { name: "App" })
    .getByRole("link", { name: "Insights" })
    .click();
  await page.waitForURL(/\/insights$/);
  const details = page.locator("details").first();
  await details.locator("summary").click();
  return details.locator("tbody tr th, tbody tr td:first-child").allInnerTexts();
}

/** When the newest run of Recent syncs started. */
const startedCell = (page: Page) =>
  page
    .getByRole("table")
    .filter({ has: page.getByRole("columnheader", { name: "Started" }) })
    .locator("tbody tr")
    .first()
    .locator("td, th")
    .first()
    .innerText();

describe("the admin's locale", () => {
  it("writes numbers and dates in German for a German admin", async () => {
    const page = await pageIn("de");
    expect(await page.locator("#quota-product").innerText()).toMatch(/^Products: \d+ of 1\.000$/);
    expect(await page.locator("#quota-reset").innerText()).toMatch(
      /^The quota starts again on 1\. \S+ \d{4}\.$/,
    );
    expect(await startedCell(page)).toMatch(/^\d{1,2}\. \S+ \d{4}, \d\d:\d\d UTC$/);
    await session.shot(page, "dashboard-de");
    const days = await insightsDays(page);
    expect(days.length).toBeGreaterThan(0);
    for (const day of days) expect(day).toMatch(/^\d{1,2}\. \S+ \d{4}$/);
    await session.shot(page, "insights-de");
    await page.close();
  });

  it("writes them in English for an English admin", async () => {
    const page = await pageIn("en");
    expect(await page.locator("#quota-product").innerText()).toMatch(/^Products: \d+ of 1,000$/);
    expect(await page.locator("#quota-reset").innerText()).toMatch(
      /^The quota starts again on [A-Z][a-z]{2} 1, \d{4}\.$/,
    );
    expect(await startedCell(page)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC$/);
    const days = await insightsDays(page);
    for (const day of days) expect(day).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await session.shot(page, "insights-en");
    await page.close();
  });
});
