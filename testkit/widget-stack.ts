/**
 * Browser test harness: the real emulator (seeded over HTTP), the preview storefront and headless
 * Chromium from Debian (never a downloaded browser). Waits are on DOM conditions, never on time.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import axe from "axe-core";
import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core";
import { launchChromium } from "./chromium";
import { startEmulator, type RunningEmulator } from "../dev/emulator/server";
import { startStorefrontPreview, type StorefrontPreview } from "../dev/storefront/server";
import type { WidgetSettings } from "../dev/storefront/page";
import { CART, PUBLISHABLE_KEY, WORKSPACE_ID, seed } from "./widget-fixtures";

export const ARTIFACTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../test-artifacts/widget",
);

export interface Stack {
  emulator: RunningEmulator;
  preview: StorefrontPreview;
  browser: Browser;
  close(): Promise<void>;
}

export async function startStack(settings: Partial<WidgetSettings> = {}): Promise<Stack> {
  const emulator = await startEmulator({ port: 0, tokenDelayMs: 0 });
  await seed(emulator.url);
  const preview = await startStorefrontPreview({
    port: 0,
    emulatorUrl: emulator.url,
    publishableKey: PUBLISHABLE_KEY,
    workspaceId: WORKSPACE_ID,
    settings,
    cart: CART,
  });
  const browser = await launchChromium();
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return {
    emulator,
    preview,
    browser,
    close: async () => {
      await browser.close();
      await preview.close();
      await emulator.close();
    },
  };
}

/** A fresh browser context (its own sessionStorage) with one page; page errors fail the test. */
export async function openPage(
  stack: Stack,
  query = "",
  options: BrowserContextOptions = {},
  pathname = "/",
): Promise<Page> {
  const context = await stack.browser.newContext({
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  errorsOf.set(page, errors);
  await page.goto(new URL(pathname + query, stack.preview.url).href);
  return page;
}

const errorsOf = new WeakMap<Page, Error[]>();

/** Uncaught errors of the page so far. */
export function pageErrors(page: Page): Error[] {
  return errorsOf.get(page) ?? [];
}

/** Whether the element has focus within its (shadow) root. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => (el.getRootNode() as ShadowRoot | Document).activeElement === el);
}

/** Locators into the widget (Playwright's CSS and role locators pierce open shadow roots). */
export function ui(page: Page) {
  const dialog = page.getByRole("dialog");
  return {
    host: page.locator("[data-chat-widget]"),
    launcher: page.getByRole("button", { name: /chat/i }).and(page.locator(".launcher")),
    dialog,
    log: dialog.locator(".log"),
    // The composer's one text box, whatever the page's language labels it.
    input: dialog.locator(".composer").getByRole("textbox"),
    send: dialog.locator(".composer").getByRole("button", { name: "Send", exact: true }),
    stop: dialog.getByRole("button", { name: "Stop", exact: true }),
    close: dialog.getByRole("button", { name: /close/i }),
    bots: dialog.locator(".msg.bot"),
    users: dialog.locator(".msg.user"),
    errors: dialog.locator(".error"),
    chips: dialog.locator(".chip"),
  };
}

/** Opens the chat with the launcher and waits until its opening animation has finished. */
export async function openChat(page: Page): Promise<void> {
  await ui(page).launcher.click();
  await ui(page).dialog.waitFor();
  await settled(page);
}

/** Resolves when the dialog's animations (if motion is allowed) have finished. */
export async function settled(page: Page): Promise<void> {
  await ui(page).dialog.evaluate((el) =>
    Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
}

/** Waits until no request is streaming (the log's aria-busy goes back to false). */
export async function waitIdle(page: Page): Promise<void> {
  await page.locator('.log[aria-busy="false"]').waitFor();
  // Parts filled by an asset loaded on first use (product cards, offers) say so while they wait.
  await page
    .locator('.log .cards[aria-busy="true"], .log .offer[aria-busy="true"]')
    .first()
    .waitFor({ state: "detached" });
}

/** Types a message, sends it with Enter and waits until the answer is complete. */
export async function ask(page: Page, text: string): Promise<void> {
  const { input } = ui(page);
  await input.fill(text);
  await input.press("Enter");
  await waitIdle(page);
}

/**
 * A shopper on the storefront at `url` opens the chat and asks about the product titled `title`:
 * its card, once the answer shows it.
 */
export async function askForProductCard(page: Page, url: string, title: string): Promise<Locator> {
  await page.goto(url);
  await openChat(page);
  await ask(page, `Tell me about ${title}`);
  const card = ui(page).dialog.locator(".cards .card").filter({ hasText: title }).first();
  await card.waitFor({ timeout: 30_000 });
  return card;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

/** Where focus really is: the deepest active element, through shadow roots. */
export function activeElementInfo(page: Page) {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    let inWidget = false;
    while (el?.shadowRoot?.activeElement) {
      inWidget ||= el.hasAttribute("data-chat-widget");
      el = el.shadowRoot.activeElement;
    }
    const dialog = el?.closest('[role="dialog"]');
    return {
      tag: el?.tagName.toLowerCase() ?? "",
      label: el?.getAttribute("aria-label") ?? el?.textContent?.trim() ?? "",
      className: (el as HTMLElement | null)?.className ?? "",
      inWidget,
      inDialog: !!dialog,
    };
  });
}

/** The chat requests the page sent, with their parsed bodies and headers. */
export function recordChatRequests(page: Page) {
  const requests: { body: Record<string, unknown>; headers: Record<string, string> }[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/chat") {
      requests.push({
        body: JSON.parse(request.postData() ?? "{}") as Record<string, unknown>,
        headers: request.headers(),
      });
    }
  });
  return requests;
}

/** POST to the emulator's inspection and control API. */
export async function control(stack: Stack, route: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${stack.emulator.url}/__emulator${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

export interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown; failureSummary?: string }[];
}

/** Runs axe-core in the page (open shadow roots included) and returns its violations. */
export async function audit(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ content: axe.source });
  return page.evaluate(async (only) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, {
      runOnly: only
        ? { type: "rule", values: only }
        : {
            type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
          },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, rules);
}
