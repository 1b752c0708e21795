/**
 * The widget in headless Chromium against the emulator: a full conversation with every event
 * type, the offer form, the thread surviving a page change, feedback and Stop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTS, WORKSPACE_ID } from "../../testkit/widget-fixtures";
import {
  ask,
  control,
  isFocused,
  openChat,
  openPage,
  pageErrors,
  recordChatRequests,
  screenshot,
  startStack,
  ui,
  waitIdle,
  type Stack,
} from "../../testkit/widget-stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

describe("storefront chat conversation", () => {
  it("loads only the launcher with the page, and the chat on first interaction", async () => {
    const page = await openPage(stack, "?prompts=");
    const scripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.endsWith(".js")),
      );
    await ui(page).launcher.waitFor();
    expect(await scripts()).toContain("/assets/chat-launcher.js");
    const launcher = await page.locator("script[src*='chat-launcher.js']").getAttribute("defer");
    expect(launcher).not.toBeNull();
    await ui(page).launcher.hover();
    await page.waitForFunction(() => "__catalogChatWidget" in window);
    expect(await scripts()).toContain("/assets/chat-widget.js");
    expect(await scripts()).not.toContain("/assets/chat-offer.js");
    await openChat(page);
    // No starter prompts configured: only the greeting.
    await expect.poll(() => ui(page).bots.count()).toBe(1);
    expect(await ui(page).chips.count()).toBe(0);
    await page.context().close();
  });

  it("streams a full answer: text, products, posts, summaries, prompts, progress", async () => {
    const page = await openPage(stack);
    const requests = recordChatRequests(page);
    await openChat(page);
    const w = ui(page);
    await expect.poll(() => isFocused(w.input)).toBe(true);
    // Greeting and the merchant's starter prompts.
    await expect.poll(() => w.bots.first().textContent()).toContain("Ask me anything");
    expect(await w.chips.allTextContents()).toEqual([
      "Do you have café mugs?",
      "What are your shipping options?",
    ]);

    await ask(page, "Do you have a café mug?");
    expect(pageErrors(page)).toEqual([]);
    const answer = w.bots.nth(1);
    const text = await answer.locator(".bubble").textContent();
    expect(text).toContain("Here is what I found for “Do you have a café mug?”");
    expect(text).toContain("✨");

    // Product cards: image, name, price in the shop's currency and locale, link to the product.
    const cards = w.dialog.locator(".cards .card");
    await expect.poll(() => cards.count()).toBe(3);
    const mug = cards.filter({ hasText: "Café mug" });
    expect(await mug.locator(".price").textContent()).toBe(
      new Intl.NumberFormat("en", { style: "currency", currency: "EUR" }).format(18),
    );
    expect(await mug.locator("a").getAttribute("href")).toBe(
      new URL(PRODUCTS[0]!.url, stack.preview.url).href,
    );
    expect(await mug.locator("img").getAttribute("src")).toBe(
      new URL("/images/cafe-mug.svg", stack.preview.url).href,
    );
    // An image given as {src} works too; an absolute link keeps its host.
    expect(await cards.filter({ hasText: "Crème" }).locator("img").count()).toBe(1);
    expect(await cards.filter({ hasText: "Espresso" }).locator("a").getAttribute("href")).toBe(
      "https://example.com/products/espresso",
    );

    // The post card, its summary streamed by post_delta.
    const post = w.dialog.locator(".posts .post");
    expect(await post.locator(".title").textContent()).toBe("How we roast our café beans");
    expect(await post.locator(".summary").textContent()).toBe("Slow roasting, small batches.");

    // bubble_termination after the post started a new bubble? (Only text starts a bubble.)
    // Follow-up prompts: strings and {prompt} objects alike.
    expect(await w.chips.allTextContents()).toEqual([
      "Tell me more about Café mug",
      "Show me something similar",
      "Talk to a person",
    ]);
    // The progress line is gone once the answer is complete.
    expect(await w.dialog.locator(".status").isHidden()).toBe(true);
    // Completed bubbles are announced politely, once, as a whole.
    await expect
      .poll(() => w.dialog.locator('[aria-live="polite"]').textContent())
      .toContain("Here is what I found");

    // The request: publishable key only, workspace header, stream, a web_ thread id.
    expect(requests).toHaveLength(1);
    const [first] = requests;
    expect(first!.headers.authorization).toBe("Bearer svc_pk_test_enterprise");
    expect(first!.headers["x-workspace-id"]).toBe(WORKSPACE_ID);
    expect(first!.headers["content-type"]).toBe("application/json");
    expect(first!.body).toMatchObject({ message: "Do you have a café mug?", stream: true });
    expect(first!.body.threadId).toMatch(/^web_[0-9a-f]{24}$/);
    await screenshot(page, "conversation-desktop");

    // A chip sends its prompt.
    await w.chips.filter({ hasText: "Show me something similar" }).click();
    await waitIdle(page);
    expect(await w.users.last().textContent()).toContain("Show me something similar");
    expect(requests[1]!.body.threadId).toBe(first!.body.threadId);
    await page.context().close();
  });

  it("renders the model's markdown as DOM, never as HTML", async () => {
    const page = await openPage(stack);
    await openChat(page);
    // The emulator echoes the shopper's words in its answer: a hostile message comes back in the
    // model's text.
    await ask(page, '<img src=x onerror="window.__xss=1">**bold** [mug](javascript:alert(1)) _em_');
    const bubble = ui(page).bots.last().locator(".bubble");
    expect(await bubble.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => "__xss" in window)).toBe(false);
    expect(await bubble.locator("a").count()).toBe(0);
    expect(await bubble.textContent()).toContain("<img src=x");
    await page.context().close();
  });

  it("keeps the thread and the transcript across a page change", async () => {
    const page = await openPage(stack);
    const requests = recordChatRequests(page);
    await openChat(page);
    await ask(page, "Do you have a café mug?");
    const before = await ui(page).log.evaluate((el) => el.textContent);
    // Follow a product card to its page, as a shopper would.
    await ui(page).dialog.locator(".card a", { hasText: "Café mug" }).click();
    await page.waitForURL("**/products/cafe-mug");
    await openChat(page);
    await expect.poll(() => ui(page).log.evaluate((el) => el.textContent)).toBe(before);
    await ask(page, "And an espresso cup?");
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.threadId).toBe(requests[0]!.body.threadId);
    const threads = stack.emulator.state
      .threads()
      .filter((t) => t.threadId === requests[0]!.body.threadId);
    expect(threads).toHaveLength(1);
    expect(threads[0]!.messages).toBe(2);
    expect(threads[0]!.workspaceId).toBe(WORKSPACE_ID);
    await page.context().close();
  });

  it("sends feedback with thumbs up and down", async () => {
    const page = await openPage(stack);
    await openChat(page);
    await ask(page, "Do you have a café mug?");
    await ask(page, "What about a dish?");
    const threadId = await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.endsWith(":thread"));
      return key ? sessionStorage.getItem(key) : null;
    });
    const answers = ui(page).dialog.locator(".msg.bot:has(.rate)");
    const helpful = answers.nth(0).getByRole("button", { name: "Helpful answer", exact: true });
    await helpful.click();
    // The rated bubble is redrawn; focus stays on the button that was pressed.
    await expect.poll(() => isFocused(helpful)).toBe(true);
    await answers.nth(1).getByRole("button", { name: "Unhelpful answer", exact: true }).click();
    await expect
      .poll(() => stack.emulator.state.feedback().filter((f) => f.threadId === threadId).length)
      .toBe(2);
    const feedback = stack.emulator.state.feedback().filter((f) => f.threadId === threadId);
    expect(feedback.map(({ rating, messageIndex }) => ({ rating, messageIndex }))).toEqual([
      { rating: "positive", messageIndex: 0 },
      { rating: "negative", messageIndex: 1 },
    ]);
    expect(await helpful.getAttribute("aria-pressed")).toBe("true");
    await page.context().close();
  });

  it("stops a stream with the Stop button", async () => {
    const page = await openPage(stack);
    await openChat(page);
    const w = ui(page);
    await w.input.fill("A café mug please __emulator_hold__");
    await w.input.press("Enter");
    await expect.poll(() => stack.emulator.state.heldStreams()).toBe(1);
    // The quiet progress indicator while the service works.
    await expect
      .poll(() => w.dialog.locator(".status").textContent())
      .toBe("Searching the catalogue…");
    await w.stop.click();
    await waitIdle(page);
    expect(await w.errors.count()).toBe(0);
    expect(await w.send.isVisible()).toBe(true);
    await expect.poll(() => stack.emulator.state.activeStreams()).toBe(0);
    await control(stack, "/streams/release");
    await ask(page, "Do you have a café mug?");
    expect(await w.bots.last().textContent()).toContain("Here is what I found");
    await page.context().close();
  });

  it("hands over to a live agent through the offer form", async () => {
    const page = await openPage(stack);
    const requests = recordChatRequests(page);
    await openChat(page);
    const w = ui(page);
    await ask(page, "Can I talk to a human?");
    const form = w.dialog.locator(".offer form");
    await form.waitFor();
    expect(await w.dialog.locator(".offer").textContent()).toContain(
      "Would you like to talk to a person from our team?",
    );
    const name = form.getByRole("textbox", { name: "Name" });
    const email = form.getByRole("textbox", { name: "Email" });

    // Validation: required fields, then a malformed email.
    await form.getByRole("button", { name: "Send" }).click();
    expect(await form.locator(".field-error:visible").allTextContents()).toEqual([
      "This field is required.",
      "This field is required.",
    ]);
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect(await isFocused(name)).toBe(true);
    await name.fill("Ana");
    await email.fill("ana@");
    await form.getByRole("button", { name: "Send" }).click();
    expect(await form.locator(".field-error:visible").allTextContents()).toEqual([
      "Enter a valid email address.",
    ]);
    expect(await isFocused(email)).toBe(true);
    await screenshot(page, "offer-form-errors");
    await email.fill("ana@example.com");
    await form.getByRole("textbox", { name: "Message" }).fill("Gift wrapping?");
    await form.getByRole("button", { name: "Send" }).click();
    await waitIdle(page);
    // The sent form gives way to the shopper's bubble and the confirmation.
    expect(await form.count()).toBe(0);

    expect(requests.at(-1)!.body).toMatchObject({
      message: "Send",
      offerResponse: {
        domain: "live_agent",
        actionId: "submit",
        formData: { name: "Ana", email: "ana@example.com", phone: "", message: "Gift wrapping?" },
      },
    });
    // domain_offer_success names the agent.
    await expect
      .poll(() => w.dialog.locator(".notice").last().textContent())
      .toBe("You are now chatting with Sam.");
    // The agent speaks (chunks with metadata source "human"), labelled with their name.
    await ask(page, "Do you gift wrap?");
    const agent = w.dialog.locator(".msg.agent").last();
    expect(await agent.locator(".who").textContent()).toBe("Sam");
    expect(await agent.locator(".bubble").textContent()).toContain("Sam here");
    expect(await agent.locator(".rate").count()).toBe(0);
    await screenshot(page, "live-agent");
    await page.context().close();
  });

  it("answers an offer's cancel action", async () => {
    const page = await openPage(stack);
    const requests = recordChatRequests(page);
    await openChat(page);
    await ask(page, "I want a person");
    await ui(page).dialog.getByRole("button", { name: "Not now" }).click();
    await waitIdle(page);
    expect(requests.at(-1)!.body.offerResponse).toEqual({
      domain: "live_agent",
      actionId: "cancel",
    });
    expect(await ui(page).bots.last().textContent()).toContain("No problem");
    await page.context().close();
  });

  it("renders markdown and an action-group offer from a scripted first answer", async () => {
    // The emulator writes neither markdown nor action groups: the first answer is scripted in
    // the page (split mid-token, as a model would stream it); the shopper's answer to the offer
    // goes to the emulator.
    const script = [
      { type: "progress", data: "Thinking" },
      { type: "text_delta", data: "Here are **two" },
      {
        type: "text_delta",
        data: " ideas**:\n\n- a *café* mug\n- see [our shop](https://shop.exa",
      },
      {
        type: "text_delta",
        data: "mple/mugs) or [this](javascript:alert(1))\n1. first\n2. _second_",
      },
      { type: "analytics", data: { tokens: 3 } },
      { type: "bubble_termination", data: {} },
      { type: "text_delta", data: "Shall I ask a colleague?" },
      {
        type: "domain_offer",
        data: {
          domain: "live_agent",
          message: "Talk to a person?",
          ui: {
            component: "action_group",
            actions: [
              { id: "accept", label: "Yes please", variant: "primary" },
              { id: "decline", label: "No thanks" },
            ],
          },
        },
      },
      { type: "complete", data: {} },
    ];
    const page = await openPage(stack);
    await page.addInitScript(
      (lines: string) => {
        const realFetch = window.fetch.bind(window);
        let scripted = false;
        window.fetch = (input, init) => {
          const url = typeof input === "string" ? input : (input as Request).url;
          if (scripted || !url.endsWith("/chat")) return realFetch(input, init);
          scripted = true;
          return Promise.resolve(
            new Response(lines, { headers: { "Content-Type": "application/x-ndjson" } }),
          );
        };
      },
      script.map((line) => JSON.stringify(line)).join("\n") + "\n",
    );
    await page.reload();
    const requests = recordChatRequests(page);
    await openChat(page);
    const w = ui(page);
    await ask(page, "Ideas?");
    const [first, second] = [w.bots.nth(1).locator(".bubble"), w.bots.nth(2).locator(".bubble")];
    expect(await first.locator("p strong").textContent()).toBe("two ideas");
    expect(await first.locator("ul li").allTextContents()).toEqual([
      "a café mug",
      "see our shop or this",
    ]);
    expect(await first.locator("ul em").textContent()).toBe("café");
    const links = first.locator("a");
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute("href")).toBe("https://shop.example/mugs");
    expect(await links.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await first.locator("ol li").allTextContents()).toEqual(["first", "second"]);
    expect(await first.locator("ol em").textContent()).toBe("second");
    expect(await second.textContent()).toBe("Shall I ask a colleague?");
    // One answer, two bubbles: feedback is offered once, under the last.
    expect(await w.dialog.locator(".rate").count()).toBe(1);
    expect(await w.bots.nth(2).locator(".rate").count()).toBe(1);
    await screenshot(page, "markdown-and-actions");

    const actions = w.dialog.locator(".offer").getByRole("group", { name: "Talk to a person?" });
    await actions.getByRole("button", { name: "No thanks" }).click();
    await waitIdle(page);
    expect(await actions.getByRole("button", { name: "Yes please" }).isDisabled()).toBe(true);
    expect(requests.at(-1)!.body).toMatchObject({
      message: "No thanks",
      offerResponse: { domain: "live_agent", actionId: "decline" },
    });
    expect(await w.bots.last().textContent()).toContain("No problem");
    await page.context().close();
  });

  it("mounts from the public data attributes alone, as on a headless storefront", async () => {
    const page = await openPage(stack, "?widget=0");
    // The script first, the element rendered later by the storefront's own code.
    await page.addScriptTag({ url: "/assets/chat-launcher.js" });
    await page.evaluate(
      ({ apiUrl, key, workspace }) => {
        const el = document.createElement("div");
        el.dataset.chatWidget = "";
        el.dataset.apiUrl = apiUrl;
        el.dataset.publishableKey = key;
        el.dataset.workspaceId = workspace;
        el.dataset.locale = "de-DE";
        el.dataset.currency = "chf";
        el.dataset.prompts = JSON.stringify(["Café mug?"]);
        document.body.append(el);
        document.dispatchEvent(new Event("chat-widget:scan"));
      },
      { apiUrl: stack.emulator.url, key: "svc_pk_test_enterprise", workspace: WORKSPACE_ID },
    );
    await openChat(page);
    const w = ui(page);
    // English labels by default; prices in the given locale and currency.
    expect(await page.getByRole("dialog", { name: "Chat with us" }).count()).toBe(1);
    await w.chips.first().click();
    await waitIdle(page);
    const price = await w.dialog.locator(".cards .card").first().locator(".price").textContent();
    expect(price).toBe(
      new Intl.NumberFormat("de-DE", { style: "currency", currency: "CHF" }).format(18),
    );
    await page.context().close();
  });
});
