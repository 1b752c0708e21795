/**
 * Accessibility and robustness in the browser: keyboard-only use, dialog semantics and focus,
 * an axe-core audit of the open dialog (shadow DOM included), contrast with any accent colour,
 * full screen under 640 px, reduced motion, and a theme's styles kept out.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeElementInfo,
  ask,
  audit,
  openChat,
  openPage,
  screenshot,
  type Stack,
  startStack,
  ui,
  waitIdle,
} from "../../testkit/widget-stack";
import { FAMILY_DISH } from "../../testkit/widget-fixtures";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

async function pressUntil(page: Page, key: string, done: () => Promise<boolean>, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached the target`);
}

describe("accessibility", () => {
  it("is fully usable with the keyboard alone", async () => {
    const page = await openPage(stack);
    const focus = () => activeElementInfo(page);
    // Tab from the top of the page reaches the launcher.
    await pressUntil(page, "Tab", async () => (await focus()).className.includes("launcher"));
    expect((await focus()).label).toBe("Open chat");
    await page.keyboard.press("Enter");
    await ui(page).dialog.waitFor();
    // Focus moves into the dialog, on the message box.
    await expect.poll(async () => (await focus()).tag).toBe("textarea");
    await page.keyboard.type("Do you have a café mug?");
    await page.keyboard.press("Enter");
    await waitIdle(page);
    expect(await ui(page).bots.last().textContent()).toContain("Here is what I found");

    // Tab and Shift+Tab stay inside the dialog, wrapping around.
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      expect((await focus()).inDialog).toBe(true);
    }
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Shift+Tab");
      expect((await focus()).inDialog).toBe(true);
    }
    // A suggested prompt, reached and sent with the keyboard.
    await pressUntil(
      page,
      "Tab",
      async () => (await focus()).label === "Show me something similar",
    );
    await page.keyboard.press("Enter");
    await waitIdle(page);
    expect(await ui(page).users.last().textContent()).toContain("Show me something similar");
    expect((await focus()).tag).toBe("textarea");
    // Rate an answer with the keyboard.
    await pressUntil(page, "Shift+Tab", async () => (await focus()).label === "Helpful answer");
    await page.keyboard.press("Space");
    await expect.poll(async () => (await focus()).label).toBe("Helpful answer");
    // Escape closes and focus goes back to the launcher.
    await page.keyboard.press("Escape");
    await ui(page).dialog.waitFor({ state: "hidden" });
    expect((await focus()).className).toContain("launcher");
    expect(await ui(page).launcher.getAttribute("aria-expanded")).toBe("false");
    // And it opens again with Space, the conversation still there.
    await page.keyboard.press("Space");
    await ui(page).dialog.waitFor();
    expect(await ui(page).users.count()).toBe(2);
    await page.context().close();
  });

  it("has dialog semantics and closes with its close button", async () => {
    const page = await openPage(stack);
    await openChat(page);
    const dialog = ui(page).dialog;
    expect(await dialog.getAttribute("aria-modal")).toBe("true");
    expect(await page.getByRole("dialog", { name: "Chat with us" }).count()).toBe(1);
    expect(await ui(page).input.count()).toBe(1);
    await ui(page).close.click();
    await dialog.waitFor({ state: "hidden" });
    expect((await activeElementInfo(page)).className).toContain("launcher");
    await page.context().close();
  });

  it("passes an axe-core audit with the dialog open, conversation and offer form included", async () => {
    const page = await openPage(stack);
    expect(await audit(page)).toEqual([]);
    await openChat(page);
    expect(await audit(page)).toEqual([]);
    await ask(page, "Do you have a café mug?");
    await ui(page)
      .dialog.getByRole("button", { name: "Helpful answer", exact: true })
      .first()
      .click();
    expect(await audit(page)).toEqual([]);
    await ask(page, "Can I talk to a person?");
    const form = ui(page).dialog.locator(".offer form");
    await form.waitFor();
    await form.getByRole("button", { name: "Send" }).click();
    await form.locator(".field-error:visible").first().waitFor();
    expect(await audit(page)).toEqual([]);
    await page.context().close();
  });

  it("keeps AA contrast with any accent colour", async () => {
    const accents = [
      "#ffff00",
      "#777777",
      "#00ff00",
      "#ff0000",
      "#000000",
      "#ffffff",
      "#7f7fff",
      "#f0a",
    ];
    for (const accent of accents) {
      const page = await openPage(stack, `?accent=${encodeURIComponent(accent)}`);
      await openChat(page);
      await ask(page, "Do you have a café mug?");
      expect({ accent, violations: await audit(page, ["color-contrast"]) }).toEqual({
        accent,
        violations: [],
      });
      if (accent === "#ffff00") await screenshot(page, "accent-yellow");
      await page.context().close();
    }
  });

  it("fills the screen under 640 px wide", async () => {
    const page = await openPage(stack, "", {
      viewport: { width: 375, height: 667 },
      hasTouch: true,
    });
    await openChat(page);
    await ask(page, "Do you have a café mug?");
    expect(await ui(page).dialog.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 667 });
    await screenshot(page, "mobile-375");
    expect(await audit(page)).toEqual([]);
    await page.context().close();
  });

  it("at 375 px, a card without a picture keeps its name in line and every variant reads whole", async () => {
    const page = await openPage(stack, "", { viewport: { width: 375, height: 667 } });
    await openChat(page);
    // The mug and the dish have pictures, the espresso cup none; the dish has three variants.
    await ask(page, "Do you have café things?");
    const cards = ui(page).dialog.locator(".cards .card");
    const layout = await cards.evaluateAll(
      (els, family) =>
        els.map((card) => {
          const top = card.getBoundingClientRect().top;
          const select = card.querySelector("select");
          // The longest option as the select draws it, in its own font.
          const context = document.createElement("canvas").getContext("2d")!;
          if (select) context.font = getComputedStyle(select).font;
          // A name longer than any card (the dish's family size) is read whole on the card once
          // chosen (test/widget/cart.test.ts); the others fit the list as it is drawn closed.
          const longest = select
            ? Math.max(
                ...[...select.options]
                  .filter((o) => !o.text.startsWith(family))
                  .map((o) => context.measureText(o.text).width),
              )
            : 0;
          return {
            name: card.querySelector(".name")!.textContent,
            picture: !!card.querySelector("img"),
            nameOffset: Math.round(card.querySelector(".name")!.getBoundingClientRect().top - top),
            selectRoom: select ? select.clientWidth - longest : undefined,
          };
        }),
      FAMILY_DISH,
    );
    expect(layout.map((card) => card.picture)).toContain(false);
    // No gap where the picture would be: every name sits as far down its card as the others.
    expect(new Set(layout.map((card) => card.nameOffset)).size).toBe(1);
    // The variant list shows each option whole (with room for the select's padding and arrow).
    const withChoice = layout.filter((card) => card.selectRoom !== undefined);
    expect(withChoice.map((card) => card.name)).toEqual(["Crème brûlée dish"]);
    expect(withChoice[0]!.selectRoom).toBeGreaterThan(40);
    await cards.last().scrollIntoViewIfNeeded();
    await screenshot(page, "cards-375");
    expect(await audit(page)).toEqual([]);
    await page.context().close();
  });

  it("honours prefers-reduced-motion", async () => {
    const moving = await openPage(stack);
    await openChat(moving);
    expect(await ui(moving).dialog.evaluate((el) => getComputedStyle(el).animationName)).toBe(
      "rise",
    );
    await moving.context().close();
    const still = await openPage(stack, "", { reducedMotion: "reduce" });
    await openChat(still);
    expect(await ui(still).dialog.evaluate((el) => getComputedStyle(el).animationName)).toBe(
      "none",
    );
    await still.context().close();
  });

  it("keeps the theme's styles out and its own in", async () => {
    const page = await openPage(stack, "?accent=%23008060&position=bottom-left&locale=fr");
    // The preview theme styles every button hot pink with !important and hides [role=dialog].
    const launcher = await ui(page).launcher.evaluate((el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        background: style.backgroundColor,
        left: box.left,
        width: box.width,
        label: el.ariaLabel,
      };
    });
    expect(launcher).toEqual({
      background: "rgb(0, 128, 96)",
      left: 20,
      width: 56,
      label: "Ouvrir le chat",
    });
    await openChat(page);
    expect(await ui(page).dialog.isVisible()).toBe(true);
    expect(await page.getByRole("dialog", { name: "Discutez avec nous" }).count()).toBe(1);
    const send = await ui(page)
      .dialog.getByRole("button", { name: "Envoyer", exact: true })
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(send).toBe("rgb(0, 128, 96)");
    // The widget's own styles do not leak out either.
    expect(
      await page.locator("main h1").evaluate((el) => getComputedStyle(el).fontFamily),
    ).toContain("Georgia");
    await screenshot(page, "french-green-left");
    await page.context().close();
  });

  it("does not shift the layout when the launcher appears", async () => {
    const page = await openPage(stack);
    await ui(page).launcher.waitFor();
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            resolve(
              list
                .getEntries()
                .reduce((sum, e) => sum + (e as unknown as { value: number }).value, 0),
            );
          }).observe({ type: "layout-shift", buffered: true });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(0)));
        }),
    );
    expect(shift).toBe(0);
    await page.context().close();
  });
});
