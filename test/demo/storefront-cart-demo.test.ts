/**
 * The demo's storefront cart answers from the store's own variants, as Shopify's cart does: a
 * shopper who adds more than the store has sees the store's error in the chat, in a browser
 * against the running session.demo.
 */
import { describe, expect, it } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { askForProductCard } from "../../testkit/widget-stack";

const session = useDemoInBrowser({ products: 20, waitForFirstSync: true });

describe("the demo storefront's cart", () => {
  it("refuses more than the store has, with the store's words, and counts what was added", async () => {
    const indexed = new Set(
      session.demo.emulator.state
        .workspace("professional", session.demo.workspaceId)!
        .products.map((p) => p.name),
    );
    const titles = session.demo.shopify.state.products().map((p) => String(p.title));
    // A product in the index with one tracked variant and a title no other product has.
    const product = session.demo.shopify.state.products().find((p) => {
      const variant = p.variants[0] as { inventoryItem?: { tracked?: boolean } } | undefined;
      return (
        indexed.has(String(p.title)) &&
        p.variants.length === 1 &&
        variant?.inventoryItem?.tracked === true &&
        titles.filter((t) => t === p.title).length === 1
      );
    })!;
    expect(product).toBeDefined();
    const variantId = String((product.variants[0] as { id: string }).id);
    session.demo.shopify.state.updateProduct(product.id, {
      variants: [{ id: variantId, inventoryQuantity: 1, inventoryPolicy: "DENY" }],
    });

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const card = await askForProductCard(page, session.demo.storefrontUrl, String(product.title));
    const add = card.getByRole("button", { name: "Add to cart" });
    const status = card.getByRole("status");
    await add.click();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("Added to your cart.");
    await expect.poll(() => add.isEnabled()).toBe(true);
    await add.click();
    await expect
      .poll(() => status.textContent(), { timeout: 15_000 })
      .toBe("You can only add 1 of this item to your cart");
    expect(await page.locator(".cart-count").first().textContent()).toBe("1");
    await session.shot(page, "storefront-cart-store-error");
  });
});
