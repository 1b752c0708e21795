/**
 * What a merchant does in Settings and on the Dashboard, in Chromium against the running demo:
 * keys typed into the Settings form, Save, Resync, reload; outcomes checked on the page and in
 * the service emulator's index (never in the app's tables).
 */
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { indexedIds } from "../../testkit/emulator";
import { ask, openChat, ui } from "../../testkit/widget-stack";

// Each flow waits for real syncs on a shared, loaded machine; none depends on timing.
vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({ products: 60, saveKeys: false, artifacts: "merchant" });
const { shot, saveKeys } = session;

const CHOICES = ["Products", "Online store pages", "Blog articles"] as const;

async function choicesOn(page: Page): Promise<boolean[]> {
  return Promise.all(CHOICES.map((label) => page.getByLabel(label).isChecked()));
}

/** Waits on the dashboard until the latest sync of this kind has finished. */
async function waitForSync(page: Page, kind: string): Promise<void> {
  await page.goto(session.demo.adminUrl);
  await page.getByText(`Last sync: ${kind}, finished`).waitFor({ timeout: 90_000 });
}

describe("Settings keeps exactly what the form shows", () => {
  it("the first save syncs everything chosen, and Save without changes keeps every choice", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    expect(await choicesOn(page)).toEqual([true, true, true]);

    await saveKeys(page, "svc_sk_test_professional", "svc_pk_test_professional");
    await waitForSync(page, "First sync");
    const first = indexedIds(session.demo.emulator, "professional", session.demo.workspaceId);
    expect(first.products.length).toBeGreaterThan(0);
    expect(first.posts.length).toBeGreaterThan(0);

    // Save again, changing nothing, and reload: every box is still ticked.
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();
    await page.reload();
    expect(await choicesOn(page)).toEqual([true, true, true]);
    await shot(page, "settings-after-second-save");

    // The next Resync keeps pages and articles in the index.
    await page.goto(session.demo.adminUrl);
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Resync started.").waitFor();
    await waitForSync(page, "Resync");
    expect(indexedIds(session.demo.emulator, "professional", session.demo.workspaceId)).toEqual(
      first,
    );
  });

  it("unticking a box is kept too, and ticking it again brings it back", async () => {
    const page = await session.browser.newPage();
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Blog articles").uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // Unticking removes the articles from the index: asked first (test/demo/settings-controls.test.ts).
    await page.getByRole("button", { name: "Remove and save" }).click();
    await page.getByText("Settings saved").waitFor();
    // Keyboard and screen-reader users land on the answer, not at the top of the page.
    await page.waitForFunction(() =>
      document.activeElement
        ?.closest("[role=status], [role=alert], .Polaris-Banner")
        ?.textContent?.includes("Settings saved"),
    );
    await page.reload();
    expect(await choicesOn(page)).toEqual([true, true, false]);
    await page.getByLabel("Blog articles").check();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved").waitFor();
    await page.reload();
    expect(await choicesOn(page)).toEqual([true, true, true]);
    // The articles are sent again before the next test presses Resync.
    await waitForSync(page, "Settings change");
  });
});

describe("Settings and the Dashboard say what is true, in a merchant's words", () => {
  it("names the storefront domain, says what the publishable key is for, and focuses the field to fix", async () => {
    const page = await session.browser.newPage();
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByText("(made from your storefront domain, demo-store.example.com)").waitFor();
    await page.getByText("It can only search and chat, so it is safe to show.").waitFor();
    expect(await page.getByText("Read-only").count()).toBe(0);

    await page.getByLabel("Secret key").fill("svc_pk_test_professional");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("The settings were not saved").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("secretKey");
  });
});

describe("a key the service no longer accepts", () => {
  it("pauses the shop at the next Resync even when nothing changed, and saving a working key resumes it", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    session.demo.emulator.state.revokeKey("svc_sk_test_professional");
    const before = session.demo.emulator.state.requests().length;
    await page.goto(session.demo.adminUrl);
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Sync is paused").waitFor({ timeout: 90_000 });
    expect(await page.getByText("Resync started.").count()).toBe(0);
    await page.reload();
    await page.getByText("Sync is paused").waitFor();
    expect(await page.getByText("paused", { exact: true }).count()).toBe(1);
    expect(await page.getByText("connected", { exact: true }).count()).toBe(0);
    const refused = session.demo.emulator.state.requests().slice(before);
    expect(refused.some((r) => r.status === 401)).toBe(true);
    // No green "Resync started." under the pause banner; a paused shop's Resync says what happens.
    expect(await page.getByText("Resync started.").count()).toBe(0);
    await page.getByRole("button", { name: "Resync" }).click();
    await page
      .getByText(
        "The app is checking your secret key with the search service first. If the service accepts it, the sync runs and the pause ends; if not, syncing stays paused",
      )
      .waitFor();
    await page.getByText(/^Last sync: Resync, stopped/).waitFor({ timeout: 90_000 });
    expect(await page.getByText("Resync started.").count()).toBe(0);
    await shot(page, "dashboard-paused-revoked-key");

    session.demo.emulator.state.restoreKey("svc_sk_test_professional");
    await saveKeys(page, "svc_sk_test_professional", "svc_pk_test_professional");
    await page.goto(session.demo.adminUrl);
    await page.getByText("connected", { exact: true }).waitFor();
    expect(await page.getByText("Sync is paused").count()).toBe(0);
  });
});

describe("another account's keys, or another workspace, move the index", () => {
  it("saving the Personal keys after the Professional ones sends everything there and empties the old place", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const before = indexedIds(session.demo.emulator, "professional", session.demo.workspaceId);
    expect(before.products.length).toBeGreaterThan(0);

    await saveKeys(page, "svc_sk_test_personal", "svc_pk_test_personal");
    await page.getByText("being sent to the new account or workspace").waitFor();
    await waitForSync(page, "Move to the new keys' account");

    expect(indexedIds(session.demo.emulator, "personal", session.demo.workspaceId)).toEqual(before);
    expect(indexedIds(session.demo.emulator, "professional", session.demo.workspaceId)).toEqual({
      products: [],
      posts: [],
    });
    // The plan and the quota are the new account's.
    await page.getByText("Connected on the Personal plan.").waitFor();
    // The banner says what moved (the account, not the workspace), and what it costs.
    await page.getByText("The catalogue moved to another service account").waitFor();
    await page
      .getByText(`the workspace stayed ${session.demo.workspaceId}.`, { exact: false })
      .waitFor();
    await page
      .getByText("Moving sends every item again, so it counts against this month's quota")
      .waitFor();
    await page.getByText(`Products: ${before.products.length} of 200`).waitFor();
    await shot(page, "dashboard-after-account-move");

    // The shopper's chat follows the keys: the storefront's chat asks the new account, whose
    // workspace now holds the catalogue (the old one is empty), and shows its products.
    const shopper = await session.browser.newPage();
    await shopper.goto(session.demo.storefrontUrl);
    expect(await ui(shopper).host.getAttribute("data-publishable-key")).toBe(
      "svc_pk_test_personal",
    );
    const product = session.demo.emulator.state.workspace("personal", session.demo.workspaceId)!
      .products[0]!;
    await openChat(shopper);
    await ask(shopper, `Tell me about ${product.name}`);
    await expect
      .poll(() => ui(shopper).dialog.locator(".cards .card").count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await shot(shopper, "storefront-after-account-move");
  });

  it("a workspace typed in Settings gets the catalogue, and the previous workspace is emptied", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const before = indexedIds(session.demo.emulator, "personal", session.demo.workspaceId);
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Use another workspace id").fill("other-store.example.com");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("being sent to the new account or workspace").waitFor();
    await waitForSync(page, "Move to workspace other-store-example-com");
    expect(indexedIds(session.demo.emulator, "personal", "other-store-example-com")).toEqual(
      before,
    );
    expect(indexedIds(session.demo.emulator, "personal", session.demo.workspaceId)).toEqual({
      products: [],
      posts: [],
    });
    await page
      .getByText(
        new RegExp(
          `^The catalogue moved from workspace ${session.demo.workspaceId} to other-store-example-com on \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} UTC\\.$`,
        ),
      )
      .waitFor();
    await shot(page, "dashboard-after-workspace-move");

    // Then the Professional keys again, in that workspace: the banner tells of this last move
    // (the account), not of the workspace move before it.
    await saveKeys(page, "svc_sk_test_professional", "svc_pk_test_professional");
    await waitForSync(page, "Move to the new keys' account");
    await page.getByText("The catalogue moved to another service account").waitFor();
    expect(await page.getByText(`from workspace ${session.demo.workspaceId}`).count()).toBe(0);
    await page.getByText("Connected on the Professional plan.").waitFor();

    // A later Resync: the move is no longer news, and its banner goes.
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Resync started.").waitFor();
    await waitForSync(page, "Resync");
    expect(await page.getByText("The catalogue moved").count()).toBe(0);
  });
});
