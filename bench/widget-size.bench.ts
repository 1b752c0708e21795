/**
 * The storefront chat widget's cost to a shop page, in headless Chromium against the emulator
 * and the preview storefront:
 *   npx tsx bench/widget-size.bench.ts [--runs N]
 * Prints figures; asserts nothing (test/widget holds the budgets).
 *
 * - bytes shipped with every page (the launcher) and on first open (the chat), gzipped (level 9)
 *   and raw, from a fresh in-memory build of widget/;
 * - main-thread time at page load (Chromium's Performance.getMetrics TaskDuration and
 *   ScriptDuration at the load event), the preview page with the widget against the same page
 *   without it, median of N fresh contexts each, interleaved; and the launcher's own script
 *   evaluation from a Chromium trace (EvaluateScript of chat-launcher.js);
 * - time from a `text_delta` line reaching the widget (enqueued into the response body) to it
 *   being in the DOM and painted: a MutationObserver on the widget's shadow root stamps the DOM
 *   update, and a message posted from it runs after the frame that paints it;
 * - the search box (blocks/search-box.liquid, as the preview's header holds it): bytes on page
 *   load and on first use, and time from the last keystroke to its suggestions painted, against
 *   the emulator (it includes the pause in typing the box waits for, SEARCH_PAUSE_MS).
 */
import { parseArgs } from "node:util";
import { brotliCompressSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { startStack } from "../testkit/widget-stack";
import { searchMarkup } from "../dev/storefront/page";
import { buildWidget, gzipSize, type AssetName } from "../widget/build";
import { SEARCH_PAUSE_MS } from "../widget/search-labels";

const { values } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const RUNS = Math.max(3, Number(values.runs) || 15);
const DELTAS = 300;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function sizes(): Promise<void> {
  const built = await buildWidget();
  const row = (label: string, name: AssetName) => {
    const bytes = built.get(name)!;
    console.log(
      `  ${label.padEnd(34)} ${name.padEnd(17)} ${String(gzipSize(bytes)).padStart(6)} B gzip` +
        `  ${String(brotliCompressSync(bytes).length).padStart(6)} B brotli  ${String(bytes.length).padStart(6)} B raw`,
    );
  };
  console.log("Bytes shipped");
  row("with every page (deferred)", "chat-launcher.js");
  row("on first open (or when idle)", "chat-widget.js");
  row("on first open", "chat-widget.css");
  row("when the first offer arrives", "chat-offer.js");
  row("first product card (cards, cart)", "chat-products.js");
  row("search box: on first focus", "chat-search.js");
  const loader = /<script>[\s\S]*?<\/script>/.exec(
    searchMarkup({ apiUrl: "", publishableKey: "", workspaceId: "" }, "en", "EUR"),
  )![0];
  console.log(
    `  ${"search box: on page load".padEnd(34)} no script file; an inline loader of ${Buffer.byteLength(loader)} B in the block's HTML`,
  );
}

interface LoadSample {
  task: number;
  script: number;
  /** The launcher's own script evaluation (trace event EvaluateScript), ms. */
  launcher: number;
}

async function loadOnce(browser: Browser, url: string, withWidget: boolean): Promise<LoadSample> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await browser.startTracing(page, { categories: ["devtools.timeline"] });
  await page.goto(withWidget ? url : `${url}?widget=0`, { waitUntil: "load" });
  const { metrics } = await cdp.send("Performance.getMetrics");
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: { name: string; dur?: number; args?: { data?: { url?: string } } }[];
  };
  await context.close();
  const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  const evaluate = trace.traceEvents.find(
    (e) => e.name === "EvaluateScript" && e.args?.data?.url?.includes("chat-launcher.js"),
  );
  return {
    task: metric("TaskDuration"),
    script: metric("ScriptDuration"),
    launcher: (evaluate?.dur ?? 0) / 1000,
  };
}

async function pageLoad(browser: Browser, url: string): Promise<void> {
  // A warm-up of each, then both kinds interleaved so that drift hits them alike.
  await loadOnce(browser, url, false);
  await loadOnce(browser, url, true);
  const without: LoadSample[] = [];
  const withWidget: LoadSample[] = [];
  for (let i = 0; i < RUNS; i++) {
    without.push(await loadOnce(browser, url, false));
    withWidget.push(await loadOnce(browser, url, true));
  }
  const m = (xs: LoadSample[], key: keyof LoadSample) => median(xs.map((x) => x[key]));
  console.log(`Main-thread time at page load (load event, median of ${RUNS} fresh contexts each)`);
  for (const key of ["task", "script"] as const) {
    const label = key === "task" ? "TaskDuration" : "ScriptDuration";
    console.log(
      `  ${label.padEnd(15)} without widget ${ms(m(without, key)).padStart(9)}   with widget ${ms(m(withWidget, key)).padStart(9)}   difference ${ms(m(withWidget, key) - m(without, key))}`,
    );
  }
  const launcher = withWidget.map((x) => x.launcher);
  console.log(
    `  launcher script evaluation (trace EvaluateScript) median ${ms(median(launcher))}, p95 ${ms(percentile(launcher, 0.95))}`,
  );
}

/** Installed before the page loads: a /chat response whose deltas are released one at a time. */
const PACED_STREAM = `
  (() => {
    const realFetch = window.fetch.bind(window);
    const encoder = new TextEncoder();
    const toDom = [], toPaint = [];
    let sentAt = 0, waiting = null;
    window.__latency = { toDom, toPaint };
    window.__watch = (root) => new MutationObserver(() => {
      if (!sentAt) return;
      const domAt = performance.now();
      const start = sentAt;
      sentAt = 0;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        toDom.push(domAt - start);
        toPaint.push(performance.now() - start);
        const next = waiting; waiting = null; next && next();
      };
      channel.port2.postMessage(0);
    }).observe(root, { childList: true, subtree: true, characterData: true });
    window.fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input.url;
      if (!url.endsWith("/chat")) return realFetch(input, init);
      let i = 0;
      const body = new ReadableStream({
        async pull(controller) {
          if (i === ${DELTAS}) {
            controller.enqueue(encoder.encode('{"type":"complete","data":{}}\\n'));
            return controller.close();
          }
          if (i > 0) await new Promise((resolve) => (waiting = resolve));
          const line = JSON.stringify({ type: "text_delta", data: "wörd" + i + " " }) + "\\n";
          sentAt = performance.now();
          controller.enqueue(encoder.encode(line));
          i++;
        },
      });
      return new Response(body, { headers: { "Content-Type": "application/x-ndjson" } });
    };
  })();
`;

async function deltaToPaint(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(PACED_STREAM);
  await page.goto(url);
  await page.locator(".launcher").click();
  await page.getByRole("dialog").waitFor();
  await page.evaluate(() => {
    const root = document.querySelector("[data-chat-widget]")!.shadowRoot!;
    (window as unknown as { __watch(root: Node): void }).__watch(root.querySelector(".log")!);
  });
  const input = page.locator(".composer textarea");
  await input.fill("Tell me a long story");
  await input.press("Enter");
  await page.locator('.log[aria-busy="false"]').waitFor();
  const { toDom, toPaint } = await page.evaluate(
    () => (window as unknown as { __latency: { toDom: number[]; toPaint: number[] } }).__latency,
  );
  await context.close();
  console.log(`text_delta arriving → shown (${toPaint.length} deltas, one at a time)`);
  console.log(
    `  in the DOM      median ${ms(median(toDom))}   p95 ${ms(percentile(toDom, 0.95))}   max ${ms(Math.max(...toDom))}`,
  );
  console.log(
    `  painted         median ${ms(median(toPaint))}   p95 ${ms(percentile(toPaint, 0.95))}   max ${ms(Math.max(...toPaint))}`,
  );
}

/** Time from the last keystroke of a query to its suggestions painted, in the preview's header. */
async function keystrokeToResults(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}?widget=0`);
  const input = page.getByLabel("Search", { exact: true });
  await input.click();
  await page.waitForFunction(() => document.querySelector("[data-catalog-search][data-enhanced]"));
  const queries = ["café", "mug", "teapot", "espresso", "dish", "crème"];
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const query of queries) {
      await input.fill("");
      await page.evaluate(() => {
        const w = window as unknown as { __typed: number; __done: Promise<number> };
        const list = document.querySelector("[data-catalog-search] [role=listbox]")!;
        const box = document.querySelector<HTMLInputElement>("[data-catalog-search] input")!;
        box.addEventListener("input", () => (w.__typed = performance.now()), { capture: true });
        w.__done = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            const q = box.value.trim();
            if (!list.textContent?.includes(`“${q}”`) || list.hasAttribute("hidden")) return;
            observer.disconnect();
            requestAnimationFrame(() => {
              const channel = new MessageChannel();
              channel.port1.onmessage = () => resolve(performance.now() - w.__typed);
              channel.port2.postMessage(0);
            });
          });
          observer.observe(list, { childList: true, subtree: true, attributes: true });
        });
      });
      await input.pressSequentially(query);
      times.push(
        await page.evaluate(() => (window as unknown as { __done: Promise<number> }).__done),
      );
    }
  }
  await context.close();
  console.log(
    `Search box: last keystroke → suggestions painted (${times.length} queries against the emulator)`,
  );
  console.log(
    `  median ${ms(median(times))}   p95 ${ms(percentile(times, 0.95))}   max ${ms(Math.max(...times))}   (of which the pause in typing it waits for: ${SEARCH_PAUSE_MS} ms)`,
  );
}

const { browser, preview, close } = await startStack();
try {
  console.log(`Chromium ${browser.version()}, Node ${process.version}\n`);
  await sizes();
  console.log();
  await pageLoad(browser, preview.url);
  console.log();
  await deltaToPaint(browser, preview.url);
  console.log();
  await keystrokeToResults(browser, preview.url);
} finally {
  await close();
}
