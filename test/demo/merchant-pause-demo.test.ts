/**
 * The merchant's own pause (issue 26, item 2), in Chromium against the running demo: "Pause
 * syncing" asks first and says what it does; paused, the Dashboard says since when and that the
 * store's changes are kept; a product changed in the store (its webhook answered 200) stays in
 * the outbox and the emulator's index keeps the old title although a live worker served the shop,
 * its maintenance asked the service about paused shops and the scheduled full sync looked for due
 * shops; Resync says syncing is paused and runs nothing; "Resume syncing" lifts the pause, the
 * kept change reaches the index and the banner goes.
 *
 * The demo runs no live worker of its own (LIVE_WORKER=separate): the test starts one when it
 * needs one, and stops it after a round of its loop, so "the worker served the shop and sent
 * nothing" is known, not waited for.
 */
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { reloadUntil, useDemoInBrowser } from "../../testkit/demo-browser";
import { startLiveWorker, type LiveWorker } from "../../app/sync/live/worker.server";
import { reconcileDueShops } from "../../app/sync/full/scheduled-full-sync.server";
import { processLeases } from "../../app/sync/engine/process-leases.server";

vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({
  products: 12,
  env: { LIVE_WORKER: "separate" },
  artifacts: "merchant-pause",
});

const workerOptions = { pollMs: 100, coalesceMs: 0, maintenanceEveryMs: 0 };

/** Runs a live worker until it has finished rounds of its loop, then stops it (and its serving). */
async function oneWorkerPass(): Promise<void> {
  const worker: LiveWorker = startLiveWorker(workerOptions);
  const started = Date.now();
  try {
    await vi.waitFor(() => expect(worker.lastLoopAt() - started).toBeGreaterThan(500), {
      timeout: 30_000,
      interval: 50,
    });
  } finally {
    await worker.stop();
  }
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).replace(/\s+/g, " ").trim();

describe("Pause syncing on the Dashboard", () => {
  it("keeps the store's changes out of the index until the merchant resumes, then sends them", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const state = session.demo.shopify.state;
    const workspace = () =>
      session.demo.emulator.state.workspace("professional", session.demo.workspaceId)!;
    const product = state
      .products()
      .find((p) => workspace().products.some((indexed) => indexed.name === p.title))!;
    const productId = /(\d+)$/.exec(String(product.id))![1]!;
    const indexedName = () =>
      workspace().products.find((indexed) => String(indexed.id) === productId)?.name;
    const before = String(product.title);
    expect(indexedName()).toBe(before);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(session.demo.adminUrl);

    // Asked first, with what a pause does.
    await page.getByRole("button", { name: "Pause syncing" }).click();
    expect(await text(page, "#pause-explained")).toBe(
      "The index stays as it is and shoppers keep getting answers from it, but changes in your store are not sent to it until you resume. The changes are kept meanwhile and sent when you press Resume syncing.",
    );
    await page.getByRole("button", { name: "Pause syncing now" }).click();
    await page.locator("#paused-by-you").waitFor();

    // Still paused after a reload, with since when.
    await page.reload();
    const banner = page.locator("#paused-by-you");
    expect(await text(page, "#paused-by-you")).toMatch(
      /^Syncing is paused since \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC \(you paused it\)\. Changes in your store are kept and sent when you resume\.$/,
    );
    // The service-refusal banner ("Sync is paused" with Open Settings) is not the merchant's.
    expect(await page.getByRole("button", { name: "Open Settings" }).count()).toBe(0);
    // The Sync card's badge says whose pause it is, and is not drawn as a fault (red).
    const badge = page.getByText("paused by you", { exact: true });
    expect(await badge.count()).toBe(1);
    expect(await badge.evaluate((node) => node.closest("[class*=Badge]")?.className)).not.toMatch(
      /Critical/,
    );
    await session.shot(page, "paused");
    // At a phone's width the banner and its button fit.
    await page.setViewportSize({ width: 375, height: 900 });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1,
      ),
    ).toBe(true);
    await session.shot(page, "paused-375");
    await page.setViewportSize({ width: 1280, height: 1000 });

    // Changed in the store: Shopify's webhook is answered 200, so the change is kept.
    const renamed = `${before}, renamed while paused`;
    state.updateProduct(product.id, { title: renamed });
    const delivery = await state.sendWebhook("products/update", productId);
    expect(delivery.status).toBe(200);

    // A live worker serves the shop (its chores ask the service about paused shops too), and the
    // scheduled full sync looks for due shops: nothing is sent, nothing lifts the pause.
    await oneWorkerPass();
    expect(indexedName()).toBe(before);
    expect(await reconcileDueShops(processLeases(), 0)).toEqual([]);
    await page.reload();
    expect(await banner.isVisible()).toBe(true);
    expect(await page.getByTestId("live-pending").innerText()).toBe("1");

    // Resync while paused says so and runs nothing.
    const exportsBefore = state.bulkOperations().length;
    await page.getByRole("button", { name: "Resync" }).click();
    await page.locator("#dashboard-result").waitFor();
    expect(await text(page, "#dashboard-result")).toBe(
      "Syncing is paused (you paused it): nothing is sent to the search index. Press Resume syncing to send your store's changes, then Resync if you still want a full sync.",
    );
    expect(state.bulkOperations().length).toBe(exportsBefore);
    expect(indexedName()).toBe(before);

    // Resumed: the kept change goes out and the banner is gone.
    await page.getByRole("button", { name: "Resume syncing" }).click();
    await page.locator("#dashboard-result").filter({ hasText: "Syncing resumed" }).waitFor();
    // The banner goes as the page redraws with the shop's new state (a moment after the answer).
    await banner.waitFor({ state: "detached", timeout: 30_000 }).catch(() => undefined);
    expect(await banner.count()).toBe(0);
    const worker = startLiveWorker(workerOptions);
    try {
      await reloadUntil(page, async () => indexedName() === renamed);
    } finally {
      await worker.stop();
    }
    await page.reload();
    expect(await banner.count()).toBe(0);
    expect(await page.getByText("paused by you", { exact: true }).count()).toBe(0);
    expect(await page.getByTestId("live-pending").innerText()).toBe("0");
    // Caught up from the outbox, not by a full export.
    expect(state.bulkOperations().length).toBe(exportsBefore);
    await session.shot(page, "resumed");
    await page.close();
  });
});
