/**
 * The merchant sees what the daily full sweep repaired, by name: in Chromium against the running
 * demo (its app server runs the background work, with the sweep every 3.6 s instead of every day
 * and the hourly check off), a product deleted while its products/delete was lost leaves the
 * service's index at the next sweep, and the dashboard names it as removed by the whole-store check.
 */
import { describe, expect, it, vi } from "vitest";
import { escapeRegExp, reloadUntil, useDemoInBrowser } from "../../testkit/demo-browser";

vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({
  products: 30,
  env: { RECONCILE_EVERY_HOURS: "0.001", RECONCILE_CHECK_EVERY_MINUTES: "0" },
});

describe("the dashboard after a full sweep", () => {
  it("names a product deleted while its products/delete was lost as removed", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const { demo } = session;
    const numericOf = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
    const indexed = (id: string) =>
      demo.emulator.state
        .workspace("professional", demo.workspaceId)
        ?.products.find((item) => String(item.id) === id);
    const product = demo.shopify.state
      .products()
      .find((candidate) => indexed(numericOf(candidate.id)) !== undefined)!;
    expect(demo.shopify.state.deleteProduct(product.id, { webhook: false })).toBe(true);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(demo.adminUrl);
    // The sweep that repaired it is the last check, or (once another ran) the last repair.
    const removed = new RegExp(
      `^Last (check|repair) .*\\(whole store, \\d+ compared\\): 1 repaired: ${escapeRegExp(product.title as string)} \\(removed\\)\\.$`,
    );
    const lines = async () =>
      Promise.all(
        ["last-check", "last-repair"].map(async (id) => {
          const line = page.getByTestId(id);
          return (await line.isVisible()) ? await line.innerText() : "";
        }),
      );
    await reloadUntil(page, async () => (await lines()).some((line) => removed.test(line)));
    expect(indexed(numericOf(product.id))).toBeUndefined();
    await session.shot(page, "dashboard-full-sweep-repaired");
  });
});
