/**
 * "Add to cart" from the chat's product cards, in headless Chromium against the emulator and the
 * preview storefront, whose cart answers as Shopify's Ajax Cart API does (dev/storefront/
 * fake-cart.ts). Checked where the shopper sees it: the card, the theme's cart count, the cart.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ask,
  openChat,
  openPage,
  pageErrors,
  screenshot,
  startStack,
  ui,
  type Stack,
} from "./harness";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

/** The shop's cart as the page's own /cart.js gives it: variant id → quantity. */
async function cartOf(page: Page, root = "/"): Promise<Record<string, number>> {
  const cart = await page.evaluate(
    async (r) =>
      (await fetch(`${r}cart.js`)).json() as Promise<{ items: { id: number; quantity: number }[] }>,
    root,
  );
  return Object.fromEntries(cart.items.map((item) => [String(item.id), item.quantity]));
}

/** The theme's cart count in the page header (outside the widget). */
const cartCount = (page: Page) => page.locator("header .cart-count").textContent();

async function cardsFor(page: Page, question: string) {
  await openChat(page);
  await ask(page, question);
  const cards = ui(page).dialog.locator(".cards .card");
  await cards.first().waitFor();
  return cards;
}

describe("add to cart from the chat", () => {
  it("adds a product with one variant and updates the theme's cart count", async () => {
    const page = await openPage(stack);
    const cartRequests: string[] = [];
    page.on(
      "request",
      (r) => r.method() === "POST" && cartRequests.push(new URL(r.url()).pathname),
    );
    const cards = await cardsFor(page, "Do you have a café mug?");
    const mug = cards.filter({ hasText: "Café mug" });
    expect(await mug.locator(".price").textContent()).toBe("€18.00");
    expect(await mug.locator(".stock").textContent()).toBe("In stock");
    expect(await mug.locator("select").count()).toBe(0);
    expect(await cartCount(page)).toBe("0");
    await mug.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => mug.getByRole("status").textContent()).toBe("Added to your cart.");
    expect(await cartCount(page)).toBe("1");
    expect(await cartOf(page)).toEqual({ "41000000001": 1 });
    expect(cartRequests).toContain("/cart/add.js");
    await screenshot(page, "cart-added");
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it("asks for a choice first when a product has several variants", async () => {
    const page = await openPage(stack);
    const cards = await cardsFor(page, "Do you have a café mug?");
    const dish = cards.filter({ hasText: "Crème brûlée dish" });
    const choice = dish.getByRole("combobox", { name: /Choose an option/ });
    expect(await choice.locator("option").allTextContents()).toEqual([
      "Choose an option",
      "Small · €24.50",
      "Large · €29.00",
      "Family · €39.00 · Sold out",
    ]);
    expect(await choice.locator("option", { hasText: "Family" }).isDisabled()).toBe(true);
    await dish.getByRole("button", { name: "Add to cart" }).click();
    expect(await dish.getByRole("status").textContent()).toBe("Choose an option first.");
    expect(
      await choice.evaluate(
        (el) =>
          el.getRootNode() instanceof ShadowRoot &&
          (el.getRootNode() as ShadowRoot).activeElement === el,
      ),
    ).toBe(true);
    expect(await cartOf(page)).toEqual({});
    await choice.selectOption({ label: "Large · €29.00" });
    await dish.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => dish.getByRole("status").textContent()).toBe("Added to your cart.");
    expect(await cartOf(page)).toEqual({ "41000000012": 1 });
    expect(await cartCount(page)).toBe("1");
    await page.context().close();
  });

  it("shows a sold-out product as sold out, with nothing to add", async () => {
    const page = await openPage(stack);
    const cards = await cardsFor(page, "Do you have a teapot?");
    const teapot = cards.filter({ hasText: "Stoneware teapot" });
    expect(await teapot.locator(".stock").textContent()).toBe("Sold out");
    expect(await teapot.getByRole("button").count()).toBe(0);
    await page.context().close();
  });

  it("shows the store's own error when the cart refuses", async () => {
    const page = await openPage(stack);
    const cards = await cardsFor(page, "Do you have a café mug?");
    const cup = cards.filter({ hasText: "Espresso cup" });
    const add = cup.getByRole("button", { name: "Add to cart" });
    const status = cup.getByRole("status");
    for (let i = 0; i < 2; i++) {
      await add.click();
      await expect.poll(() => status.textContent()).toBe("Added to your cart.");
      await expect.poll(() => add.isEnabled()).toBe(true);
    }
    await add.click();
    await expect
      .poll(() => status.textContent())
      .toBe("You can only add 2 of this item to your cart");
    expect(await cartCount(page)).toBe("2");
    expect(await cartOf(page)).toEqual({ "41000000021": 2 });
    await screenshot(page, "cart-store-error");
    await page.context().close();
  });

  it("uses the shop's root for the shopper's locale", async () => {
    const page = await openPage(stack, "?root=/fr/");
    const cartRequests: string[] = [];
    page.on(
      "request",
      (r) => r.method() === "POST" && cartRequests.push(new URL(r.url()).pathname),
    );
    const cards = await cardsFor(page, "Do you have a café mug?");
    const mug = cards.filter({ hasText: "Café mug" });
    await mug.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => mug.getByRole("status").textContent()).toBe("Added to your cart.");
    expect(cartRequests).toContain("/fr/cart/add.js");
    expect(await cartOf(page, "/fr/")).toEqual({ "41000000001": 1 });
    await page.context().close();
  });

  it("tells a theme that listens for cart:refresh", async () => {
    const page = await openPage(stack, "?cartTheme=events");
    const cards = await cardsFor(page, "Do you have a café mug?");
    await cards
      .filter({ hasText: "Café mug" })
      .getByRole("button", { name: "Add to cart" })
      .click();
    await expect.poll(() => cartCount(page)).toBe("1");
    await page.context().close();
  });
});
