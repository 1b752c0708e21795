/**
 * A long answer streamed into the widget in headless Chromium: drawing it costs in proportion to
 * what arrived. The answer is scripted in the page (one delta per frame), and a MutationObserver
 * counts every node the widget puts into the transcript while it streams.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ask,
  openChat,
  openPage,
  pageErrors,
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

const LINES = 300;

/** Before the page loads: the first /chat answer is LINES lines, two deltas each, one per frame. */
function pacedAnswer(lines: number): string {
  return `(() => {
    const realFetch = window.fetch.bind(window);
    const encoder = new TextEncoder();
    const deltas = [];
    for (let i = 0; i < ${lines}; i++) deltas.push("Line " + i + " has *em", "phasis* and text\\n");
    window.__drawn = { added: 0, snapshots: [] };
    window.__watch = (log) => new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const walker = document.createTreeWalker(node);
          do window.__drawn.added++; while (walker.nextNode());
        }
      }
      const bubble = log.querySelector(".msg.bot:last-of-type .bubble");
      if (bubble) window.__drawn.snapshots.push(bubble.textContent);
    }).observe(log, { childList: true, subtree: true });
    let scripted = false;
    window.fetch = (input, init) => {
      const url = typeof input === "string" ? input : input.url;
      if (scripted || !url.endsWith("/chat")) return realFetch(input, init);
      scripted = true;
      let i = 0;
      const body = new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          if (i === deltas.length) {
            controller.enqueue(encoder.encode('{"type":"complete","data":{}}\\n'));
            return controller.close();
          }
          controller.enqueue(encoder.encode(JSON.stringify({ type: "text_delta", data: deltas[i++] }) + "\\n"));
        },
      });
      return Promise.resolve(new Response(body, { headers: { "Content-Type": "application/x-ndjson" } }));
    };
  })();`;
}

describe("a long streamed answer", () => {
  it("is drawn in proportion to what arrived, never redrawn whole on each frame", async () => {
    const page = await openPage(stack);
    await page.addInitScript(pacedAnswer(LINES));
    await page.reload();
    await openChat(page);
    await ui(page).log.evaluate((log) =>
      (window as unknown as { __watch(log: Element): void }).__watch(log),
    );
    await ask(page, "Tell me everything");
    const bubble = ui(page).bots.last().locator(".bubble");
    // The finished answer is the full markdown: one paragraph, a line break between lines.
    expect(await bubble.locator("p").count()).toBe(1);
    expect(await bubble.locator("em").count()).toBe(LINES);
    expect(await bubble.locator("br").count()).toBe(LINES - 1);
    const finalNodes = await bubble.evaluate((el) => {
      let n = 0;
      const walker = document.createTreeWalker(el);
      while (walker.nextNode()) n++;
      return n;
    });
    const { added, snapshots } = await page.evaluate(
      () => (window as unknown as { __drawn: { added: number; snapshots: string[] } }).__drawn,
    );
    const finalText = (await bubble.textContent()) ?? "";
    // Streamed over hundreds of frames (each a snapshot), and every intermediate state was a
    // beginning of the answer: nothing drawn twice or out of order.
    expect(snapshots.length).toBeGreaterThan(LINES);
    for (const text of snapshots) expect(finalText.startsWith(text.trimEnd())).toBe(true);
    // Each complete line is drawn once, the unfinished one again per frame, and the finished
    // bubble once more. Redrawing the whole bubble on each frame adds ~LINES/2 times as many.
    expect(added).toBeLessThan(5 * finalNodes);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});
