/** Debian's headless Chromium for browser tests; nothing ever downloads a browser. */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-extensions",
  "--mute-audio",
  "--disable-breakpad",
  "--disable-features=Translate,MediaRouter,OptimizationHints,PaintHolding,BackForwardCache",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Where a suite keeps its screenshots (test-artifacts/<suite>/, not committed). */
export async function artifactsDir(suite: string): Promise<string> {
  const dir = path.resolve(import.meta.dirname, "..", "test-artifacts", suite);
  await mkdir(dir, { recursive: true });
  return dir;
}
