/**
 * A store with many storefront domains (issue 24, decision 0049), in Chromium against the demo:
 * Settings' "Markets and languages" lists them 50 a page with Previous and Next and "Showing
 * 51–100 of 120"; the merchant unticks a domain on page 2 and saves that page, and reloaded,
 * page 2 still shows it unticked while page 1's domains stay ticked (a save changes only the
 * page's domains). Read from the page, never from the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import { DEMO_SHOP } from "../../dev/demo/admin-demo";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { addDomainPresences, manyDomainHost } from "../../testkit/many-presences";
import { pauseSyncing } from "../../app/shop/merchant-pause.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { refreshStorefrontPresences } from "../../app/shopify/storefront-presences.server";

// Runs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 3,
  saveKeys: true,
  waitForFirstSync: true,
  artifacts: "many-storefronts",
});

describe("many storefront domains, in Settings", () => {
  it("pages through 120 storefronts; a domain unticked on page 2 stays unticked after a reload, page 1's stay ticked", async () => {
    const { demo } = session;
    // The merchant paused syncing (the Dashboard's button): no domain is filled while they choose.
    expect((await pauseSyncing(DEMO_SHOP)).message).toContain("Syncing is paused");
    // 119 domains of their own connected in Shopify, each with its web presence; the app reads
    // them as its hourly check does (a web presence's own change has no webhook).
    await addDomainPresences(demo.shopify, 119);
    const read = await refreshStorefrontPresences(DEMO_SHOP, await adminFor(DEMO_SHOP));
    expect(read.kind === "read" && read.presences.length).toBe(120);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const showing = (text: string) => page.getByText(text).first();
    const box = (i: number) =>
      page.getByRole("checkbox", { name: `Index ${manyDomainHost(i)} in its own workspace` });
    await page.goto(`${demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Markets and languages" }).waitFor();
    await showing("Showing 1–50 of 120 storefront URLs").waitFor();
    expect(
      await page.getByRole("list", { name: "Storefronts" }).getByRole("listitem").count(),
    ).toBe(50);
    expect(await box(10).isChecked()).toBe(true);
    expect(await box(60).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Previous" }).count()).toBe(0);

    await page.getByRole("link", { name: "Next" }).first().click();
    await showing("Showing 51–100 of 120 storefront URLs").waitFor();
    expect(page.url()).toContain("storefronts=2");
    expect(await box(60).isChecked()).toBe(true);
    await box(60).uncheck();
    // The cost counts page 1's and page 3's ticked domains too, as one figure.
    expect(await page.locator("#storefronts-cost").innerText()).toContain(
      "ticked domains on other pages",
    );
    await page.getByRole("button", { name: "Save storefronts on this page" }).click();
    await page.getByText("Storefronts saved").waitFor();
    await page.getByText(`${manyDomainHost(60)} is no longer indexed`).waitFor();
    await session.shot(page, "settings-storefronts-page-2-saved");

    await page.reload();
    await showing("Showing 51–100 of 120 storefront URLs").waitFor();
    expect(await box(60).isChecked()).toBe(false);
    expect(await box(61).isChecked()).toBe(true);
    expect(
      await page.locator(`li[data-url="https://${manyDomainHost(60)}/"]`).innerText(),
    ).toContain("Not indexed: unticked");

    await page.getByRole("link", { name: "Previous" }).first().click();
    await showing("Showing 1–50 of 120 storefront URLs").waitFor();
    expect(await box(10).isChecked()).toBe(true);
    expect(await box(49).isChecked()).toBe(true);

    await page.goto(`${demo.adminUrl}/settings?storefronts=3`);
    await showing("Showing 101–120 of 120 storefront URLs").waitFor();
    expect(await page.getByRole("link", { name: "Next" }).count()).toBe(0);
    expect(await box(119).isChecked()).toBe(true);
    await page.close();
  });
});
