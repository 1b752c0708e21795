/**
 * The committed widget assets are what a fresh build of widget/ gives, byte for byte, and stay
 * within their budgets: the launcher (loaded with every page) under 2 KB gzipped, every JS asset
 * under Shopify's 10,000 bytes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  ASSET_GZIP_LIMIT,
  LAUNCHER_GZIP_BUDGET,
  buildWidget,
  gzipSize,
  staleAssets,
} from "../../widget/build";

describe("widget assets", () => {
  let built: Awaited<ReturnType<typeof buildWidget>>;

  beforeAll(async () => {
    built = await buildWidget();
  });

  it("are committed as a fresh build makes them (run: npx tsx widget/build.ts)", async () => {
    expect(await staleAssets(built)).toEqual([]);
  });

  it("fit their gzipped size budgets", () => {
    const launcher = built.get("chat-launcher.js")!;
    expect(gzipSize(launcher)).toBeLessThan(LAUNCHER_GZIP_BUDGET);
    for (const [name, bytes] of built) {
      expect(gzipSize(bytes), name).toBeLessThan(ASSET_GZIP_LIMIT);
    }
  });

  it("keep the chat out of the launcher and the reader in the chat", () => {
    const text = (name: "chat-launcher.js" | "chat-widget.js") =>
      new TextDecoder().decode(built.get(name));
    expect(text("chat-launcher.js")).not.toContain("text_delta");
    expect(text("chat-launcher.js")).not.toContain("innerHTML=`");
    // The project's NDJSON reader is bundled (its "incomplete" event), not a second one.
    expect(text("chat-widget.js")).toContain("incomplete");
    expect(text("chat-widget.js")).not.toContain("innerHTML");
  });
});
