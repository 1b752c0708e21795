/**
 * The live-agent handoff as a shopper meets it in headless Chromium against the emulator: the
 * form is scrolled into view when it arrives, the shopper's bubble shows what they sent, the
 * sent form gives way to the confirmation, and feedback is asked for only where an answer was given (not under a greeting or a confirmation).
 */
import type { Locator, Page } from "playwright-core";
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
} from "../../testkit/widget-stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

/** Whether the element lies wholly inside the transcript's visible area. */
async function inView(log: Locator, el: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([el.boundingBox(), log.boundingBox()]);
  return !!a && !!b && a.y >= b.y - 1 && a.y + a.height <= b.y + b.height + 1;
}

/** Asks for a person and fills the form the emulator offers. */
async function requestHandoff(page: Page): Promise<Locator> {
  await ask(page, "Can I talk to a person?");
  const form = ui(page).dialog.locator(".offer form");
  await form.waitFor();
  return form;
}

describe("handoff to a person", () => {
  it("scrolls the form into view when it arrives after the answer", async () => {
    const page = await openPage(stack);
    // The offer asset arrives only once the answer is complete, as on a slow connection.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/chat-offer.js", async (route) => {
      await released;
      await route.continue();
    });
    await openChat(page);
    const w = ui(page);
    await ask(page, "Do you have a café mug?");
    await w.input.fill("Can I talk to a person?");
    await w.input.press("Enter");
    await page.locator('.log[aria-busy="false"]').waitFor();
    release();
    const form = w.dialog.locator(".offer form");
    await form.waitFor();
    await expect.poll(() => inView(w.log, form.locator("legend"))).toBe(true);
    expect(await inView(w.log, form.getByRole("button", { name: "Send" }))).toBe(true);
    await screenshot(page, "handoff-form-in-view");
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it("shows the shopper's own details in their bubble, not the button's label", async () => {
    const page = await openPage(stack);
    await openChat(page);
    const form = await requestHandoff(page);
    await form.getByRole("textbox", { name: "Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email" }).fill("ana@example.com");
    await form.getByRole("textbox", { name: "Message" }).fill("Gift wrapping?");
    await form.getByRole("button", { name: "Send" }).click();
    await page.locator('.log[aria-busy="false"]').waitFor();
    const mine = await ui(page).users.last().locator(".bubble").innerText();
    expect(mine).not.toBe("Send");
    expect(mine.split("\n")).toEqual(["Ana", "ana@example.com", "Gift wrapping?"]);
    await page.context().close();
  });

  it("replaces the sent form with the confirmation, also on the next page", async () => {
    const page = await openPage(stack);
    await openChat(page);
    const w = ui(page);
    const form = await requestHandoff(page);
    await form.getByRole("textbox", { name: "Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email" }).fill("ana@example.com");
    await form.getByRole("button", { name: "Send" }).click();
    await page.locator('.log[aria-busy="false"]').waitFor();
    await expect
      .poll(() => w.dialog.locator(".notice").last().textContent())
      .toBe("You are now chatting with Sam.");
    const formsLeft = () => w.dialog.locator(".offer form, .offer fieldset").count();
    expect(await formsLeft()).toBe(0);
    expect(await w.users.last().locator(".bubble").innerText()).toBe("Ana\nana@example.com");
    await screenshot(page, "handoff-form-sent");
    // The transcript the next page restores has no form either.
    await page.reload();
    await openChat(page);
    await w.dialog.getByText("You are now chatting with Sam.").waitFor();
    expect(await formsLeft()).toBe(0);
    await page.context().close();
  });

  it("asks for feedback on answers, not on a greeting or the handoff confirmation", async () => {
    const page = await openPage(stack);
    await openChat(page);
    const w = ui(page);
    await ask(page, "Hi!");
    expect(await w.bots.last().textContent()).toContain("Hello!");
    expect(await w.bots.last().locator(".rate").count()).toBe(0);

    await ask(page, "Do you have a café mug?");
    expect(await w.bots.last().locator(".rate").count()).toBe(1);

    const form = await requestHandoff(page);
    await form.getByRole("textbox", { name: "Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email" }).fill("ana@example.com");
    await form.getByRole("button", { name: "Send" }).click();
    await page.locator('.log[aria-busy="false"]').waitFor();
    await expect.poll(() => w.dialog.locator(".notice").last().textContent()).toContain("Sam");
    const confirmation = w.bots.filter({ hasText: "will be with you shortly" });
    expect(await confirmation.count()).toBe(1);
    expect(await confirmation.locator(".rate").count()).toBe(0);
    // The answers to the two questions keep theirs.
    expect(await w.dialog.locator(".rate").count()).toBe(2);
    await page.context().close();
  });
});
