import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { indexedIds } from "../../testkit/emulator";

const session = useDemoInBrowser({ products: 150 });

/** What the Sync card says was sent of a kind (products, or pages and articles). */
async function sentCount(page: Page, kind: "product" | "post"): Promise<number> {
  return Number(await page.locator(`#count-${kind}-sent`).innerText());
}

describe("the offline demo in a browser", () => {
  it("shows the first sync, and Resync runs to the end with counts that match the index", async () => {
    expect(await session.demo.firstSync).toMatchObject({ state: "succeeded" });
    const index = indexedIds(session.demo.emulator, "professional", session.demo.workspaceId);
    const indexed = index.products.length + index.posts.length;
    expect(indexed).toBeGreaterThan(100);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    await page.getByText("Last sync: First sync, finished").waitFor();
    expect(await sentCount(page, "product")).toBe(index.products.length);
    expect(await sentCount(page, "post")).toBe(index.posts.length);

    // A product edited in Shopify meanwhile: the resync sends just that one.
    const [product] = session.demo.shopify.state
      .products()
      .filter((p) => p.status === "ACTIVE" && p.onlineStoreUrl);
    session.demo.shopify.state.updateProduct(product!.id, { title: "Edited while the demo ran" });

    // Shopify's finish webhooks wait until released: the export is seen in progress, and Resync
    // is pressed a second time meanwhile.
    session.demo.shopify.state.holdFinishWebhooks();
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Resync started.").waitFor();
    await page.getByText("Exporting from Shopify").waitFor();
    // The phase's own count, with what it counts; the bar's percent is of the whole sync.
    const phaseLine = page.locator("p", { has: page.getByTestId("sync-phase") });
    expect(await phaseLine.innerText()).toMatch(
      /^Exporting from Shopify: [0-4] of 4 exports ready \(\d+% of the whole sync\)$/,
    );
    await page.getByRole("button", { name: "Resync" }).click();
    await page
      .getByText("A sync is already in progress for this shop; its progress is shown below.")
      .waitFor();
    session.demo.shopify.state.releaseFinishWebhooks();

    await page.getByText("Last sync: Resync, finished").waitFor({ timeout: 90_000 });
    expect(await sentCount(page, "product")).toBe(1);
    expect(await sentCount(page, "post")).toBe(0);
    expect(await page.locator("#count-product-unchanged").innerText()).toBe(
      String(index.products.length - 1),
    );
    const stored = session.demo.emulator.state
      .workspace("professional", session.demo.workspaceId)
      ?.products.find((p) => p.name === "Edited while the demo ran");
    expect(stored).toBeDefined();
    await session.shot(page, "dashboard-after-resync");
  });

  it("a stock export Shopify refuses to start counts as over: the bar moves on, and the resync finishes", async () => {
    await session.demo.firstSync;
    session.demo.shopify.state.refuseNextBulkQuery("inventoryItems");
    // The three others' finish webhooks wait until released, so the bar is seen while they run.
    session.demo.shopify.state.holdFinishWebhooks();
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Resync started.").waitFor();
    await page.getByText("Exporting from Shopify: 1 of 4 exports ready").waitFor();
    session.demo.shopify.state.releaseFinishWebhooks();
    await page.getByTestId("sync-phase").waitFor({ state: "detached", timeout: 90_000 });
    await page.getByText("Last sync: Resync, finished").waitFor();
  });

  it("Settings refuses a revoked key and a publishable key in the secret field, saying what is wrong", async () => {
    const page = await session.browser.newPage();
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Secret key").fill("svc_sk_test_revoked");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByText("The service does not accept this key: it is revoked, expired or mistyped.")
      .waitFor();

    await page.getByLabel("Secret key").fill("svc_pk_test_professional");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByText("This is a publishable key (svc_pk_…); the secret key starts with svc_sk_.")
      .waitFor();
    await session.shot(page, "settings-refused");
  });
});
