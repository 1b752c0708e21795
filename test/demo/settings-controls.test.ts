/**
 * The controls of Settings do what they say (issue 26, items 1 to 3), in Chromium through the
 * admin's own pages against the demo; outcomes checked on the page and in the service emulator's
 * index, never in the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { claimWorkspace } from "../../app/models/workspace-claims.server";

// Each flow waits for real syncs on a shared, loaded machine; none depends on timing.
vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({ products: 30, waitForFirstSync: true, artifacts: "controls" });

/** The emulator's index of the demo workspace: titles of its pages, articles, and products. */
function index() {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  const posts = workspace?.posts ?? [];
  const titlesOf = (prefix: string) =>
    posts.filter((p) => String(p.id).startsWith(prefix)).map((p) => String(p.title));
  return {
    pages: titlesOf("page-"),
    // The store's policies go with its pages.
    policies: titlesOf("policy-"),
    articles: titlesOf("article-"),
    products: (workspace?.products ?? []).length,
  };
}

/** Waits on the Dashboard until the latest sync of this kind has finished. */
async function waitForSync(page: Page, kind: string): Promise<void> {
  await page.goto(session.demo.adminUrl);
  await page.getByText(`Last sync: ${kind}, finished`).waitFor({ timeout: 120_000 });
}

describe("what to sync, in Settings", () => {
  it("unticking Pages says how many go, asks, and removes them; ticking it again brings them back as they are now", async () => {
    const before = index();
    expect(before.pages.length).toBeGreaterThan(0);
    expect(before.articles.length).toBeGreaterThan(0);
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Online store pages").uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();

    const count = before.pages.length;
    const policies = before.policies.length;
    expect(policies).toBeGreaterThan(0);
    const removes = `Saving removes ${count} online store page${count === 1 ? "" : "s"} and ${policies} store polic${policies === 1 ? "y" : "ies"} from the search index`;
    await page.getByText(removes).waitFor();
    await session.shot(page, "settings-confirm-removal");
    // Nothing happened yet: the index still has every page.
    expect(index().pages).toHaveLength(count);
    // "Keep them ticked" puts the box back and closes the question.
    await page.getByRole("button", { name: "Keep them ticked" }).click();
    expect(await page.getByLabel("Online store pages").isChecked()).toBe(true);
    expect(await page.getByText(removes).count()).toBe(0);
    await page.getByLabel("Online store pages").uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(removes).waitFor();

    await page.getByRole("button", { name: "Remove and save" }).click();
    await page.getByText("Settings saved").waitFor();
    await page.getByText(`Removing ${count} online store page`).waitFor();
    await waitForSync(page, "Settings change");
    expect(index().pages).toEqual([]);
    expect(index().policies).toEqual([]);
    expect(index().articles).toHaveLength(before.articles.length);
    expect(index().products).toBe(before.products);

    // A Resync keeps them out.
    await page.getByRole("button", { name: "Resync" }).click();
    await page.getByText("Resync started.").waitFor();
    await waitForSync(page, "Resync");
    expect(index().pages).toEqual([]);

    // Edited while unticked (Shopify sends no webhook for pages), then ticked again.
    const edited = session.demo.shopify.state
      .pages()
      .find((p) => before.pages.includes(String(p.title)));
    session.demo.shopify.state.updatePage(String(edited!.id), {
      title: "Opening hours, edited while unticked",
    });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Online store pages").check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await page.getByText("Exporting online store pages").waitFor();
    await waitForSync(page, "Settings change");
    const after = index();
    expect(after.pages).toHaveLength(count);
    expect(after.pages).toContain("Opening hours, edited while unticked");
    expect(after.policies).toHaveLength(policies);
    expect(after.articles).toHaveLength(before.articles.length);
  });

  it("nothing ticked is refused with what to fix, and nothing changes", async () => {
    const before = index();
    const page = await session.browser.newPage();
    await page.goto(`${session.demo.adminUrl}/settings`);
    for (const label of ["Products", "Online store pages", "Blog articles"]) {
      await page.getByLabel(label).uncheck();
    }
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page
      .getByText(
        "Tick at least one of Products, Online store pages and Blog articles: with nothing ticked the store cannot sync.",
      )
      .waitFor();
    await page.getByText("The settings were not saved").waitFor();
    await session.shot(page, "settings-nothing-ticked");
    await page.reload();
    for (const label of ["Products", "Online store pages", "Blog articles"]) {
      expect(await page.getByLabel(label).isChecked()).toBe(true);
    }
    expect(index()).toEqual(before);
  });
});

describe("the workspace, in Settings", () => {
  it("refuses another store's workspace, however it is written, with one to use instead, and saves nothing", async () => {
    // Another store connected to this app holds shop-other-example-com.
    await claimWorkspace(
      "other-store.myshopify.com",
      "shop-other-example-com",
      "shop.other.example.com",
    );
    const before = index();
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Use another workspace id").fill("Shop.Other.Example.com.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const field = page.locator("#workspaceOverride");
    await page
      .getByText(
        "The workspace shop-other-example-com belongs to another store connected to this app. Enter one of your own in “Use another workspace id”, such as demo-store-myshopify-com.",
      )
      .waitFor();
    await page.getByText("The settings were not saved").waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await session.shot(page, "settings-workspace-of-another-store");
    await page.reload();
    expect(await page.getByLabel("Use another workspace id").inputValue()).toBe("");
    expect(await page.getByText(`Workspace id in use: ${session.demo.workspaceId}`).count()).toBe(
      1,
    );
    expect(index()).toEqual(before);
  });
});

describe("the key check", () => {
  const used = () => {
    const { products = 0, posts = 0 } =
      session.demo.emulator.state.account("professional")!.usage.used;
    return { products, posts };
  };

  it("refuses a publishable key of another account, naming the mismatch, at no products or pages quota", async () => {
    const quotaBefore = used();
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    // The Starter account's publishable key beside the Professional account's secret key: each
    // is a working key of its kind, and the storefront would search an account without the shop.
    await page.getByLabel("Publishable key").fill("svc_pk_test_starter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page
      .getByText("The publishable key belongs to another account than the secret key")
      .waitFor();
    await page.getByText("Copy the publishable key from the same account").waitFor();
    await page.getByText("The settings were not saved").waitFor();
    expect(await page.getByText("Both keys work").count()).toBe(0);
    await session.shot(page, "settings-account-mismatch");
    await page.reload();
    expect(await page.getByLabel("Publishable key").inputValue()).toBe("svc_pk_test_professional");

    // The pair of one account is proved the same way, and saved.
    await page.getByLabel("Secret key").fill("svc_sk_test_professional");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Both keys work together").waitFor();
    // Proved with a product the workspace already held: no product or page was written.
    expect(used()).toMatchObject({ products: quotaBefore.products, posts: quotaBefore.posts });
  });

  it("on a workspace that holds nothing yet, proves the pair with a test page it deletes again, and counts it", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(session.demo.adminUrl);
    const pagesQuota = page.locator("#quota-post");
    const pagesBefore = /: (\d+) of/.exec((await pagesQuota.textContent()) ?? "")?.[1];
    expect(pagesBefore).toBeDefined();
    const quotaBefore = used();
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByLabel("Use another workspace id").fill("elsewhere.example.com");
    await page.getByLabel("Publishable key").fill("svc_pk_test_starter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page
      .getByText("The publishable key belongs to another account than the secret key")
      .waitFor();
    await page.getByText("The settings were not saved").waitFor();
    const elsewhere = session.demo.emulator.state.workspace(
      "professional",
      "elsewhere-example-com",
    );
    expect([...(elsewhere?.products ?? []), ...(elsewhere?.posts ?? [])]).toEqual([]);
    await page.reload();
    expect(await page.getByLabel("Use another workspace id").inputValue()).toBe("");
    // The test page cost one page of the month's quota, and the Dashboard's count knows it, so
    // that a sync near the quota plans with it.
    expect(used()).toMatchObject({ products: quotaBefore.products, posts: quotaBefore.posts + 1 });
    await page.goto(session.demo.adminUrl);
    await page.getByText(`Pages and articles: ${quotaBefore.posts + 1} of`).waitFor();
    expect(Number(pagesBefore)).toBe(quotaBefore.posts);
  });
});
