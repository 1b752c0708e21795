/**
 * Settings' "Markets and languages" (issue 24, items 1, 5 and 7), in Chromium against the demo:
 * the demo store's three storefronts are listed with their language, market and currency, and a
 * merchant's change in Shopify (a language enabled with Shopify's own mutation) reaches the page
 * through its locales/create webhook. Read from the page, never from the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { asMerchant, userErrorsOf } from "../fake-shopify/helpers";

// Runs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 10,
  saveKeys: false,
  artifacts: "markets",
  presences: "sample",
});

describe("markets and languages, in Settings", () => {
  it("lists the store's three storefronts, says only the primary one is indexed, and shows a language the merchant enables", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Markets and languages" }).waitFor();
    await page
      .getByText("Today only https://demo-store.example.com/ in English is indexed")
      .waitFor();
    const storefronts = page.getByRole("list", { name: "Storefronts" }).getByRole("listitem");
    await expect.poll(() => storefronts.count()).toBe(3);
    const row = (url: string) => page.locator(`li[data-url="${url}"]`);
    expect(await row("https://demo-store.example.com/").innerText()).toContain(
      "English (default language) · market International · EUR",
    );
    expect(await row("https://demo-store.example.com/").innerText()).toContain("Indexed");
    expect(await row("https://demo-store.example.com/de/").innerText()).toContain(
      "German (alternate language) · market International · EUR",
    );
    expect(await row("https://demo-store.fr/").innerText()).toContain(
      "French (default language) · market France · EUR",
    );
    expect(await row("https://demo-store.fr/").innerText()).toContain("Not indexed yet");
    await session.shot(page, "settings-markets");

    // The merchant adds Italian to the primary domain in Shopify (Settings, Languages): the Admin
    // API's own mutation, as the merchant.
    const primary = session.demo.shopify.state.presences().webPresences[0]!;
    const enabled = await asMerchant(
      session.demo.shopify,
      `mutation Enable($locale: String!, $ids: [ID!]) {
        shopLocaleEnable(locale: $locale, marketWebPresenceIds: $ids) {
          shopLocale { locale }
          userErrors { field message }
        }
      }`,
      { locale: "it", ids: [primary.id] },
    );
    expect(userErrorsOf(enabled)).toEqual([]);
    await session.demo.shopify.state.settled();
    expect(
      session.demo.shopify.state.webhookDeliveries("locales/create").map((d) => d.status),
    ).toEqual([200]);

    const italian = row("https://demo-store.example.com/it/");
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole("heading", { name: "Markets and languages" }).waitFor();
          return italian.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await italian.innerText()).toContain(
      "Italian (alternate language, not published) · market International · EUR",
    );
    await session.shot(page, "settings-markets-italian-enabled");
  });
});
