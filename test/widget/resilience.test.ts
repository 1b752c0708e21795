/**
 * Failures and stream shapes: error events, cut streams, malformed lines, 401/403, network
 * failures, 429 with the wait shown, and the same answer rechunked at every byte offset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  ask,
  control,
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

async function retry(page: Page): Promise<void> {
  await ui(page).errors.last().getByRole("button", { name: "Retry" }).click();
  await waitIdle(page);
}

describe("errors and retries", () => {
  it("shows an error event politely and retries the same message", async () => {
    const page = await openPage(stack);
    const requests = recordChatRequests(page);
    await openChat(page);
    await ask(page, "café mug __emulator_error__");
    const w = ui(page);
    expect(await w.errors.textContent()).toContain("Sorry, something went wrong while answering.");
    await expect
      .poll(() => w.dialog.locator('[aria-live="polite"]').textContent())
      .toBe("Sorry, something went wrong while answering.");
    await retry(page);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.message).toBe("café mug __emulator_error__");
    expect(requests[1]!.body.threadId).toBe(requests[0]!.body.threadId);
    // The retried message is not shown twice.
    expect(await w.users.count()).toBe(1);
    await page.context().close();
  });

  it("reports a stream cut in the middle of a character, keeping what arrived", async () => {
    const page = await openPage(stack);
    await openChat(page);
    await ask(page, "café __emulator_cut__");
    const w = ui(page);
    expect(await w.errors.locator("p").textContent()).toBe(
      "Sorry, something went wrong while answering.",
    );
    // How much arrives before the reset is up to the network stack: whatever did is kept.
    const kept = (await w.dialog.locator(".msg.bot .bubble").allTextContents()).slice(1).join("");
    expect("Here is what ".startsWith(kept.trim())).toBe(true);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it("skips malformed lines and ignores unknown event types", async () => {
    const page = await openPage(stack);
    await openChat(page);
    await ask(page, "café mug __emulator_malformed__ __emulator_unknown__");
    const w = ui(page);
    expect(await w.errors.count()).toBe(0);
    expect(await w.bots.last().textContent()).toContain("Anything else I can help with?");
    // Cards are drawn by the products asset, which may still be arriving.
    await expect.poll(() => w.dialog.locator(".cards .card").count()).toBe(3);
    await page.context().close();
  });

  it("explains 401 and 403 and retries", async () => {
    const page = await openPage(stack);
    await openChat(page);
    for (const status of [401, 403]) {
      await control(stack, "/faults", { status, match: { method: "POST", path: "/chat" } });
      await ask(page, `café mug (${status})`);
      expect(await ui(page).errors.textContent()).toBe("The chat is not available right now.Retry");
      await retry(page);
      expect(await ui(page).errors.count()).toBe(0);
      expect(await ui(page).bots.last().textContent()).toContain(`(${status})`);
    }
    await page.context().close();
  });

  it("explains a network failure and retries", async () => {
    const page = await openPage(stack);
    await openChat(page);
    // Chromium silently retries a POST once when a reused connection is reset: fail them all.
    await control(stack, "/faults", {
      disconnect: true,
      count: 5,
      match: { method: "POST", path: "/chat" },
    });
    await ask(page, "Do you have a café mug?");
    expect(await ui(page).errors.locator("p").textContent()).toBe(
      "We couldn't reach the assistant. Check your connection and try again.",
    );
    stack.emulator.state.clearFaults();
    await retry(page);
    expect(await ui(page).bots.last().textContent()).toContain("Here is what I found");
    await page.context().close();
  });

  it("shows the wait of a 429 and retries once it has passed", async () => {
    const page = await openPage(stack);
    await openChat(page);
    await control(stack, "/faults", {
      status: 429,
      retryAfter: 2,
      match: { method: "POST", path: "/chat" },
    });
    await ask(page, "Do you have a café mug?");
    const error = ui(page).errors.last();
    expect(await error.locator("p").textContent()).toBe(
      "Too many messages. Please wait 2 seconds before trying again.",
    );
    const button = error.getByRole("button", { name: "Retry" });
    expect(await button.isDisabled()).toBe(true);
    await screenshot(page, "rate-limited");
    // Enabled again once the wait has passed (a DOM condition, however long it takes).
    await button.waitFor({ state: "visible" });
    await page.waitForFunction(
      () =>
        !document
          .querySelector("[data-chat-widget]")
          ?.shadowRoot?.querySelector<HTMLButtonElement>(".error button")?.disabled,
    );
    await retry(page);
    expect(await ui(page).errors.count()).toBe(0);
    expect(await ui(page).bots.last().textContent()).toContain("Here is what I found");
    await page.context().close();
  });
});

/**
 * Replays the bytes of one real answer from the emulator with the response body cut into chunks
 * as the test says: `window.__plan` is a list of chunk end offsets (empty: one chunk).
 */
const RECHUNK = `
  (() => {
    const realFetch = window.fetch.bind(window);
    let bytes;
    window.__plan = [];
    window.fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input.url;
      if (!url.endsWith("/chat")) return realFetch(input, init);
      if (!bytes) {
        const res = await realFetch(input, init);
        bytes = new Uint8Array(await res.arrayBuffer());
        window.__bytes = Array.from(bytes);
      }
      const ends = [...window.__plan, bytes.length];
      let start = 0;
      const body = new ReadableStream({
        pull(controller) {
          const end = ends.shift();
          if (end === undefined) return controller.close();
          controller.enqueue(bytes.slice(start, end));
          start = end;
        },
      });
      return new Response(body, { headers: { "Content-Type": "application/x-ndjson" } });
    };
  })();
`;

/** The DOM the last answer produced (everything after the last shopper message). */
function lastAnswerHtml(page: Page): Promise<string> {
  return page.evaluate(() => {
    const log = document.querySelector("[data-chat-widget]")!.shadowRoot!.querySelector(".log")!;
    const users = log.querySelectorAll(".msg.user");
    const parts: string[] = [];
    for (let el = users[users.length - 1]?.nextElementSibling; el; el = el.nextElementSibling) {
      parts.push(el.outerHTML);
    }
    return parts.join("\n");
  });
}

describe("stream chunking", () => {
  it("renders identically however the bytes are cut, even inside multi-byte characters", async () => {
    const page = await openPage(stack);
    await page.addInitScript(RECHUNK);
    await page.reload();
    await openChat(page);
    const message = "Do you have a café mug?";
    await ask(page, message);
    const reference = await lastAnswerHtml(page);
    const bytes = await page.evaluate(() => (window as unknown as { __bytes: number[] }).__bytes);
    const text = new TextDecoder().decode(new Uint8Array(bytes));
    expect(text).toContain("é");
    expect(bytes.length).toBeGreaterThan(text.length); // multi-byte characters in the answer
    expect(reference).toContain("Here is what I found");
    expect(reference).toContain("✨");

    const plans: number[][] = [];
    // Every byte its own chunk: a cut at every byte offset at once.
    plans.push(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1));
    // Two chunks, cut at every offset that falls on or inside a multi-byte character.
    for (let i = 1; i < bytes.length; i++) {
      if (bytes[i]! >= 0x80 || bytes[i - 1]! >= 0x80) plans.push([i]);
    }
    // Fixed chunk sizes 2 to 16.
    for (let size = 2; size <= 16; size++) {
      plans.push(
        Array.from({ length: Math.floor((bytes.length - 1) / size) }, (_, i) => (i + 1) * size),
      );
    }
    expect(plans.length).toBeGreaterThan(30);
    for (const plan of plans) {
      await page.evaluate((p) => ((window as unknown as { __plan: number[] }).__plan = p), plan);
      await ask(page, message);
      expect(await lastAnswerHtml(page)).toBe(reference);
    }
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});
