/**
 * "Chat switched on in the live theme", read as the app reads it: the Admin API's themes query
 * (the MAIN theme's config/settings_data.json) through Shopify's own client against the fake
 * Admin API over HTTP, and the settings file's hostile shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatEmbedOn, readChatEmbedState } from "../../app/shopify/theme-app-embed";
import { type AdminGraphql } from "../../app/shopify/admin-graphql";
import { startFakeShopify } from "../../dev/fake-shopify/server";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";

type Fake = Awaited<ReturnType<typeof startFakeShopify>>;
let fake: Fake;
let withoutScope: Fake;
const admins = new Map<Fake, AdminGraphql>();

beforeAll(async () => {
  fake = await startFakeShopify();
  withoutScope = await startFakeShopify({ scopes: ["read_products", "read_online_store_pages"] });
  for (const running of [fake, withoutScope]) {
    admins.set(running, await shopifyAdminClient(running.graphqlUrl));
  }
});

afterAll(async () => {
  await fake?.close();
  await withoutScope?.close();
});

const adminOf = (running: Fake) => admins.get(running)!;

describe("the chat's app embed in the live theme", () => {
  it("is off until the theme editor's toggle switches it on in the MAIN theme, and off again", async () => {
    // An unpublished draft theme has it on: that must not count.
    expect(await readChatEmbedState(adminOf(fake))).toBe("off");
    fake.state.setChatEmbed(true);
    expect(await readChatEmbedState(adminOf(fake))).toBe("on");
    fake.state.setChatEmbed(false);
    expect(await readChatEmbedState(adminOf(fake))).toBe("off");
  });

  it("the HTTP control switches it too", async () => {
    const answer = await fetch(`${fake.url}/__fake/theme/app-embed`, {
      method: "POST",
      body: JSON.stringify({ enabled: true }),
    });
    expect(await answer.json()).toEqual({ enabled: true });
    expect(await readChatEmbedState(adminOf(fake))).toBe("on");
    const refused = await fetch(`${fake.url}/__fake/theme/app-embed`, {
      method: "POST",
      body: JSON.stringify({ enabled: "yes" }),
    });
    expect(refused.status).toBe(400);
  });

  it("reads the file when Shopify gives its body as a short-lived URL", async () => {
    fake.state.setChatEmbed(true);
    fake.state.setThemeFileBodies("url");
    try {
      expect(await readChatEmbedState(adminOf(fake))).toBe("on");
      fake.state.setChatEmbed(false);
      expect(await readChatEmbedState(adminOf(fake))).toBe("off");
    } finally {
      fake.state.setThemeFileBodies("text");
    }
  });

  it("says unknown, not off, when Shopify leaves the file out of its answer", async () => {
    fake.state.setChatEmbed(true);
    fake.state.setThemeFileBodies("left-out");
    try {
      expect(await readChatEmbedState(adminOf(fake))).toBe("unknown");
    } finally {
      fake.state.setThemeFileBodies("text");
      fake.state.setChatEmbed(false);
    }
  });

  it("says no-access, not off, when the app was not granted read_themes", async () => {
    withoutScope.state.setChatEmbed(true);
    expect(await readChatEmbedState(adminOf(withoutScope))).toBe("no-access");
  });
});

describe("settings_data.json as the store holds it", () => {
  const block = (type: string, disabled: unknown) =>
    JSON.stringify({ current: { blocks: { "1": { type, disabled, settings: {} } } } });
  const APP = "catalog-chat";
  const CHAT =
    "shopify://apps/catalog-chat/blocks/chat-widget/0b6f3d2e-3c1a-4f5e-9d3b-7a1c2e4f5a6b";
  const on = (text: string) => chatEmbedOn(text, APP);

  it("reads past Shopify's comment header", () => {
    expect(on(`/*\n * IMPORTANT: auto-generated\n */\n${block(CHAT, false)}`)).toBe("on");
  });

  it("an entry without a disabled key is on, as Shopify means it", () => {
    expect(on(block(CHAT, undefined))).toBe("on");
  });

  it("counts only this app's chat block, not switched off", () => {
    expect(on(block(CHAT, true))).toBe("off");
    expect(on(block(CHAT, "false"))).toBe("off");
    expect(on(block("shopify://apps/other-app/blocks/reviews/1234", false))).toBe("off");
    expect(on(block("/blocks/chat-widget/ in a theme section", false))).toBe("off");
    // Another app's embed block of the same name, and a handle that only starts like this one's.
    expect(on(block("shopify://apps/other-chat/blocks/chat-widget/9f8e7d6c", false))).toBe("off");
    expect(on(block("shopify://apps/catalog-chat-2/blocks/chat-widget/9f8e7d6c", false))).toBe(
      "off",
    );
  });

  it("a preset name as current, no blocks, or a file that is not JSON", () => {
    expect(on(JSON.stringify({ current: "Default" }))).toBe("off");
    expect(on(JSON.stringify({ current: { blocks: null } }))).toBe("off");
    expect(on(JSON.stringify(null))).toBe("off");
    expect(on("{ not json")).toBeUndefined();
  });
});
