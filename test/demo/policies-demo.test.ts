/**
 * The store's policies where shoppers and merchants meet them, in Chromium against the running
 * demo (its app server runs the background work, the hourly checks every 3 s, the daily full
 * sweep off): a shopper asks the storefront chat about returns and sees the refund policy as a
 * content card linking to the policy's storefront URL; a policy the merchant edits in Shopify (no
 * webhook tells the app) reaches the service's index with the next periodic check, and a removed
 * one leaves it.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { ask, openChat, ui } from "../../testkit/widget-stack";

vi.setConfig({ testTimeout: 240_000 });

const session = useDemoInBrowser({
  products: 20,
  waitForFirstSync: true,
  artifacts: "policies",
  env: { RECONCILE_EVERY_HOURS: "0", RECONCILE_CHECK_EVERY_MINUTES: "0.05" },
});

const policyOf = (type: string) =>
  session.demo.shopify.state.policies().find((policy) => policy.type === type) as
    { id: string; url: string; title: string } | undefined;

/** The post the service's index holds for a policy (the app's id: policy-<number>). */
const indexedPolicy = (gid: string) =>
  session.demo.emulator.state
    .workspace("professional", session.demo.workspaceId)
    ?.posts.find((post) => post.id === `policy-${gid.slice(gid.lastIndexOf("/") + 1)}`);

describe("the store's policies in the demo", () => {
  it("a shopper who asks about returns sees the refund policy as a card linking to its page", async () => {
    const refund = policyOf("REFUND_POLICY")!;
    expect(indexedPolicy(refund.id)).toMatchObject({ title: "Refund policy", url: refund.url });

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.storefrontUrl);
    await openChat(page);
    await ask(page, "Can I return a sale item?");
    const card = ui(page).dialog.locator("li.post").filter({ hasText: "Refund policy" });
    await card.first().waitFor({ timeout: 30_000 });
    const link = card.first().getByRole("link", { name: "Refund policy" });
    expect(await link.getAttribute("href")).toBe(refund.url);
    expect(refund.url).toMatch(/^https:\/\/[^/]+\/policies\/refund-policy$/);
    expect(await card.first().locator(".summary").innerText()).toMatch(/30-day return policy/);
    await session.shot(page, "storefront-chat-refund-policy");
    await page.close();
  });

  it("an edited policy reaches the index at the next periodic check, and a removed one leaves it", async () => {
    const shipping = policyOf("SHIPPING_POLICY")!;
    const legal = policyOf("LEGAL_NOTICE")!;
    expect(indexedPolicy(shipping.id)).toBeDefined();
    expect(indexedPolicy(legal.id)).toBeDefined();

    // Edited and removed in Shopify's admin: Shopify sends no webhook for either.
    session.demo.shopify.state.updatePolicy(
      "SHIPPING_POLICY",
      "<h2>Shipping</h2><p>Parcels to Germany arrive in <b>1–2 business days</b>, free from €30.</p>",
    );
    session.demo.shopify.state.removePolicy("LEGAL_NOTICE");

    await expect
      .poll(() => String(indexedPolicy(shipping.id)?.content ?? ""), { timeout: 120_000 })
      .toContain("Parcels to Germany arrive in 1–2 business days, free from €30.");
    await expect.poll(() => indexedPolicy(legal.id), { timeout: 120_000 }).toBeUndefined();

    // The shopper's chat answers from the edit.
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.storefrontUrl);
    await openChat(page);
    await ask(page, "How long does shipping to Germany take?");
    const card = ui(page).dialog.locator("li.post").filter({ hasText: "Shipping policy" });
    await card.first().waitFor({ timeout: 30_000 });
    expect(await card.first().locator(".summary").innerText()).toMatch(/1–2 business days/);
    expect(await card.first().getByRole("link").getAttribute("href")).toBe(shipping.url);
    await session.shot(page, "storefront-chat-edited-shipping-policy");
  });
});
