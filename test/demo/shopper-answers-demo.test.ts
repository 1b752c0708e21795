/**
 * Issue 25, item 7, end to end where people act, in Chromium against the running demo: the
 * merchant ticks two product metafields and the FAQ definition in Settings and saves; the
 * service's index (read through the emulator's own HTTP API, never the app's tables) holds them
 * on the right products and as content; a shopper asks the storefront chat about returns and
 * sees the refund policy as a card linking to its storefront page, and asks what a product is
 * made of and reads it in the answer; the merchant unticks one metafield and it leaves the index.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, openChat, ui } from "../../testkit/widget-stack";

// Waits for real syncs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 360_000 });

const session = useDemoInBrowser({ products: 10, waitForFirstSync: true, artifacts: "answers" });

interface IndexedItem {
  id: string;
  name?: string;
  title?: string;
  url?: string;
  content?: string;
  categories?: string[];
  attributes?: Record<string, string[]>;
}

/** The demo workspace's products and posts, as `GET /__emulator/workspaces` answers. */
async function index(): Promise<{ products: IndexedItem[]; posts: IndexedItem[] }> {
  const response = await fetch(`${session.demo.emulatorUrl}/__emulator/workspaces`);
  const workspaces = (await response.json()) as Array<{
    account: string;
    workspaceId: string;
    products: IndexedItem[];
    posts: IndexedItem[];
  }>;
  const ours = workspaces.find(
    (w) => w.account === "professional" && w.workspaceId === session.demo.workspaceId,
  );
  return { products: ours?.products ?? [], posts: ours?.posts ?? [] };
}

/** Product title → the values of that attribute, for every indexed product that has it. */
async function valuesOf(attribute: string): Promise<Record<string, string[]>> {
  const { products } = await index();
  return Object.fromEntries(
    products
      .filter((p) => p.attributes?.[attribute] !== undefined)
      .map((p) => [String(p.name), p.attributes![attribute]!]),
  );
}

async function faqTitles(): Promise<string[]> {
  const { posts } = await index();
  return posts
    .filter((post) => post.categories?.includes("FAQ"))
    .map((post) => String(post.title))
    .sort();
}

const NANO = "IPod Nano - 8GB";
const TOUCH = "IPod Touch 8GB";

describe("what shoppers ask about, from Settings to the storefront chat", () => {
  it("ticked metafields and FAQ reach the index, the chat answers returns and material from them, and an unticked metafield leaves", async () => {
    expect(await valuesOf("Waterproof")).toEqual({});
    expect(await faqTitles()).toEqual([]);

    const admin = await session.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await admin.goto(`${session.demo.adminUrl}/settings`);
    await admin.getByRole("heading", { name: "Product metafields" }).waitFor();
    // What happens when Shopify's side changes (decision 0034), said where the merchant chooses.
    await admin
      .getByText(
        "deleted in Shopify, or hidden from your storefront, leaves the search index by itself",
      )
      .waitFor();
    await admin.getByLabel("Material", { exact: true }).check();
    await admin.getByLabel("Waterproof", { exact: true }).check();
    await admin.getByLabel("FAQ", { exact: true }).check();
    await admin.getByRole("button", { name: "Save", exact: true }).click();
    await admin.getByText("Settings saved").waitFor();
    await session.shot(admin, "settings-two-metafields-and-faq");

    // Within 2 minutes: the values on the products that have them, the FAQ entries as content.
    await expect
      .poll(() => valuesOf("Waterproof"), { timeout: 120_000 })
      .toEqual({ [NANO]: ["No"], [TOUCH]: ["No"] });
    await expect
      .poll(faqTitles, { timeout: 120_000 })
      .toEqual([
        "Can I return a sale item?",
        "How do I wax my snowboard?",
        "How long does shipping to Germany take?",
      ]);
    expect(await valuesOf("Material")).toMatchObject({
      [NANO]: ["Anodised aluminium"],
      [TOUCH]: ["Stainless steel and glass"],
    });

    // The shopper, on the storefront.
    const refund = session.demo.shopify.state
      .policies()
      .find((policy) => policy.type === "REFUND_POLICY") as { url: string };
    const shopper = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await shopper.goto(session.demo.storefrontUrl);
    await openChat(shopper);
    await ask(shopper, "What is your refund policy for returns?");
    const card = ui(shopper).dialog.locator("li.post").filter({ hasText: "Refund policy" }).first();
    await card.waitFor({ timeout: 30_000 });
    const link = card.getByRole("link", { name: "Refund policy" });
    expect(new URL((await link.getAttribute("href")) ?? "").pathname).toBe(
      "/policies/refund-policy",
    );
    expect(await link.getAttribute("href")).toBe(refund.url);

    await ask(shopper, "What material is the iPod Nano?");
    expect(await ui(shopper).bots.last().innerText()).toContain("Material: Anodised aluminium");
    await ui(shopper).bots.last().scrollIntoViewIfNeeded();
    await session.shot(shopper, "storefront-chat-refund-policy-and-material");
    await shopper.close();

    // Unticked: it leaves the index; the other stays.
    await admin.reload();
    await admin.getByLabel("Waterproof", { exact: true }).uncheck();
    await admin.getByRole("button", { name: "Save", exact: true }).click();
    await admin.getByText("Settings saved").waitFor();
    await expect.poll(() => valuesOf("Waterproof"), { timeout: 120_000 }).toEqual({});
    expect(await valuesOf("Material")).toMatchObject({ [NANO]: ["Anodised aluminium"] });
    expect(await faqTitles()).toHaveLength(3);
  });
});
