/**
 * The merchant sees what the check of changed products repaired: in Chromium against the running
 * demo (its app server runs the background work, with the check every 3 s instead of every hour),
 * a product sold out while its inventory_levels/update webhooks were lost becomes outofstock in
 * the service's index, and the dashboard names it as repaired; a product deleted while its
 * products/delete was lost leaves the index, and the dashboard names it as removed.
 */
import { describe, expect, it, vi } from "vitest";
import { escapeRegExp, reloadUntil, useDemoInBrowser } from "../../testkit/demo-browser";

vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({
  products: 40,
  env: { RECONCILE_CHECK_EVERY_MINUTES: "0.05" },
});

interface Variant {
  id: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  inventoryItem: { tracked: boolean };
}

describe("the dashboard's last check", () => {
  it("says there were no differences, then names a sold-out product whose webhooks were lost", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    // The dashboard shows what was true when it loaded: reload until the check has run.
    const lastCheck = page.getByTestId("last-check");
    await reloadUntil(page, async () => /no differences\.$/.test(await lastCheck.innerText()));
    expect(await lastCheck.innerText()).toMatch(
      /^Last check .* \(changed products, \d+ compared\): no differences\.$/,
    );

    const product = session.demo.shopify.state.products().find((candidate) => {
      const variants = candidate.variants as unknown as Variant[];
      return (
        candidate.status === "ACTIVE" &&
        typeof candidate.onlineStoreUrl === "string" &&
        variants.every((v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY") &&
        variants.some((v) => v.inventoryQuantity > 0)
      );
    })!;
    for (const variant of product.variants as unknown as Variant[]) {
      if (variant.inventoryQuantity > 0) {
        session.demo.shopify.state.purchase(variant.id, variant.inventoryQuantity, {
          webhook: false,
        });
      }
    }

    const repaired = page.getByTestId("last-repair");
    await reloadUntil(page, () => repaired.isVisible());
    expect(await repaired.innerText()).toMatch(
      new RegExp(
        `^Last repair .*\\(changed products, \\d+ compared\\): 1 repaired: ${escapeRegExp(product.title as string)}\\.$`,
      ),
    );
    const numeric = product.id.slice(product.id.lastIndexOf("/") + 1);
    const indexed = () =>
      session.demo.emulator.state
        .workspace("professional", session.demo.workspaceId)
        ?.products.find((item) => String(item.id) === numeric);
    for (let attempt = 0; indexed()?.stock_status !== "outofstock"; attempt++) {
      if (attempt > 240) throw new Error("the index never said outofstock");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await session.shot(page, "dashboard-last-repair");
  });
});

describe("a product deleted while its products/delete was lost", () => {
  it("leaves the index at the next check, and the dashboard names it as removed", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const numericOf = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
    const indexed = (id: string) =>
      session.demo.emulator.state
        .workspace("professional", session.demo.workspaceId)
        ?.products.find((item) => String(item.id) === id);
    const product = session.demo.shopify.state
      .products()
      .find((candidate) => indexed(numericOf(candidate.id)) !== undefined)!;
    expect(session.demo.shopify.state.deleteProduct(product.id, { webhook: false })).toBe(true);

    await page.goto(session.demo.adminUrl);
    const repaired = page.getByTestId("last-repair");
    const removed = new RegExp(
      `^Last repair .*\\(changed products, \\d+ compared\\): 1 repaired: ${escapeRegExp(product.title as string)} \\(removed\\)\\.$`,
    );
    await reloadUntil(
      page,
      async () => (await repaired.isVisible()) && removed.test(await repaired.innerText()),
    );
    for (let attempt = 0; indexed(numericOf(product.id)) !== undefined; attempt++) {
      if (attempt > 240) throw new Error("the deleted product never left the index");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await session.shot(page, "dashboard-lost-delete-repaired");
  });
});
