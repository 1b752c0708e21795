/**
 * Search as you type, in headless Chromium against the emulator and the preview storefront,
 * whose header holds the search box block as a theme would (blocks/search-box.liquid). Checked
 * where the shopper sees it: the suggestions, where Enter leads, the page's own search.
 */
import type { Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SECRET_KEY, WORKSPACE_ID } from "../../testkit/widget-fixtures";
import {
  audit,
  control,
  openPage,
  pageErrors,
  screenshot,
  startStack,
  type Stack,
} from "../../testkit/widget-stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterEach(async () => {
  await fetch(`${stack.emulator.url}/__emulator/faults`, { method: "DELETE" });
});

afterAll(async () => {
  await stack?.close();
});

function box(page: Page) {
  // A plain search field until the shopper reaches for it, a combobox from then on.
  const input = page.getByLabel("Search", { exact: true });
  const list = page.getByRole("listbox");
  return { input, list, options: list.getByRole("option") };
}

/** The search requests the page sent to the service, with their text and how they ended. */
function recordSearches(page: Page) {
  const searches: {
    request: Request;
    text: string;
    outcome: "pending" | "answered" | "aborted";
  }[] = [];
  const track = (request: Request, outcome: "answered" | "aborted") => {
    const entry = searches.find((s) => s.request === request);
    if (entry) entry.outcome = outcome;
  };
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/products/search")) {
      const body = JSON.parse(request.postData() ?? "{}") as { text: string };
      searches.push({ request, text: body.text, outcome: "pending" });
    }
  });
  page.on("requestfinished", (r) => track(r, "answered"));
  page.on("requestfailed", (r) => track(r, "aborted"));
  return searches;
}

const scripts = (page: Page) =>
  page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname),
  );

describe("search as you type", () => {
  it("loads nothing until the shopper reaches for the box, then suggests products and pages", async () => {
    const page = await openPage(stack, "?prompts=");
    await page.waitForLoadState("load");
    expect(await scripts(page)).not.toContain("/assets/chat-search.js");
    const { input, list, options } = box(page);
    await input.click();
    await input.pressSequentially("café");
    await list.waitFor();
    expect(await scripts(page)).toContain("/assets/chat-search.js");
    const products = list.getByRole("group", { name: "Products" });
    const mug = products.getByRole("option").filter({ hasText: "Café mug" });
    expect(await mug.locator("img").getAttribute("src")).toBe(
      new URL("/images/cafe-mug.svg", stack.preview.url).href,
    );
    expect(await mug.textContent()).toContain("€18.00");
    expect(await mug.textContent()).toContain("In stock");
    const pages = list.getByRole("group", { name: "Pages and articles" });
    expect(await pages.getByRole("option").allTextContents()).toEqual([
      "How we roast our café beans",
    ]);
    expect(await options.last().textContent()).toBe("Search for “café”");
    expect(await input.getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByRole("combobox", { name: "Search" }).count()).toBe(1);
    await screenshot(page, "search-suggestions");
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it("shows only the last text's results and aborts the requests it made stale", async () => {
    const page = await openPage(stack);
    const searches = recordSearches(page);
    // The first request is held at the service until the shopper has typed on.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route("**/products/search", async (route) => {
      if (first) {
        first = false;
        await held;
      }
      await route.continue().catch(() => undefined);
    });
    const { input, list, options } = box(page);
    await input.click();
    await input.pressSequentially("tea");
    await expect.poll(() => searches.length).toBe(1);
    // Typed fast, as a shopper does.
    await input.pressSequentially("pot");
    await expect.poll(() => searches.at(-1)?.text).toBe("teapot");
    await expect.poll(() => searches[0]!.outcome).toBe("aborted");
    release();
    await expect.poll(() => options.first().textContent()).toContain("Stoneware teapot");
    expect(await list.textContent()).toContain("Sold out");
    expect(await list.textContent()).not.toContain("Café mug");
    expect(searches.filter((s) => s.outcome === "answered").map((s) => s.text)).toEqual(["teapot"]);
    await page.context().close();
  });

  it("works with the keyboard alone (combobox pattern)", async () => {
    const page = await openPage(stack);
    const { input, list, options } = box(page);
    // Tab from the top of the page into the search box.
    await page.keyboard.press("Tab");
    for (let i = 0; i < 10 && !(await input.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("café");
    await list.waitFor();
    await page.keyboard.press("ArrowDown");
    const first = options.first();
    expect(await input.getAttribute("aria-activedescendant")).toBe(await first.getAttribute("id"));
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    expect(await input.getAttribute("aria-activedescendant")).toBe(
      await options.last().getAttribute("id"),
    );
    await page.keyboard.press("Escape");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    expect(await list.isHidden()).toBe(true);
    // Focus stayed in the input all along.
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(" mug");
    await list.waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/products/cafe-mug");
    await page.context().close();
  });

  it("leaves Enter to the theme's own search page", async () => {
    const page = await openPage(stack);
    const { input, list } = box(page);
    await input.click();
    await input.pressSequentially("café mug");
    await list.waitFor();
    await input.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search");
    expect(new URL(page.url()).searchParams.get("q")).toBe("café mug");
    expect(await page.locator(".theme-search").textContent()).toBe("Search results for “café mug”");
    await page.context().close();
  });

  it("says when nothing matches, and offers the store's search", async () => {
    const page = await openPage(stack);
    const { input, list, options } = box(page);
    await input.click();
    await input.pressSequentially("zzyzx");
    await list.waitFor();
    expect(await list.textContent()).toContain("No products match “zzyzx”.");
    expect(await options.allTextContents()).toEqual(["Search for “zzyzx”"]);
    // As the shopper reads it: the preview theme's own rules (p in capitals, letter-spaced divs)
    // do not reach the suggestions.
    expect(await list.innerText()).toContain("No products match “zzyzx”.");
    expect(await options.first().evaluate((e) => getComputedStyle(e).letterSpacing)).toBe("normal");
    await page.context().close();
  });

  for (const fault of [
    { status: 500, name: "fails" },
    { status: 429, retryAfter: 30, name: "answers 429" },
    { status: 403, code: "QUOTA_EXCEEDED", name: "has spent its quota" },
  ]) {
    it(`hands over to the theme's search when the service ${fault.name}`, async () => {
      await control(stack, "/faults", {
        status: fault.status,
        retryAfter: fault.retryAfter,
        code: fault.code,
        match: { path: "/products/search" },
      });
      const page = await openPage(stack);
      const searches = recordSearches(page);
      const { input, list, options } = box(page);
      await input.click();
      // One input event, so one search meets the fault: typed key by key on a slow machine, a
      // search for "caf" could take the fault and then be aborted by the next key.
      await input.fill("café");
      await list.waitFor();
      expect(await options.allTextContents()).toEqual(["Search for “café”"]);
      if (fault.status !== 500) {
        // Not asked again while it said to wait (429) or for the rest of the page (quota).
        await input.pressSequentially(" mug");
        await expect.poll(() => options.allTextContents()).toEqual(["Search for “café mug”"]);
        expect(searches.map((s) => s.text)).toEqual(["café"]);
      }
      await input.press("ArrowDown");
      await input.press("Enter");
      await page.waitForURL((url) => url.pathname === "/search");
      expect(pageErrors(page)).toEqual([]);
      await page.context().close();
    });
  }

  it("shows a hostile product as text and never follows a script URL", async () => {
    const res = await fetch(`${stack.emulator.url}/products`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${SECRET_KEY}`,
        "Content-Type": "application/json",
        "X-Workspace-ID": WORKSPACE_ID,
      },
      body: JSON.stringify({
        id: "p-hostile",
        name: '<img src=x onerror="window.__xss=1">Zebra mug',
        url: "javascript:window.__xss=2",
        image: "javascript:window.__xss=3",
        stock_status: "<b>instock</b>",
      }),
    });
    expect(res.ok).toBe(true);
    const page = await openPage(stack);
    const { input, list, options } = box(page);
    await input.click();
    await input.pressSequentially("zebra");
    await list.waitFor();
    const zebra = options.first();
    expect(await zebra.textContent()).toBe('<img src=x onerror="window.__xss=1">Zebra mug');
    expect(await list.locator("img").count()).toBe(0);
    await input.press("ArrowDown");
    await input.press("Enter");
    // A script URL is no link: the option leads to the theme's search instead.
    await page.waitForURL((url) => url.pathname === "/search");
    expect(await page.evaluate(() => "__xss" in window)).toBe(false);
    await page.context().close();
  });

  it("fits a 375 px screen, shifts no layout and passes axe", async () => {
    const page = await openPage(stack, "", { viewport: { width: 375, height: 700 } });
    await page.evaluate(() => {
      (window as unknown as { __shift: number }).__shift = 0;
      new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries()) {
          (window as unknown as { __shift: number }).__shift += (
            entry as unknown as { value: number }
          ).value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const before = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    const { input, list } = box(page);
    await input.click();
    await input.pressSequentially("café");
    await list.waitFor();
    const rect = await list.boundingBox();
    expect(rect!.x).toBeGreaterThanOrEqual(0);
    expect(rect!.x + rect!.width).toBeLessThanOrEqual(375);
    const main = await page.locator("main h1").boundingBox();
    await page.waitForTimeout(0);
    expect(await page.locator("main h1").boundingBox()).toEqual(main);
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(
      before,
    );
    await screenshot(page, "search-375");
    expect(
      (await audit(page)).map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`),
    ).toEqual([]);
    await page.context().close();
  });
});
