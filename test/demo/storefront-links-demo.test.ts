/**
 * The demo's storefront reads as a shop would (issue 26, item 7): in Chromium against the running
 * demo, a product card's link opens the product's page in the storefront preview (not the store's
 * domain, which does not exist on this machine), and emoji in product titles and answers are drawn
 * in colour (Debian's fonts-noto-color-emoji), not as empty boxes.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, askForProductCard, openChat, ui } from "../../testkit/widget-stack";

vi.setConfig({ testTimeout: 180_000 });

const session = useDemoInBrowser({
  products: 20,
  artifacts: "storefront-links",
  waitForFirstSync: true,
});

describe("the demo's storefront", () => {
  it("opens a card's product in the storefront preview", async () => {
    const indexed = session.demo.emulator.state
      .workspace("professional", session.demo.workspaceId)!
      .products.map((p) => p.name);
    const products = session.demo.shopify.state.products();
    const titles = products.map((p) => String(p.title));
    // A plain title, said once in the store, so the answer's first card is this product's.
    const product = products.find(
      (p) =>
        indexed.includes(String(p.title)) &&
        /^[\w ]+$/.test(String(p.title)) &&
        titles.filter((t) => t === p.title).length === 1,
    )!;
    expect(product).toBeDefined();
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const card = await askForProductCard(page, session.demo.storefrontUrl, String(product.title));
    expect(await card.locator("a").first().getAttribute("href")).toMatch(
      /^https:\/\/demo-store\.example\.com\/products\//,
    );
    await card.locator(".name").click();
    await page.waitForURL(`${session.demo.storefrontUrl}products/${String(product.handle)}`);
    expect(await page.locator("main h1").innerText()).toBe(String(product.title));
    await session.shot(page, "product-page");
    await page.close();
  });

  it("draws emoji in colour, in the chat and on the page", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.storefrontUrl);
    await openChat(page);
    await ask(page, "Do you have green tea?");
    const bubble = ui(page).dialog.locator(".msg.bot .bubble").last();
    // A glyph from a colour emoji font has coloured pixels; a missing glyph's box or a black and
    // white one has none. Drawn in the bubble's own font, as Chromium draws the page's text.
    const coloured = await bubble.evaluate((el) =>
      ["🌿", "🛍", "✨"].map((emoji) => {
        const canvas = document.createElement("canvas");
        canvas.width = canvas.height = 48;
        const context = canvas.getContext("2d")!;
        context.font = `32px ${getComputedStyle(el).fontFamily}`;
        context.fillText(emoji, 4, 38);
        const { data } = context.getImageData(0, 0, 48, 48);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) {
          const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
          if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
        }
        return `${emoji} ${count > 20 ? "in colour" : "not drawn"}`;
      }),
    );
    expect(coloured).toEqual(["🌿 in colour", "🛍 in colour", "✨ in colour"]);
    await session.shot(page, "emoji");
    await page.close();
  });
});
