/**
 * The store's online-store themes, as the Admin API's `themes` query and `OnlineStoreTheme.files`
 * show them (API 2026-10, scope read_themes): a published (MAIN) theme and an unpublished copy.
 * App embeds live in each theme's config/settings_data.json under `current.blocks`, keyed by a
 * block id, with `type` "shopify://apps/<app handle>/blocks/<block handle>/<uuid>" and `disabled`;
 * the file starts with the comment Shopify writes at its top. Switching the chat's embed on or
 * off rewrites the MAIN theme's file, as the theme editor's toggle does.
 *
 * A file's body comes in one of the forms Shopify's schema has for it (`setFileBodies`): text
 * (`OnlineStoreThemeFileBodyText`), a short-lived URL to fetch without credentials
 * (`OnlineStoreThemeFileBodyUrl`, served under /theme-files/), or the file left out of `files`,
 * as `first` allows ("fewer than n files may be returned to stay within the payload size limit").
 */
import { randomUUID } from "node:crypto";
import { connection, type ConnectionArgs } from "./connection";
import { gid } from "./gid";

type Json = Record<string, unknown>;

export const SETTINGS_DATA = "config/settings_data.json";
export const THEME_FILES_PREFIX = "/theme-files/";

/** How the `files` field answers: each file's body as text, as a URL, or files left out. */
export type ThemeFileBodies = "text" | "url" | "left-out";
const EMBED_BLOCK_ID = "17000000000000000001";

const SETTINGS_COMMENT = `/*
 * ------------------------------------------------------------
 * IMPORTANT: The contents of this file are auto-generated.
 *
 * This file may be updated by the Shopify admin theme editor
 * or related systems. Please exercise caution as any changes
 * made to this file may be overwritten.
 * ------------------------------------------------------------
 */
`;

interface FakeTheme {
  id: number;
  name: string;
  role: "MAIN" | "UNPUBLISHED";
  createdAt: string;
  updatedAt: string;
  files: Map<string, string>;
}

export interface AppEmbedOptions {
  /** The app's handle in the block type (shopify.app.toml `handle`). */
  appHandle: string;
  /** The theme app extension's block (its file name in blocks/). */
  blockHandle: string;
}

export class ThemeStore {
  readonly themes: FakeTheme[];
  fileBodies: ThemeFileBodies = "text";
  /** Short-lived file URLs handed out: token → the file's content when it was asked for. */
  readonly #urls = new Map<string, string>();

  constructor(
    now: string,
    private readonly embed: AppEmbedOptions = {
      appHandle: "catalog-chat",
      blockHandle: "chat-widget",
    },
  ) {
    this.themes = [
      {
        id: 150_000_000_001,
        name: "Dawn",
        role: "MAIN",
        createdAt: now,
        updatedAt: now,
        files: new Map(),
      },
      {
        id: 150_000_000_002,
        name: "Dawn (draft with the chat)",
        role: "UNPUBLISHED",
        createdAt: now,
        updatedAt: now,
        files: new Map(),
      },
    ];
    // The live theme starts without the chat; a draft theme has it switched on, which must not
    // count (only the published theme reaches shoppers).
    this.#writeSettings(this.themes[0]!, { enabled: false, installed: false }, now);
    this.#writeSettings(this.themes[1]!, { enabled: true, installed: true }, now);
  }

  mainTheme(): FakeTheme {
    return this.themes.find((theme) => theme.role === "MAIN")!;
  }

  /** The theme editor's "App embeds" toggle on the published theme. */
  setChatEmbed(enabled: boolean, now: string): void {
    this.#writeSettings(this.mainTheme(), { enabled, installed: true }, now);
  }

  /** A URL for this content, as `OnlineStoreThemeFileBodyUrl` gives one. */
  fileUrl(baseUrl: string, content: string): string {
    const token = randomUUID();
    this.#urls.set(token, content);
    return `${baseUrl}${THEME_FILES_PREFIX}${token}`;
  }

  /** What a file URL serves, or undefined for one never handed out. */
  fileAtUrl(token: string): string | undefined {
    return this.#urls.get(token);
  }

  chatEmbedEnabled(): boolean {
    const text = this.mainTheme().files.get(SETTINGS_DATA) ?? "";
    return text.includes(`"disabled": false`);
  }

  #writeSettings(theme: FakeTheme, embed: { enabled: boolean; installed: boolean }, now: string) {
    const blocks: Json = embed.installed
      ? {
          [EMBED_BLOCK_ID]: {
            type: `shopify://apps/${this.embed.appHandle}/blocks/${this.embed.blockHandle}/0b6f3d2e-3c1a-4f5e-9d3b-7a1c2e4f5a6b`,
            disabled: !embed.enabled,
            settings: { accent_color: "#1a73e8" },
          },
        }
      : {};
    const settings = {
      current: { colors_solid_button_labels: "#ffffff", blocks },
      presets: { Default: { colors_solid_button_labels: "#ffffff" } },
    };
    theme.files.set(SETTINGS_DATA, SETTINGS_COMMENT + JSON.stringify(settings, null, 2));
    theme.files.set("layout/theme.liquid", "<!doctype html><html>{{ content_for_layout }}</html>");
    theme.updatedAt = now;
  }
}

function fileView(
  store: ThemeStore,
  baseUrl: string,
  theme: FakeTheme,
  filename: string,
  content: string,
): Json {
  const body =
    store.fileBodies === "url"
      ? { __typename: "OnlineStoreThemeFileBodyUrl", url: store.fileUrl(baseUrl, content) }
      : { __typename: "OnlineStoreThemeFileBodyText", content };
  return {
    __typename: "OnlineStoreThemeFile",
    filename,
    contentType: filename.endsWith(".json") ? "application/json" : "text/plain",
    size: String(Buffer.byteLength(content)),
    checksumMd5: null,
    createdAt: theme.createdAt,
    updatedAt: theme.updatedAt,
    body,
  };
}

/** `*` in a requested filename matches any run of characters, as the API documents. */
function matches(pattern: string, filename: string): boolean {
  const expression = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${expression}$`).test(filename);
}

function themeView(store: ThemeStore, baseUrl: string, theme: FakeTheme): Json {
  return {
    __typename: "OnlineStoreTheme",
    id: gid("OnlineStoreTheme", theme.id),
    name: theme.name,
    prefix: `/t/${theme.id % 1000}`,
    processing: false,
    processingFailed: false,
    role: theme.role,
    themeStoreId: 887,
    translations: [],
    createdAt: theme.createdAt,
    updatedAt: theme.updatedAt,
    files: (args: ConnectionArgs & { filenames?: string[] | null }) => {
      const wanted = args.filenames;
      const files = [...theme.files.entries()].filter(
        ([filename]) =>
          store.fileBodies !== "left-out" &&
          (!wanted || wanted.some((pattern) => matches(pattern, filename))),
      );
      return {
        ...connection(files, { first: args.first ?? 50, after: args.after }, ([name, content]) =>
          fileView(store, baseUrl, theme, name, content),
        ),
        userErrors: [],
      };
    },
  };
}

/** Access denied as Shopify answers a field the app has no scope for. */
class AccessDeniedError extends Error {
  readonly extensions = { code: "ACCESS_DENIED", requiredAccess: "`read_themes` access scope." };
  constructor(field: string) {
    super(`Access denied for ${field} field. Required access: \`read_themes\` access scope.`);
  }
}

/** The query root's theme fields; refused without the read_themes scope. */
export function themeQueries(
  store: ThemeStore,
  scopes: () => readonly string[],
  baseUrl: () => string,
): Json {
  const allowed = (field: string) => {
    if (!scopes().includes("read_themes") && !scopes().includes("write_themes"))
      throw new AccessDeniedError(field);
  };
  return {
    themes: (args: ConnectionArgs & { roles?: string[] | null; names?: string[] | null }) => {
      allowed("themes");
      const themes = store.themes.filter(
        (theme) =>
          (!args.roles || args.roles.includes(theme.role)) &&
          (!args.names || args.names.some((pattern) => matches(pattern, theme.name))),
      );
      return connection(themes, args, (theme) => themeView(store, baseUrl(), theme));
    },
    theme: ({ id }: { id: string }) => {
      allowed("theme");
      const theme = store.themes.find((candidate) => gid("OnlineStoreTheme", candidate.id) === id);
      return theme ? themeView(store, baseUrl(), theme) : null;
    },
  };
}
