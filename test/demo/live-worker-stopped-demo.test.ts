/**
 * A stopped live worker is shown as such, in Chromium against the running demo: with no worker
 * running (LIVE_WORKER=separate and no `npm run worker`), a purchase's change waits, and once it
 * has waited longer than a worker's silence allows (`SILENT_AFTER_MS`, a minute) the Dashboard says
 * "Live updates stopped at …: no worker has taken the shop's changes for N minutes" instead of "1
 * product change waiting" for ever; once a worker runs (the loop `npm run worker` runs, started
 * here in the demo's process) the line goes and the product is out of stock in the emulator's
 * index. The minute is not waited out: the waiting change is dated two minutes back, the step a
 * clock would take.
 */
import { describe, expect, it, vi } from "vitest";
import { reloadUntil, useDemoInBrowser } from "../../testkit/demo-browser";
import { DEMO_SHOP } from "../../dev/demo/admin-demo";
import { startLiveWorker } from "../../app/sync/live/worker.server";
import prisma from "../../app/models/db.server";
import { SILENT_AFTER_MS } from "../../app/sync/live/worker-beat";

vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({ products: 12, env: { LIVE_WORKER: "separate" } });

interface Variant {
  id: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  inventoryItem: { tracked: boolean };
}

describe("the Dashboard when no live worker runs", () => {
  it("says live updates stopped within 2 minutes, and clears once a worker takes the changes", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const product = session.demo.shopify.state.products().find((candidate) => {
      const variants = candidate.variants as unknown as Variant[];
      return (
        candidate.status === "ACTIVE" &&
        typeof candidate.onlineStoreUrl === "string" &&
        variants.every((v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY") &&
        variants.some((v) => v.inventoryQuantity > 0)
      );
    })!;
    const productId = /(\d+)$/.exec(product.id as string)![1]!;
    const indexed = () =>
      session.demo.emulator.state
        .workspace("professional", session.demo.workspaceId)
        ?.products.find((p) => String(p.id) === productId);
    expect(indexed()?.stock_status).not.toBe("outofstock");

    const soldOutAt = Date.now();
    for (const variant of product.variants as unknown as Variant[]) {
      if (variant.inventoryQuantity > 0)
        session.demo.shopify.state.purchase(variant.id, variant.inventoryQuantity);
    }

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    const stopped = page.getByTestId("live-stopped");
    const waiting = () =>
      Promise.all([
        prisma.pendingChange.count({ where: { shopDomain: DEMO_SHOP } }),
        prisma.pendingLookup.count({ where: { shopDomain: DEMO_SHOP } }),
      ]).then(([changes, lookups]) => changes + lookups);
    await expect.poll(waiting, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.reload();
    expect(await stopped.isVisible()).toBe(false);

    const twoMinutesAgo = { receivedAt: new Date(soldOutAt - 2 * SILENT_AFTER_MS) };
    await prisma.pendingChange.updateMany({
      where: { shopDomain: DEMO_SHOP },
      data: twoMinutesAgo,
    });
    await prisma.pendingLookup.updateMany({
      where: { shopDomain: DEMO_SHOP },
      data: twoMinutesAgo,
    });
    await reloadUntil(page, () => stopped.isVisible());
    expect(await stopped.innerText()).toMatch(
      /^Live updates stopped at \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC: no worker has taken the shop's changes for \d+ minutes?\. The changes are kept/,
    );

    const worker = startLiveWorker({ pollMs: 200, coalesceMs: 200 });
    try {
      await reloadUntil(page, async () => !(await stopped.isVisible()));
      await reloadUntil(page, async () => indexed()?.stock_status === "outofstock");
    } finally {
      await worker.stop();
      await page.close();
    }
  });
});
