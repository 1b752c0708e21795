/**
 * Builds the storefront widget into the theme app extension's assets:
 *   widget/launcher.ts → extensions/chat-widget/assets/chat-launcher.js (every page, tiny)
 *   widget/chat.ts     → extensions/chat-widget/assets/chat-widget.js   (on first interaction)
 *   widget/styles/chat.css → extensions/chat-widget/assets/chat-widget.css (with the chat)
 *   widget/offer-entry.ts → extensions/chat-widget/assets/chat-offer.js (when an offer arrives)
 *   widget/products-entry.ts → extensions/chat-widget/assets/chat-products.js (with the first
 *                          product card: cards and the cart)
 *   widget/search-entry.ts → extensions/chat-widget/assets/chat-search.js (the search box's
 *                          suggestions, when the shopper first reaches for the box)
 *
 *   npx tsx widget/build.ts          write the assets
 *   npx tsx widget/build.ts --check  exit 1 when the committed assets differ from a fresh build
 */
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform, type Plugin } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "..");
export const ASSETS_DIR = path.join(ROOT, "extensions/chat-widget/assets");

export const ENTRIES = {
  "chat-launcher.js": path.join(here, "launcher.ts"),
  "chat-widget.js": path.join(here, "chat.ts"),
  "chat-offer.js": path.join(here, "offer-entry.ts"),
  "chat-products.js": path.join(here, "products-entry.ts"),
  "chat-search.js": path.join(here, "search-entry.ts"),
} as const;

/** Stylesheets shipped as their own assets (the chat's, linked into its shadow root on mount). */
export const STYLES = {
  "chat-widget.css": path.join(here, "styles/chat.css"),
} as const;

export type AssetName = keyof typeof ENTRIES | keyof typeof STYLES;

/** Budgets: the launcher goal, and Shopify's limit for any app block JS file (gzipped bytes). */
export const LAUNCHER_GZIP_BUDGET = 2_000;
export const ASSET_GZIP_LIMIT = 10_000;

/** `import css from "./x.css?inline"`: the stylesheet, minified, as a string. */
const cssInline: Plugin = {
  name: "css-inline",
  setup(b) {
    b.onResolve({ filter: /\.css\?inline$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\?inline$/, "")),
      namespace: "css-inline",
    }));
    b.onLoad({ filter: /.*/, namespace: "css-inline" }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const { code } = await transform(source, { loader: "css", minify: true });
      return {
        contents: `export default ${JSON.stringify(code.trim())};`,
        loader: "js",
        watchFiles: [args.path],
      };
    });
  },
};

/** Builds both assets in memory. */
export async function buildWidget(): Promise<Map<AssetName, Uint8Array>> {
  const out = new Map<AssetName, Uint8Array>();
  for (const [name, entry] of Object.entries(ENTRIES) as [AssetName, string][]) {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      format: "iife",
      platform: "browser",
      // Browsers from 2021 on (optional chaining and ?? without esbuild's workarounds).
      target: ["es2021", "chrome96", "firefox93", "safari15"],
      minify: true,
      legalComments: "none",
      write: false,
      outfile: path.join(ASSETS_DIR, name),
      plugins: [cssInline],
      logLevel: "silent",
    });
    const file = result.outputFiles[0];
    if (!file) throw new Error(`esbuild produced nothing for ${name}`);
    out.set(name, file.contents);
  }
  for (const [name, source] of Object.entries(STYLES) as [AssetName, string][]) {
    const { code } = await transform(await readFile(source, "utf8"), {
      loader: "css",
      minify: true,
    });
    out.set(name, new TextEncoder().encode(code));
  }
  return out;
}

export function gzipSize(bytes: Uint8Array): number {
  return gzipSync(bytes, { level: 9 }).length;
}

/** Names of committed assets that differ from (or are missing next to) a fresh build. */
export async function staleAssets(fresh?: Map<AssetName, Uint8Array>): Promise<AssetName[]> {
  const built = fresh ?? (await buildWidget());
  const stale: AssetName[] = [];
  for (const [name, bytes] of built) {
    const committed = await readFile(path.join(ASSETS_DIR, name)).catch(() => undefined);
    if (!committed || Buffer.compare(committed, Buffer.from(bytes)) !== 0) stale.push(name);
  }
  return stale;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const built = await buildWidget();
  let failed = false;
  for (const [name, bytes] of built) {
    const gz = gzipSize(bytes);
    const budget = name === "chat-launcher.js" ? LAUNCHER_GZIP_BUDGET : ASSET_GZIP_LIMIT;
    // Shopify's limit applies to JS files; stylesheets are printed against the same figure.
    const over = gz > budget;
    failed ||= over;
    console.log(
      `${name.padEnd(18)} ${String(bytes.length).padStart(6)} B  ${String(gz).padStart(5)} B gzip  (budget ${budget})${over ? "  OVER BUDGET" : ""}`,
    );
  }
  if (check) {
    const stale = await staleAssets(built);
    if (stale.length) {
      console.error(`Stale widget assets: ${stale.join(", ")}. Run: npx tsx widget/build.ts`);
      failed = true;
    } else console.log("Committed widget assets match a fresh build.");
  } else {
    await mkdir(ASSETS_DIR, { recursive: true });
    for (const [name, bytes] of built) await writeFile(path.join(ASSETS_DIR, name), bytes);
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
