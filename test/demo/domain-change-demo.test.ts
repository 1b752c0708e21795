/**
 * The shop's primary domain changes in the fake store (which sends shop/update as Shopify does),
 * in Chromium against the running demo: the storefront chat keeps answering with products, now
 * from the new domain's workspace (the app-data metafield the theme reads names it), and the
 * Dashboard says where the catalogue is.
 */
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_PROMPTS } from "../../dev/demo/admin-demo";
import { escapeRegExp, reloadUntil, useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, openChat, ui } from "../../testkit/widget-stack";
import { runningBackgroundWork } from "../../app/background.server";

vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 30,
  waitForFirstSync: true,
  artifacts: "domain-change",
});

const NEW_DOMAIN = "shop.demo-renamed.example";
const NEW_WORKSPACE = "shop-demo-renamed-example";
/** What the issue asks: the chat on the new domain answers within 2 minutes of the change. */
const WITHIN_MS = 120_000;

/** The workspace the chat's app-data metafield names (what the theme's app embed reads). */
function metafieldWorkspace(): string | undefined {
  const saved = session.demo.shopify.state.metafields().find((m) => m.key === "config");
  return saved ? (JSON.parse(saved.value) as { workspaceId?: string }).workspaceId : undefined;
}

/** Opens the storefront, asks the chat a starter question, and returns the product cards' links. */
async function chatProductLinks(page: Page): Promise<{ workspace: string; links: string[] }> {
  await page.goto(session.demo.storefrontUrl);
  const workspace = (await ui(page).host.getAttribute("data-workspace-id")) ?? "";
  await openChat(page);
  await ask(page, DEMO_PROMPTS[0]!);
  const links = await ui(page)
    .dialog.locator(".cards .card a[href]")
    .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  return { workspace, links };
}

describe("the storefront's primary domain changes", () => {
  it("the chat answers with products from the new domain's workspace, and the Dashboard says where the catalogue is", async () => {
    const oldWorkspace = session.demo.workspaceId;
    expect(metafieldWorkspace()).toBe(oldWorkspace);
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const before = await chatProductLinks(page);
    expect(before.workspace).toBe(oldWorkspace);
    expect(before.links.length).toBeGreaterThan(0);

    const delivery = await session.demo.shopify.state.setPrimaryDomain(NEW_DOMAIN);
    expect(delivery?.status).toBe(200);

    // Every few seconds a shopper opens the storefront and asks: the chat must never come back
    // empty, and within 2 minutes it asks the new workspace, with links on the new domain.
    const deadline = Date.now() + WITHIN_MS;
    let seen = before;
    for (;;) {
      seen = await chatProductLinks(page);
      expect(seen.links.length, `the chat on workspace ${seen.workspace}`).toBeGreaterThan(0);
      if (seen.workspace === NEW_WORKSPACE) break;
      expect(Date.now(), "the storefront never asked the new workspace").toBeLessThan(deadline);
      await page.waitForTimeout(2_000);
    }
    expect(seen.links.every((href) => new URL(href).host === NEW_DOMAIN)).toBe(true);
    expect(metafieldWorkspace()).toBe(NEW_WORKSPACE);
    await session.shot(page, "storefront-chat-on-new-domain");

    const admin = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await admin.goto(session.demo.adminUrl);
    const moved = admin.getByText(
      new RegExp(
        `The catalogue moved from workspace ${escapeRegExp(oldWorkspace)} to ${escapeRegExp(NEW_WORKSPACE)} on .+; the storefront chat asks workspace ${escapeRegExp(NEW_WORKSPACE)}\\.`,
      ),
    );
    await reloadUntil(admin, async () => (await moved.count()) > 0);
    await admin.getByText("Your storefront domain changed").first().waitFor();
    await admin.getByText(`Storefront domain: ${NEW_DOMAIN}`).waitFor();
    expect(await admin.getByText("storefront empty", { exact: true }).count()).toBe(0);

    // The old workspace is emptied only now, by the live worker's chores (every minute), here
    // asked for at its next round.
    runningBackgroundWork()!.worker!.maintainAtNextRound();
    await expect
      .poll(
        () =>
          session.demo.emulator.state.workspace("professional", oldWorkspace)?.products.length ?? 0,
        { timeout: WITHIN_MS, interval: 1_000 },
      )
      .toBe(0);
    await reloadUntil(
      admin,
      async () => (await admin.getByText("The old place has been emptied.").count()) > 0,
    );
    await session.shot(admin, "dashboard-after-domain-change");
  });
});
