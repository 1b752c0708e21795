/**
 * A shopper's handoff request reaches the merchant, in browsers against the running demo: the
 * storefront preview's chat form, then the admin's Inbox, navigation, Dashboard and Settings.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_API_SECRET, DEMO_SHOP } from "../../dev/demo/admin-demo";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import { shopifyHmac } from "../../testkit/shopify-webhook";
import { ask, openChat, ui, waitIdle } from "../../testkit/widget-stack";

const session = useDemoInBrowser({ products: 40, waitForFirstSync: true });

async function shopperAsksForAPerson(page: Page, contact: { name: string; email: string }) {
  await page.goto(session.demo.storefrontUrl);
  await openChat(page);
  await ask(page, "Can I talk to a person?");
  const form = ui(page).dialog.locator(".offer form");
  await form.getByRole("textbox", { name: "Name" }).fill(contact.name);
  await form.getByRole("textbox", { name: "Email" }).fill(contact.email);
  await form.getByRole("textbox", { name: "Message" }).fill("Do you ship to Porto?");
  await form.getByRole("button", { name: "Send" }).click();
  await waitIdle(page);
}

/** Shopify's customers/redact for an email, signed as Shopify signs it, to the demo app. */
async function customersRedact(email: string): Promise<number> {
  const body = JSON.stringify({
    shop_id: 1,
    shop_domain: DEMO_SHOP,
    customer: { id: 191167, email, phone: null },
    orders_to_redact: [],
  });
  const response = await fetch(new URL("/webhooks/customers/redact", session.demo.adminUrl), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": "customers/redact",
      "X-Shopify-Shop-Domain": DEMO_SHOP,
      "X-Shopify-Hmac-Sha256": shopifyHmac(DEMO_API_SECRET, body),
      "X-Shopify-Webhook-Id": `redact-${Date.now()}`,
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Event-Id": `event-${Date.now()}`,
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
    body,
  });
  return response.status;
}

describe("the Inbox in the demo", () => {
  it("shows a shopper's handoff request within seconds, with its count in the navigation and on the Dashboard", async () => {
    const admin = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await admin.goto(`${session.demo.adminUrl}/inbox`);
    await admin.getByText("Nothing here").waitFor();
    expect(await admin.getByRole("link", { name: "Inbox", exact: true }).count()).toBe(1);

    const shopper = await session.browser.newPage();
    await shopperAsksForAPerson(shopper, { name: "Ana Lima", email: "ana@example.com" });

    // The open Inbox picks it up by itself.
    const entry = admin.getByRole("list", { name: "Requests" }).getByRole("listitem");
    await entry.getByRole("heading", { name: "Ana Lima" }).waitFor({ timeout: 15_000 });
    expect(await entry.innerText()).toContain("ana@example.com");
    expect(await entry.innerText()).toContain("Do you ship to Porto?");
    await admin.getByRole("link", { name: "Inbox (1)" }).waitFor();
    // The filter in use shows as pressed; no conversation ids, and the Dashboard's way of
    // writing a moment.
    await admin.getByRole("button", { name: "Open", pressed: true }).waitFor();
    expect(await admin.getByRole("link", { name: "Open", exact: true }).count()).toBe(0);
    const threadIds = session.demo.emulator.state.threads().map((thread) => thread.threadId);
    expect(threadIds.length).toBeGreaterThan(0);
    for (const id of threadIds) expect(await entry.innerText()).not.toContain(id);
    // When, and on which storefront (the demo's primary domain).
    expect(await entry.innerText()).toMatch(
      /\n\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC · on demo-store\.example\.com\n/,
    );
    const reply = entry.getByRole("link", { name: /Reply by email/ });
    expect(await reply.getAttribute("href")).toMatch(/^mailto:ana@example\.com\?subject=/);
    await session.shot(admin, "inbox");

    await admin.goto(session.demo.adminUrl);
    expect(await admin.locator("#dashboard-inbox-unread").innerText()).toBe("1");

    // The notification, caught by the demo's local mail sink and shown on its page: the shopper's
    // details and message reach the merchant's mailbox in one email, with no empty one before it
    // (the service delivers the handoff request and the contact form apart).
    const withMessage = () =>
      session.demo.mail
        .messages()
        .filter((m) => m.text.includes('Message: "Do you ship to Porto?"'));
    await expect.poll(() => withMessage().length, { timeout: 15_000 }).toBe(1);
    expect(session.demo.mail.messages().map((m) => m.subject)).toEqual([
      "New contact request from Ana Lima",
    ]);
    const mail = await session.browser.newPage();
    await mail.goto(session.demo.mailUrl);
    await mail.getByRole("heading", { name: "New contact request from Ana Lima" }).waitFor();
    const text = await mail.locator("article", { hasText: "Do you ship to Porto?" }).innerText();
    expect(text).toContain("to owner@demo-store.example.com");
    expect(text).toContain("reply to ana@example.com");
    expect(text).toContain('Email: "ana@example.com"');
    expect(text).toContain(`${session.demo.adminUrl}/inbox`);
    // No conversation id in the merchant's mailbox either: it tells them nothing.
    for (const message of session.demo.mail.messages()) {
      for (const id of threadIds) expect(message.text).not.toContain(id);
    }
    await mail.close();

    // Handled: no longer open, the counts go down.
    await admin.getByRole("link", { name: "Inbox (1)" }).click();
    await admin.getByRole("button", { name: "Mark as handled: Ana Lima" }).click();
    await admin.getByRole("link", { name: "Inbox", exact: true }).waitFor();
    await admin.getByText("Nothing here").waitFor();
    await admin.getByRole("link", { name: "Handled" }).click();
    await admin.getByRole("heading", { name: "Ana Lima" }).waitFor();
    await admin.getByRole("button", { name: "Handled", pressed: true }).waitFor();
    await admin.goto(session.demo.adminUrl);
    expect(await admin.getByText(/^Last sync: First sync, finished /).innerText()).toMatch(
      /finished \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/,
    );
    expect(await admin.locator("#dashboard-inbox-unread").innerText()).toBe("0");
    await shopper.close();
    await admin.close();
  });

  it("Settings' Send a test event reports that it arrived and was verified", async () => {
    const page = await session.browser.newPage();
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.getByText("Test event received").waitFor();
    expect(await page.getByText(/arrived and its signature was verified/).count()).toBe(1);
    // Merchants never see the event's id.
    expect(await page.locator("body").innerText()).not.toMatch(/evt_/);
    await session.shot(page, "settings-test-event");
    // A test event never shows in the Inbox.
    await page.goto(`${session.demo.adminUrl}/inbox?state=all`);
    expect(await page.getByRole("listitem").count()).toBe(1);
    await page.close();
  });

  it("customers/redact for the shopper's email removes the request from the Inbox", async () => {
    const shopper = await session.browser.newPage();
    await shopperAsksForAPerson(shopper, { name: "Bo Redacted", email: "bo@example.com" });
    await shopper.close();
    const admin = await session.browser.newPage();
    await admin.goto(`${session.demo.adminUrl}/inbox?state=all`);
    await admin.getByRole("heading", { name: "Bo Redacted" }).waitFor({ timeout: 15_000 });
    expect(await customersRedact("BO@example.com")).toBe(200);
    await admin.reload();
    await admin.getByRole("heading", { name: "Ana Lima" }).waitFor();
    expect(await admin.getByText("Bo Redacted").count()).toBe(0);
    expect(await admin.getByText("bo@example.com").count()).toBe(0);
    await admin.close();
  });
});

describe("Insights in the demo", () => {
  it("shows the shoppers' conversations as charts, figures and the most asked question", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(session.demo.adminUrl);
    await page.getByRole("link", { name: "Insights" }).click();
    await page.getByRole("heading", { name: "What shoppers ask most" }).waitFor();
    // Ana's conversation (Bo's went with customers/redact; test events never count).
    expect(await page.locator("#insight-conversations").innerText()).toBe("1");
    expect(await page.locator("#insight-handoff-rate").innerText()).toBe("100%");
    const questions = page.getByRole("list", { name: "Most asked questions" });
    expect(await questions.getByRole("listitem").first().innerText()).toBe(
      "can i talk to a person (1)",
    );
    // uPlot draws each chart in the session.browser.
    await expect.poll(() => page.locator(".day-chart canvas").count()).toBe(3);
    await page.getByRole("link", { name: "Last 30 days" }).click();
    await page.waitForURL(/days=30/);
    await page.getByText("Conversations and messages: figures per day").click();
    expect(await page.getByRole("table").first().getByRole("row").count()).toBe(31);
    // Days written as the rest of the admin writes them, never US-style, and no "Time: --".
    const table = await page.getByRole("table").first().innerText();
    expect(table).toMatch(/\b\d{1,2} [A-Z][a-z]{2} \d{4}\b/);
    expect(table).not.toMatch(/\d{4}-\d\d-\d\d|\d{1,2}\/\d{1,2}/);
    const legends = await page.locator(".day-chart .u-legend").allInnerTexts();
    expect(legends).toHaveLength(3);
    for (const legend of legends) expect(legend).not.toMatch(/Time|--/);
    await session.shot(page, "insights");
    await page.close();
  });
});
