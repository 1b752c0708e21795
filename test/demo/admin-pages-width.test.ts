/**
 * Every admin page reads at a phone's width and a laptop's (issue 26, item 7): in Chromium against
 * the running demo, after its first sync and with a shopper's request in the Inbox, each page at
 * 375 px and 1280 px has nothing wider than the window (no sideways scrolling, nothing cut), and a
 * screenshot of each is kept in test-artifacts/admin-pages/ to look at. The committed set in
 * docs/screenshots/ (linked from docs/admin.md) is written by the same run with
 * UPDATE_SCREENSHOTS=1, and the test checks that it has every admin page at both widths.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, openChat, ui, waitIdle } from "../../testkit/widget-stack";

vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({
  products: 20,
  artifacts: "admin-pages",
  waitForFirstSync: true,
});

const PAGES = [
  ["dashboard", ""],
  ["inbox", "/inbox"],
  ["insights", "/insights"],
  ["settings", "/settings"],
] as const;

const WIDTHS = [375, 1280] as const;
const MESSAGE =
  "Could you tell me whether the extra-large waterproof jacket comes in dark green, and when it ships?";
const SCREENSHOTS = path.resolve("docs/screenshots");
const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";

/** The admin's pages: the app.* routes that render one (not the action-only ones). */
function adminRoutes(): string[] {
  const routes = path.resolve("app/routes");
  return readdirSync(routes)
    .filter((file) => /^app\..+\.tsx$/.test(file))
    .filter((file) => /export default function/.test(readFileSync(path.join(routes, file), "utf8")))
    .map((file) => (file === "app._index.tsx" ? "" : `/${file.slice(4, -4)}`))
    .sort();
}

describe("every admin page", () => {
  it("is in the width check and in the committed screenshot set", () => {
    expect(PAGES.map(([, route]) => route).sort()).toEqual(adminRoutes());
    if (UPDATE) return;
    const missing = PAGES.flatMap(([name]) => WIDTHS.map((width) => `${name}-${width}.png`)).filter(
      (file) => !existsSync(path.join(SCREENSHOTS, file)),
    );
    expect(missing, "run with UPDATE_SCREENSHOTS=1 to write them").toEqual([]);
  });

  it("fits 375 px and 1280 px without sideways scrolling", async () => {
    // A shopper with long details asks for a person, so the Inbox has an entry to lay out.
    const shopper = await session.browser.newPage();
    await shopper.goto(session.demo.storefrontUrl);
    await openChat(shopper);
    await ask(shopper, "Can I talk to a person?");
    const form = ui(shopper).dialog.locator(".offer form");
    await form.getByRole("textbox", { name: "Name" }).fill("Wilhelmina Longname-Fitzgerald");
    await form
      .getByRole("textbox", { name: "Email" })
      .fill("wilhelmina.longname-fitzgerald@example.com");
    await form.getByRole("textbox", { name: "Message" }).fill(MESSAGE);
    await form.getByRole("button", { name: "Send" }).click();
    await waitIdle(shopper);
    await shopper.close();
    // The reply's subject is cut between words, not in one ("…dark gr").
    const inbox = await session.browser.newPage();
    await inbox.goto(`${session.demo.adminUrl}/inbox`);
    const reply = inbox.getByRole("link", { name: "Reply by email" }).first();
    const subject = new URL((await reply.getAttribute("href"))!).searchParams.get("subject");
    expect(subject).toBe(
      "Re: Could you tell me whether the extra-large waterproof jacket comes in dark…",
    );
    await inbox.close();
    const overflowing: string[] = [];
    if (UPDATE) mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of WIDTHS) {
      const page = await session.browser.newPage({ viewport: { width, height: 900 } });
      for (const [name, route] of PAGES) {
        await page.goto(`${session.demo.adminUrl}${route}`);
        await page.waitForLoadState("networkidle");
        const wide = await page.evaluate(() => {
          const limit = document.documentElement.clientWidth;
          const found: string[] = [];
          if (document.documentElement.scrollWidth > limit + 1)
            found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
          for (const element of document.querySelectorAll<HTMLElement>("body *")) {
            const box = element.getBoundingClientRect();
            if (
              box.width > 0 &&
              box.right > limit + 1 &&
              getComputedStyle(element).position !== "fixed"
            )
              found.push(
                `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${(element.innerText ?? "").slice(0, 40)}" ends at ${Math.round(box.right)} px`,
              );
          }
          return found.slice(0, 5);
        });
        for (const line of wide) overflowing.push(`${name} at ${width} px: ${line}`);
        await session.shot(page, `${name}-${width}`);
        if (UPDATE)
          await page.screenshot({
            path: path.join(SCREENSHOTS, `${name}-${width}.png`),
            fullPage: true,
          });
      }
      await page.close();
    }
    expect(overflowing).toEqual([]);
  });
});
