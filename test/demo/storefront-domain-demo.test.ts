/**
 * A shopper on the French domain (issue 24 item 2, decision 0032), in Chromium against the
 * running demo: `demo-store.fr` is mapped to the storefront preview, which picks the workspace
 * from the request's host as the theme's embed does (`config.workspaces[request.host]`); the
 * chat there answers with the French product name, a link on the French domain and the France
 * market's price in euros (a price list's fixed price), while the primary domain's chat answers
 * in English with links on the primary domain and the shop's own price; Settings says so.
 */
import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningDemo } from "../../dev/demo/admin-demo";
import { artifactsDir, CHROMIUM_ARGS, CHROMIUM_PATH } from "../../testkit/chromium";
import { startTestDemo } from "../../testkit/demo-browser";
import { askForProductCard } from "../../testkit/widget-stack";

vi.setConfig({ testTimeout: 180_000 });

const FRENCH_HOST = "demo-store.fr";
let demo: RunningDemo;
let browser: Browser;

/** The workspace the storefront configuration names for a host, once a run filled it. */
function configuredWorkspace(host: string): string | undefined {
  const saved = demo.shopify.state.metafields().find((m) => m.key === "config");
  const config = saved ? (JSON.parse(saved.value) as { workspaces?: Record<string, string> }) : {};
  return config.workspaces?.[host];
}

beforeAll(async () => {
  demo = await startTestDemo({ products: 20, presences: "sample" });
  await demo.firstSync;
  // The French domain's workspace is filled right after the shop's first sync.
  for (let waited = 0; !configuredWorkspace(FRENCH_HOST) && waited < 90_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The French domain resolves to this machine, as its DNS would send a shopper to the store.
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${FRENCH_HOST} 127.0.0.1`],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

describe("the chat on each storefront domain", () => {
  it("answers a shopper on the French domain with French names and links on that domain, and the primary domain's in English", async () => {
    expect(configuredWorkspace(FRENCH_HOST)).toBe("demo-store-fr");
    const names = (workspaceId: string) =>
      demo.emulator.state.workspace("professional", workspaceId)!.products.map((p) => p.name);
    const inFrench = names("demo-store-fr");
    const products = demo.shopify.state.products();
    const { fixedPrices } = demo.shopify.state
      .marketCatalogs()
      .find((c) => Object.keys(c.fixedPrices).length > 0)!;
    const prices = (p: (typeof products)[number]) => {
      const variants = p.variants as { id: string; price: string }[];
      return {
        shop: Math.min(...variants.map((v) => Number(v.price))),
        france: Math.min(...variants.map((v) => Number(fixedPrices[v.id]?.price ?? v.price))),
      };
    };
    // A product with a French title said once in the French workspace, at a fixed French price.
    const product = products.find((p) => {
      const title = demo.shopify.state.translations(p.id, "fr").find((t) => t.key === "title");
      const { shop, france } = prices(p);
      return (
        title && inFrench.filter((name) => name === title.value).length === 1 && shop !== france
      );
    })!;
    expect(product).toBeDefined();
    const french = Object.fromEntries(
      demo.shopify.state.translations(product.id, "fr").map((t) => [t.key, t.value]),
    );

    const port = new URL(demo.storefrontUrl).port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const card = await askForProductCard(page, `http://${FRENCH_HOST}:${port}/`, french.title!);
    expect(await card.locator(".name").innerText()).toBe(french.title);
    expect(await card.locator("a").first().getAttribute("href")).toBe(
      `https://${FRENCH_HOST}/products/${french.handle}`,
    );
    // The France market's price, labelled in euros (the document's currency), whatever the locale.
    const shownPrice = async (locator: typeof card) =>
      (await locator.locator(".price").innerText()).replace(/\s/g, " ");
    const amount = (n: number) => new RegExp(n.toFixed(2).replace(".", "[.,]"));
    expect(await shownPrice(card)).toMatch(amount(prices(product).france));
    expect(await shownPrice(card)).toContain("€");
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/french-domain.png`,
      fullPage: true,
    });

    const english = await askForProductCard(page, demo.storefrontUrl, String(product.title));
    expect(await english.locator(".name").innerText()).toBe(String(product.title));
    expect(await english.locator("a").first().getAttribute("href")).toBe(
      `https://demo-store.example.com/products/${String(product.handle)}`,
    );
    // The shop's own price, in the shop's currency.
    expect(await shownPrice(english)).toMatch(amount(prices(product).shop));
    expect(await shownPrice(english)).toContain("€");
    await page.close();
  });

  it("Settings says the French domain is indexed in its own workspace", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${demo.adminUrl}/settings`);
    await page
      .getByText(
        "Indexed: https://demo-store.example.com/ in English, and https://demo-store.fr/ in French in a workspace of its own",
      )
      .waitFor();
    const row = (url: string) => page.locator(`li[data-url="${url}"]`);
    expect(await row("https://demo-store.fr/").innerText()).toContain(
      "Indexed in workspace demo-store-fr",
    );
    expect(await row("https://demo-store.example.com/de/").innerText()).toContain(
      "Not indexed yet",
    );
    await page.close();
  });
});
