/**
 * The theme app extension: theme check passes, the app embed's schema is what Shopify expects,
 * every translation key exists in every locale, and the labels the block renders are exactly the
 * widget's.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import toml from "@iarna/toml";
import { themeCheckRun } from "@shopify/theme-check-node";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, searchMarkup, widgetMarkup } from "../../dev/storefront/page";
import { DEFAULT_LABELS } from "../../widget/labels";
import { OFFER_LABELS } from "../../widget/offer";
import { PRODUCT_LABELS } from "../../widget/products";
import { SEARCH_LABELS } from "../../widget/search-labels";

/** Every widget text in English: the chat's, the offer form's and the product cards'. */
const ENGLISH = { ...DEFAULT_LABELS, ...OFFER_LABELS, ...PRODUCT_LABELS };

const EXTENSION = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../extensions/chat-widget",
);
const BLOCK = path.join(EXTENSION, "blocks/chat-widget.liquid");
const SEARCH_BLOCK = path.join(EXTENSION, "blocks/search-box.liquid");
const LOCALES = ["en.default", "fr", "de"];

/** Setting types a theme app extension block may use (Shopify's input and sidebar settings). */
const SETTING_TYPES = new Set([
  "checkbox",
  "number",
  "radio",
  "range",
  "select",
  "text",
  "textarea",
  "article",
  "blog",
  "collection",
  "collection_list",
  "color",
  "color_background",
  "color_scheme",
  "color_scheme_group",
  "font_picker",
  "html",
  "image_picker",
  "inline_richtext",
  "link_list",
  "liquid",
  "metaobject",
  "metaobject_list",
  "page",
  "product",
  "product_list",
  "richtext",
  "text_alignment",
  "url",
  "video",
  "video_url",
  "header",
  "paragraph",
]);

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

interface Setting {
  type: string;
  id?: string;
  label?: string;
  info?: string;
  content?: string;
  default?: unknown;
  options?: { value: string; label: string }[];
}

async function schema(file = BLOCK): Promise<{
  name: string;
  target: string;
  settings: Setting[];
  [key: string]: unknown;
}> {
  const liquid = await readFile(file, "utf8");
  const match = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(liquid);
  if (!match?.[1]) throw new Error("no schema in the block");
  return JSON.parse(match[1]) as Awaited<ReturnType<typeof schema>>;
}

/** Every "t:" key anywhere in a JSON value. */
function translationKeys(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string" && value.startsWith("t:")) out.push(value.slice(2));
  else if (Array.isArray(value)) value.forEach((v) => translationKeys(v, out));
  else if (value && typeof value === "object")
    Object.values(value).forEach((v) => translationKeys(v, out));
  return out;
}

function lookup(json: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => {
    return node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  }, json);
}

function leafKeys(json: unknown, prefix = ""): string[] {
  if (!json || typeof json !== "object") return [prefix];
  return Object.entries(json).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

describe("theme app extension", () => {
  it("passes Shopify's theme check without errors", async () => {
    const run = await themeCheckRun(EXTENSION, undefined, () => undefined);
    expect(run.config.context).toBe("app");
    expect(run.theme.map((file) => path.basename(file.uri))).toContain("chat-widget.liquid");
    const offenses = run.offenses.map(
      (o) => `${o.check} ${o.uri.split("chat-widget/")[1]}: ${o.message}`,
    );
    expect(offenses).toEqual([]);
  });

  it("holds only the folders Shopify accepts and a theme extension toml", async () => {
    const entries = await readdir(EXTENSION, { withFileTypes: true });
    const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    const files = entries.filter((e) => e.isFile()).map((e) => e.name);
    expect(dirs.every((d) => ["assets", "blocks", "locales", "snippets"].includes(d))).toBe(true);
    expect(files).toEqual(["shopify.extension.toml"]);
    const config = toml.parse(
      await readFile(path.join(EXTENSION, "shopify.extension.toml"), "utf8"),
    );
    expect(config.type).toBe("theme");
    expect(typeof config.name).toBe("string");
    expect(await readdir(path.join(EXTENSION, "assets"))).toEqual(
      expect.arrayContaining(["chat-launcher.js", "chat-widget.js", "chat-offer.js"]),
    );
  });

  it("is an app embed block targeting body with valid settings", async () => {
    const s = await schema();
    expect(s.target).toBe("body");
    expect(Object.keys(s).sort()).toEqual(["name", "settings", "target"]);
    const ids = settingIds(s.settings);
    // What merchants expect to set.
    expect([...ids].sort()).toEqual(["accent_color", "greeting", "position", "prompts", "title"]);
    const positions = s.settings.find((x) => x.id === "position")!.options!.map((o) => o.value);
    expect(positions).toEqual(["bottom-right", "bottom-left"]);
  });

  it("has a search box app block for a section, with valid settings", async () => {
    const s = await schema(SEARCH_BLOCK);
    expect(s.target).toBe("section");
    expect(Object.keys(s).sort()).toEqual(["name", "settings", "target"]);
    expect([...settingIds(s.settings)]).toEqual(["placeholder"]);
    const liquid = await readFile(SEARCH_BLOCK, "utf8");
    // The theme's own search form (it works without the script), the loader only on first use.
    expect(liquid).toContain('<form action="{{ routes.search_url }}" method="get" role="search">');
    expect(liquid).toContain('name="q"');
    expect(liquid).toContain("addEventListener('focusin', load)");
    expect(liquid.match(/<script/g)).toHaveLength(1);
    expect(liquid).not.toMatch(/<script src|stylesheet_tag|<link/);
  });
});

/** Checks each setting as Shopify's schema rules say; returns the ids. */
function settingIds(settings: Setting[]): Set<string> {
  const ids = new Set<string>();
  for (const setting of settings) {
    expect(SETTING_TYPES.has(setting.type), setting.type).toBe(true);
    if (setting.type === "header" || setting.type === "paragraph") {
      expect(setting.content).toBeTruthy();
      continue;
    }
    expect(setting.id).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(ids.has(setting.id!)).toBe(false);
    ids.add(setting.id!);
    expect(setting.label).toBeTruthy();
    if (setting.type === "select") {
      expect(setting.options?.map((o) => o.value)).toContain(setting.default);
    }
    if (setting.type === "color") expect(setting.default).toMatch(/^#[0-9a-f]{6}$/i);
  }
  return ids;
}

describe("theme app extension, texts and markup", () => {
  it("has every schema translation key in every locale", async () => {
    const keys = [
      ...translationKeys(await schema()),
      ...translationKeys(await schema(SEARCH_BLOCK)),
    ];
    expect(keys.length).toBeGreaterThan(8);
    const english = await readJson(path.join(EXTENSION, "locales/en.default.schema.json"));
    for (const locale of LOCALES) {
      const json = await readJson(path.join(EXTENSION, `locales/${locale}.schema.json`));
      for (const key of keys)
        expect(lookup(json, key), `${locale}: ${key}`).toEqual(expect.any(String));
      expect(leafKeys(json).sort(), locale).toEqual(leafKeys(english).sort());
    }
  });

  it("translates every widget label into every storefront locale", async () => {
    const expected = ["open", ...Object.keys(ENGLISH)].sort();
    for (const locale of LOCALES) {
      const json = await readJson(path.join(EXTENSION, `locales/${locale}.json`));
      const labels = lookup(json, "chat_widget.labels") as Record<string, string>;
      expect(Object.keys(labels).sort(), locale).toEqual(expected);
      for (const [key, text] of Object.entries(labels)) {
        expect(text.trim(), `${locale}: ${key}`).not.toBe("");
        // Placeholders survive translation.
        for (const placeholder of (ENGLISH as Record<string, string>)[key]?.match(/\{\w+\}/g) ??
          []) {
          expect(text, `${locale}: ${key}`).toContain(placeholder);
        }
      }
      // The launcher's accessible name contains "chat" in every language.
      expect(labels.open!.toLowerCase()).toContain("chat");
    }
    const english = await readJson(path.join(EXTENSION, "locales/en.default.json"));
    const { open, ...rest } = lookup(english, "chat_widget.labels") as Record<string, string>;
    expect(open).toBe("Open chat");
    expect(rest).toEqual(ENGLISH);
  });

  it("renders every label into data-labels as JSON", async () => {
    const snippet = await readFile(
      path.join(EXTENSION, "snippets/chat-widget-labels.liquid"),
      "utf8",
    );
    for (const key of ["open", ...Object.keys(ENGLISH)]) {
      expect(snippet).toContain(`"${key}":{{ 'chat_widget.labels.${key}' | t | json }}`);
    }
  });

  it("reads the service configuration from the app-owned metafield and loads the launcher deferred", async () => {
    const liquid = await readFile(BLOCK, "utf8");
    expect(liquid).toContain("app.metafields.chat_widget.config.value");
    for (const key of ["apiUrl", "publishableKey", "workspaceId"])
      expect(liquid).toContain(`config.${key}`);
    for (const attr of [
      "data-chat-widget",
      "data-api-url",
      "data-publishable-key",
      "data-workspace-id",
      "data-locale",
      "data-currency",
      "data-title",
      "data-greeting",
      "data-accent",
      "data-position",
      "data-prompts",
      "data-labels",
      "data-chat-src",
      "data-offer-src",
      "data-products-src",
      "data-css-src",
    ]) {
      expect(liquid).toContain(attr);
    }
    expect(liquid).toMatch(
      /<script src="{{ 'chat-launcher\.js' \| asset_url }}" defer="defer"><\/script>/,
    );
    // Nothing else is loaded with the page.
    expect(liquid.match(/<script/g)).toHaveLength(1);
    expect(liquid).not.toMatch(/stylesheet_tag|<link/);
  });

  it("is what the preview storefront renders, attribute for attribute", async () => {
    const liquid = await readFile(BLOCK, "utf8");
    const markup = widgetMarkup(
      {
        apiUrl: "https://svc.example",
        publishableKey: "svc_pk_x",
        workspaceId: "shop-example-com",
      },
      DEFAULT_SETTINGS,
    );
    const attrs = (text: string) => [...text.matchAll(/\s(data-[a-z-]+)/g)].map((m) => m[1]).sort();
    expect(attrs(markup)).toEqual(attrs(liquid.slice(0, liquid.indexOf("{% schema"))));
    expect(markup).toContain('<script src="/assets/chat-launcher.js" defer="defer"></script>');
  });

  it("translates every search box text into every storefront locale and renders it", async () => {
    const snippet = await readFile(
      path.join(EXTENSION, "snippets/search-box-labels.liquid"),
      "utf8",
    );
    for (const key of Object.keys(SEARCH_LABELS)) {
      expect(snippet).toContain(`"${key}":{{ 'search_box.labels.${key}' | t | json }}`);
    }
    // The form's own texts are rendered by the block itself.
    const expected = [...Object.keys(SEARCH_LABELS), "label", "placeholder", "submit"].sort();
    for (const locale of LOCALES) {
      const json = await readJson(path.join(EXTENSION, `locales/${locale}.json`));
      const labels = lookup(json, "search_box.labels") as Record<string, string>;
      expect(Object.keys(labels).sort(), locale).toEqual(expected);
      for (const [key, text] of Object.entries(labels)) {
        expect(text.trim(), `${locale}: ${key}`).not.toBe("");
        for (const placeholder of (SEARCH_LABELS as Record<string, string>)[key]?.match(
          /\{\w+\}/g,
        ) ?? []) {
          expect(text, `${locale}: ${key}`).toContain(placeholder);
        }
      }
    }
    const english = await readJson(path.join(EXTENSION, "locales/en.default.json"));
    const { label, placeholder, submit, ...rest } = lookup(english, "search_box.labels") as Record<
      string,
      string
    >;
    expect([label, placeholder, submit]).toEqual(["Search", "Search", "Search"]);
    expect(rest).toEqual(SEARCH_LABELS);
  });

  it("is the search box the preview storefront renders, attribute for attribute", async () => {
    const liquid = await readFile(SEARCH_BLOCK, "utf8");
    const markup = searchMarkup(
      {
        apiUrl: "https://svc.example",
        publishableKey: "svc_pk_x",
        workspaceId: "shop-example-com",
      },
      "en",
      "EUR",
    );
    const attrs = (text: string) => [...text.matchAll(/\s(data-[a-z-]+)/g)].map((m) => m[1]).sort();
    expect(attrs(markup)).toEqual(attrs(liquid.slice(0, liquid.indexOf("{% schema"))));
    expect(markup).toContain('role="search"');
    expect(markup).toContain("addEventListener('focusin', load)");
  });
});
