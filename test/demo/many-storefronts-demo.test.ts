/**
 * A store with many storefront domains (issue 24, decision 0049), in Chromium against the demo:
 * Settings' "Markets and languages" lists them 50 a page with Previous and Next and "Showing
 * 51–100 of 120"; the merchant unticks a domain on page 2, another on page 3, comes back to
 * page 2 (the unsaved box still unticked) and saves both at once; reloaded, both stay unticked
 * while page 1's domains stay ticked. Read from the page, never from the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import { DEMO_SHOP } from "../../dev/demo/admin-demo";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import {
  addDomainPresences,
  longDomainHost,
  manyDomainHost,
  setDownAsFilled,
} from "../../testkit/many-presences";
import { pauseSyncing } from "../../app/shop/merchant-pause.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { refreshStorefrontPresences } from "../../app/shopify/storefront-presences.server";
import { findShop } from "../../app/models/shops.server";
import { storefrontPresencesOf } from "../../app/models/storefront-presences.server";
import {
  pointDomainsAtTheirWorkspaces,
  presenceWorkspacesOf,
} from "../../app/sync/full/presence-workspaces.server";
import {
  STOREFRONT_CONFIG_KEY,
  STOREFRONT_CONFIG_MAX_BYTES,
  type StorefrontConfig,
} from "../../app/shopify/storefront-config";

// Runs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 3,
  saveKeys: true,
  waitForFirstSync: true,
  artifacts: "many-storefronts",
});

describe("many storefront domains, in Settings", () => {
  it("pages through 120 storefronts; domains unticked on pages 2 and 3 are kept across pages, saved together, still unticked after a reload; page 1's stay ticked; a box changed during a save is kept", async () => {
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
    // Not saved yet: the merchant goes on to page 3 and unticks another there.
    await page.getByRole("link", { name: "Next" }).first().click();
    await showing("Showing 101–120 of 120 storefront URLs").waitFor();
    await box(110).uncheck();
    // Back on page 2, the box unticked there is still unticked, and saving saves both.
    await page.getByRole("link", { name: "Previous" }).first().click();
    await showing("Showing 51–100 of 120 storefront URLs").waitFor();
    expect(await box(60).isChecked()).toBe(false);
    await page
      .getByRole("button", { name: "Save storefronts (1 change on other pages too)" })
      .click();
    await page.getByText("Storefronts saved").waitFor();
    await page
      .getByText(`${manyDomainHost(60)}, ${manyDomainHost(110)} are no longer indexed`)
      .waitFor();
    await page.getByRole("button", { name: "Save storefronts", exact: true }).waitFor();
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
    expect(await box(110).isChecked()).toBe(false);

    // A box changed while a save is under way is not lost: the save is held until the merchant
    // has unticked another box, and once it is saved that box is still unticked, and saved next.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/storefronts-choice/, async (route) => {
      await held;
      await route.continue();
    });
    await box(111).uncheck();
    await page.getByRole("button", { name: "Save storefronts", exact: true }).click();
    await box(112).uncheck();
    release();
    await page.getByText(`${manyDomainHost(111)} is no longer indexed`).waitFor();
    expect(await box(112).isChecked()).toBe(false);
    await page.unroute(/storefronts-choice/);
    await page.getByRole("button", { name: "Save storefronts", exact: true }).click();
    await page.getByText(`${manyDomainHost(112)} is no longer indexed`).waitFor();
    await page.reload();
    await showing("Showing 101–120 of 120 storefront URLs").waitFor();
    expect(await box(111).isChecked()).toBe(false);
    expect(await box(112).isChecked()).toBe(false);
    await page.close();
  });

  it("says which indexed domains Shopify's 128 KB storefront settings cannot name, and the storefront configuration leaves exactly those out", async () => {
    const { demo } = session;
    // 300 more domains with long names (Shopify allows 253 characters): with the 115 ticked
    // above, their workspaces' names pass the 128 KB Shopify keeps of an app's json metafield.
    await addDomainPresences(demo.shopify, 300, { from: 1000, host: longDomainHost });
    const admin = await adminFor(DEMO_SHOP);
    const read = await refreshStorefrontPresences(DEMO_SHOP, admin);
    expect(read.kind === "read" && read.presences.length).toBe(420);
    // Their fills are set down as finished (filling 415 workspaces takes hours, not a test's
    // minutes); the storefront configuration is then written as after a fill.
    const shop = await findShop(DEMO_SHOP);
    const { workspaces } = presenceWorkspacesOf(
      shop!,
      (await storefrontPresencesOf(DEMO_SHOP)).presences,
    );
    // Every domain but the primary and the four unticked above.
    expect(workspaces).toHaveLength(415);
    await setDownAsFilled(workspaces);
    await pointDomainsAtTheirWorkspaces(DEMO_SHOP, admin);
    const written = demo.shopify.state
      .metafields()
      .find((metafield) => metafield.key === STOREFRONT_CONFIG_KEY)?.value;
    const named = Object.keys((JSON.parse(written!) as StorefrontConfig).workspaces ?? {});
    expect(written!.length).toBeLessThanOrEqual(STOREFRONT_CONFIG_MAX_BYTES);
    expect(named.length).toBeGreaterThan(100);
    expect(named.length).toBeLessThan(415);
    const leftOut = workspaces.map((w) => w.host).filter((host) => !named.includes(host));

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Markets and languages" }).waitFor();
    const banner = page.getByText(
      `${leftOut.length} indexed domains left out of the storefront settings`,
    );
    await banner.waitFor();
    const text = await page.getByText("too little to name every domain's workspace").innerText();
    expect(text).toContain(leftOut[0]);
    expect(text).toContain(`${leftOut.length - 5} other domains`);
    // The last page lists the last domains left out, each with its warning.
    const pages = Math.ceil(420 / 50);
    await page.goto(`${demo.adminUrl}/settings?storefronts=${pages}`);
    const last = leftOut.at(-1)!;
    const row = page.locator(`li[data-url="https://${last}/"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain("not on the storefront: Shopify's size limit");
    // A domain the configuration names reads as indexed, with no warning.
    const kept = named.at(0)!;
    await page.goto(`${demo.adminUrl}/settings?storefronts=1`);
    const keptRow = page.locator(`li[data-url="https://${kept}/"]`);
    await keptRow.waitFor();
    expect(await keptRow.innerText()).toContain("Indexed in workspace");
    expect(await keptRow.innerText()).not.toContain("size limit");
    await session.shot(page, "settings-storefronts-left-off");
    await page.close();
  });
});
