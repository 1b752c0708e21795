/**
 * The demo for tests, on this run's database: a copy of the run's migrated template, in the run's
 * PostgreSQL cluster in the `postgresql` project (testkit/test-database.ts), else a SQLite file.
 * Browser tests take `useDemoInBrowser`: the demo and Chromium started
 * before the file's tests and stopped after, with the screenshots and Settings steps they share.
 */
import { afterAll, beforeAll } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  DEMO_PUBLISHABLE_KEY,
  DEMO_SECRET_KEY,
  startDemo,
  type DemoOptions,
  type RunningDemo,
} from "../dev/demo/admin-demo";
import { artifactsDir, launchChromium } from "./chromium";
import { createMigratedDatabase } from "./test-database";

/**
 * The demo for one test file. One storefront unless `presences: "sample"` is asked: every full
 * sync of the sample's three then goes on to fill the French domain's workspace after the shop's
 * run has finished, with bulk operations of its own that a test's faults and counts would meet.
 */
export async function startTestDemo(
  options: Omit<DemoOptions, "postgresUrl" | "migratedDatabaseUrl"> = {},
): Promise<RunningDemo> {
  const { url } = await createMigratedDatabase();
  // The in-app live worker takes a change within a fraction of a second instead of waiting the
  // production window (3 s) and poll (1 s): a file that tests the window sets its own.
  process.env.LIVE_COALESCE_MS ??= "200";
  process.env.LIVE_POLL_MS ??= "100";
  return startDemo({ presences: "primary-only", ...options, migratedDatabaseUrl: url });
}

export interface DemoInBrowserOptions extends Omit<
  DemoOptions,
  "postgresUrl" | "migratedDatabaseUrl"
> {
  /** Waits for the first full sync before the tests (with the demo's keys saved). */
  waitForFirstSync?: boolean;
  /** Environment the app reads when it loads, set before the demo starts and removed after. */
  env?: Record<string, string>;
  /** The folder under test-artifacts/ for this file's screenshots. */
  artifacts?: string;
}

export interface DemoInBrowser {
  readonly demo: RunningDemo;
  readonly browser: Browser;
  /** A full-page screenshot into test-artifacts/<artifacts>/<name>.png. */
  shot(page: Page, name: string): Promise<void>;
  /** What a merchant does in Settings: types both keys, saves, waits for "Settings saved". */
  saveKeys(page: Page, secretKey?: string, publishableKey?: string): Promise<void>;
}

/** The demo and Chromium for this file's tests (vitest hooks): read them inside the tests. */
export function useDemoInBrowser(options: DemoInBrowserOptions = {}): DemoInBrowser {
  const { waitForFirstSync, env = {}, artifacts = "demo", ...demoOptions } = options;
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    Object.assign(process.env, env);
    demo = await startTestDemo(demoOptions);
    if (waitForFirstSync) await demo.firstSync;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    for (const name of Object.keys(env)) delete process.env[name];
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("The demo is not started (its beforeAll failed?)");
    return value;
  };
  return {
    get demo() {
      return started(demo);
    },
    get browser() {
      return started(browser);
    },
    async shot(page, name) {
      await page.screenshot({
        path: `${await artifactsDir(artifacts)}/${name}.png`,
        fullPage: true,
      });
    },
    async saveKeys(page, secretKey = DEMO_SECRET_KEY, publishableKey = DEMO_PUBLISHABLE_KEY) {
      await page.goto(`${started(demo).adminUrl}/settings`);
      await page.getByLabel("Secret key").fill(secretKey);
      await page.getByLabel("Publishable key").fill(publishableKey);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Settings saved").waitFor();
    },
  };
}

/** Reloads the page until `condition` holds, as an admin reloading the Dashboard would (2 min at most). */
export async function reloadUntil(page: Page, condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; !(await condition()); attempt++) {
    if (attempt > 240) throw new Error("the dashboard never showed it");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.reload();
  }
}

/** `text` as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
