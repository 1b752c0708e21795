/**
 * When the month's chat messages are used up, the storefront chat does not show an error: it
 * offers the store's own search for the shopper's words and the store's contact form, and both
 * lead where they say, in a browser against the running demo.
 */
import { describe, expect, it } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, openChat, ui } from "../../testkit/widget-stack";

const session = useDemoInBrowser({
  products: 10,
  waitForFirstSync: true,
  artifacts: "storefront-quota",
});

describe("the storefront chat with no chat messages left this month", () => {
  it("offers the store's search for the shopper's words and the contact form instead of an error", async () => {
    const emulator = session.demo.emulator.state;
    const account = emulator.account("professional")!;
    emulator.spendQuota(
      "professional",
      "chatMessages",
      account.quotas.chatMessages! - account.usage.used.chatMessages!,
    );

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.storefrontUrl);
    await openChat(page);
    await ask(page, "blue ceramic mug");
    const { dialog } = ui(page);
    await expect
      .poll(() => dialog.locator(".log").innerText())
      .toContain("Our assistant can't answer right now, but you can still find what you need:");
    expect(await dialog.getByText("The chat is not available right now.").count()).toBe(0);
    expect(await dialog.getByRole("button", { name: "Retry" }).count()).toBe(0);
    await session.shot(page, "chat-quota-fallback");

    await dialog.getByRole("link", { name: "Search the store for “blue ceramic mug”" }).click();
    await page.getByText("Search results for “blue ceramic mug”").waitFor();
    expect(new URL(page.url()).pathname).toBe("/search");
    expect(new URL(page.url()).searchParams.get("q")).toBe("blue ceramic mug");

    await openChat(page);
    await ask(page, "do you ship to Norway?");
    await ui(page).dialog.getByRole("link", { name: "Send us a message" }).click();
    await page.getByRole("heading", { name: "Contact" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/pages/contact");
    expect(await page.getByLabel("Message").count()).toBe(1);
    await page.close();
  });
});
