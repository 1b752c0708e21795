/**
 * Metaobject entries chosen in Settings reach the index as content (issue 25, items 3 and 7), in
 * Chromium through the admin's own pages against the demo, whose store carries an FAQ and a size
 * chart definition; outcomes checked on the page and in the service emulator's index, never in
 * the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";

// Waits for real syncs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 10,
  waitForFirstSync: true,
  artifacts: "metaobjects",
});

/** The titles of the FAQ entries the emulator's index holds as content. */
function faqTitles(): string[] {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  return (workspace?.posts ?? [])
    .filter((post) => (post.categories as string[] | undefined)?.includes("FAQ"))
    .map((post) => String(post.title))
    .sort();
}

function postTitled(title: string): Record<string, unknown> | undefined {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  return (workspace?.posts ?? []).find((post) => post.title === title);
}

/** The "Size chart" attributes of the indexed products that have one (the snowboards). */
function sizeCharts(): unknown[] {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  return (workspace?.products ?? [])
    .map((p) => (p.attributes as Record<string, unknown> | undefined)?.["Size chart"])
    .filter((chart) => chart !== undefined);
}

describe("metaobjects, in Settings", () => {
  it("lists the store's definitions, sends the FAQ's entries as content when ticked, a size chart reference as the product's text, and takes the entries out when unticked", async () => {
    expect(faqTitles()).toEqual([]);
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Metaobjects" }).waitFor();
    await page
      .getByText("faq · 4 entries · entries have pages on the online store", { exact: true })
      .waitFor();
    await page
      .getByText("size_chart · 2 entries · no online store pages (sent without a link)", {
        exact: true,
      })
      .waitFor();
    // An app's own definition is not offered, and Settings says why.
    expect(await page.getByLabel("Loyalty tiers").count()).toBe(0);
    // Nor is one the storefront may not read.
    expect(await page.getByLabel("Supplier contacts").count()).toBe(0);
    await page
      .getByText("Supplier contacts (supplier_contact): Hidden from your storefront")
      .waitFor();
    await page
      .getByText("Loyalty tiers (app--4242--loyalty_tier): Kept by an app for its own use")
      .waitFor();

    await page.getByLabel("FAQ: metaobject entries", { exact: true }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await page
      .getByText("Reading the entries of the metaobject definitions you chose from Shopify")
      .waitFor();
    await session.shot(page, "settings-metaobjects-chosen");

    // The draft entry ("Do you sell gift cards?") is not published: not sent.
    await expect
      .poll(faqTitles, { timeout: 120_000 })
      .toEqual([
        "Can I return a sale item?",
        "How do I wax my snowboard?",
        "How long does shipping to Germany take?",
      ]);
    expect(postTitled("Can I return a sale item?")).toMatchObject({
      url: "https://demo-store.example.com/pages/faq/can-i-return-a-sale-item",
      content: expect.stringContaining("sale items can be returned within 14 days"),
    });
    // Not chosen: not sent.
    expect(postTitled("Burton Custom 151 size chart")).toBeUndefined();

    // A product metafield referencing a size chart entry is offered, and sent as the entry's text.
    await page.reload();
    await page.getByText("specs.size_chart · Metaobject · 1 product has a value").waitFor();
    await page.locator('[id="metafield-specs.size_chart"]').check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    const chart = [
      "Burton Custom 151 size chart: Board length 151 cm; Rider weight 45–68 kg; Waist width 24.8 cm; Notes Between sizes? Choose the shorter board for park riding.",
    ];
    // The snowboard that references the chart is a draft: the merchant publishes it, and its
    // live update carries the chart's text.
    await page
      .getByText("Exporting products from Shopify to send them with the metafields")
      .waitFor();
    const snowboard = session.demo.shopify.state
      .products()
      .find((p) => p.handle === "burton-custom-freestyle-151")!;
    session.demo.shopify.state.updateProduct(
      snowboard.id,
      { status: "ACTIVE", published: true },
      { webhook: true },
    );
    await expect.poll(sizeCharts, { timeout: 120_000 }).toEqual([chart]);

    await page.reload();
    expect(await page.getByLabel("FAQ: metaobject entries", { exact: true }).isChecked()).toBe(
      true,
    );
    await page.getByLabel("FAQ: metaobject entries", { exact: true }).uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await page.getByText("Removing the metaobject entries from the search index").waitFor();
    await expect.poll(faqTitles, { timeout: 120_000 }).toEqual([]);
    // The store's policies (pages) stay.
    expect(postTitled("Refund policy")).toBeDefined();
  });
});
