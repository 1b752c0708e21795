/**
 * The demo as a person meets it, in Chromium: the admin makes no request off the machine (fonts
 * included), "Add the chat to your theme" leads to the storefront preview, and the preview sells
 * what its copy and starter prompts talk about, with pictures served locally and a catalogue
 * without identical duplicates or free snowboards.
 */
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_PROMPTS } from "../../dev/demo/admin-demo";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { openChat, ui, waitIdle } from "../../testkit/widget-stack";

vi.setConfig({ testTimeout: 180_000 });

const session = useDemoInBrowser({ products: 120, waitForFirstSync: true });
const { shot } = session;

const LOOPBACK = /^(https?|wss?):\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//;
const local = (url: string) => LOOPBACK.test(url) || /^(data|blob|about):/.test(url);

/** Every request the page makes, from the first one on. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

describe("the demo stays on the machine", () => {
  it("the admin's pages make no request that is not loopback, fonts included", async () => {
    const page = await session.browser.newPage();
    const urls = recordRequests(page);
    for (const path of ["", "/settings", "/inbox", "/insights"]) {
      await page.goto(`${session.demo.adminUrl}${path}`);
      await page.waitForLoadState("networkidle");
    }
    expect(urls.length).toBeGreaterThan(4);
    expect(urls.filter((url) => !local(url))).toEqual([]);
    await page.close();
  });

  it("“Add the chat to your theme” leads to the storefront preview", async () => {
    const page = await session.browser.newPage();
    await page.goto(session.demo.adminUrl);
    await page.getByRole("link", { name: "Add the chat to your theme" }).click();
    await page.waitForURL((url) => url.href.startsWith(session.demo.storefrontUrl));
    await page.locator("[data-chat-widget]").waitFor({ state: "attached" });
    await page.close();
  });
});

describe("the demo store", () => {
  it("has no two products with the same name, and no product for nothing", () => {
    const index = session.demo.emulator.state.workspace("professional", session.demo.workspaceId)!;
    const names = index.products.map((product) => String(product.name).toLowerCase());
    expect(names.length).toBeGreaterThan(50);
    expect(new Set(names).size).toBe(names.length);
    const free = index.products.filter((product) => !(Number(product.price) > 0));
    expect(free.map((product) => product.name)).toEqual([]);
  });

  it("the preview's copy and starter prompts are about what it sells, with local pictures", async () => {
    for (const [n, prompt] of DEMO_PROMPTS.entries()) {
      // A shopper new to the store each time: the starter prompts show before the first question.
      const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const urls = recordRequests(page);
      await page.goto(session.demo.storefrontUrl);
      expect(await page.locator("main").innerText()).not.toMatch(/café|ceramic|coffee/i);
      await openChat(page);
      const w = ui(page);
      expect(await w.chips.allTextContents()).toEqual(DEMO_PROMPTS);
      await w.chips.filter({ hasText: prompt }).click();
      await waitIdle(page);
      // The prompt finds products of the store, and their pictures load from the preview itself.
      const cards = w.dialog.locator(".cards .card");
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      const pictures = w.dialog.locator(".cards .card img");
      expect(await pictures.count()).toBeGreaterThan(0);
      await expect
        .poll(() =>
          pictures.evaluateAll((images) =>
            images.every((image) => (image as HTMLImageElement).naturalWidth > 0),
          ),
        )
        .toBe(true);
      expect(urls.filter((url) => !local(url))).toEqual([]);
      await shot(page, `storefront-prompt-${n + 1}`);
      await context.close();
    }
  });
});
