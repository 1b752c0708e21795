import { isAccessDenied, queryAdmin, type AdminGraphql } from "./admin-graphql";
import { MAIN_THEME_SETTINGS_QUERY, type MainThemeSettingsData } from "../catalogue/queries";

/** The theme app extension's block that carries the chat (extensions/chat-widget/blocks/). */
export const CHAT_EMBED_BLOCK = "chat-widget";

/** How long the file's short-lived URL may take to answer before the state is "unknown". */
const BODY_URL_TIMEOUT_MS = 10_000;

/**
 * The chat's app embed in the store's live theme: "on", "off" (added but switched off, or never
 * switched on), "no-access" (the app was not granted read_themes: installed before it asked), or
 * "unknown" (Shopify did not say; never assumed on).
 */
export type ChatEmbedState = "on" | "off" | "no-access" | "unknown";

/**
 * Reads the MAIN theme's config/settings_data.json through the Admin API. Shopify answers a
 * file's body as text, as base64 or as a short-lived URL to fetch, and may return fewer files than
 * asked "to stay within the payload size limit": a file left out says nothing, so "unknown".
 */
export async function readChatEmbedState(admin: AdminGraphql): Promise<ChatEmbedState> {
  let data: MainThemeSettingsData;
  try {
    data = await queryAdmin<MainThemeSettingsData>(admin, MAIN_THEME_SETTINGS_QUERY);
  } catch (error) {
    if (isAccessDenied(error)) return "no-access";
    return "unknown";
  }
  const appHandle = data.currentAppInstallation?.app?.handle;
  const theme = data.themes.nodes[0];
  if (!theme || !appHandle) return "unknown";
  const body = theme.files?.nodes.find(
    (file) => file.filename === "config/settings_data.json",
  )?.body;
  if (!body) return "unknown";
  const text = await bodyText(body);
  if (text === undefined) return "unknown";
  return chatEmbedOn(text, appHandle) ?? "unknown";
}

async function bodyText(body: {
  content?: string;
  contentBase64?: string;
  url?: string;
}): Promise<string | undefined> {
  if (typeof body.content === "string") return body.content;
  if (typeof body.contentBase64 === "string") {
    return Buffer.from(body.contentBase64, "base64").toString("utf8");
  }
  if (typeof body.url !== "string") return undefined;
  try {
    // Unauthenticated, as Shopify's file URLs are (the access token never leaves the Admin API).
    const answer = await fetch(body.url, { signal: AbortSignal.timeout(BODY_URL_TIMEOUT_MS) });
    return answer.ok ? await answer.text() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads settings_data.json (Shopify writes a comment block at its top): the chat is on when a
 * block of `current.blocks` is this app's chat embed and is not disabled. An app embed's type is
 * `shopify://apps/<app handle>/blocks/<block handle>/<extension uid>`: the app's own handle
 * (`currentAppInstallation.app.handle`) tells the chat from another app's block of the same name.
 * A block without `disabled` is on (Shopify leaves the key out as often as it writes `false`);
 * `disabled: true`, or a value that is not a boolean, is off. `current` may also be a preset's
 * name (a string), which holds no embed. Undefined when the file is not JSON.
 */
export function chatEmbedOn(settingsData: string, appHandle: string): "on" | "off" | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(settingsData.replace(/^\s*\/\*[\s\S]*?\*\//, ""));
  } catch {
    return undefined;
  }
  const current = (parsed as { current?: unknown } | null)?.current;
  const blocks =
    typeof current === "object" && current ? (current as { blocks?: unknown }).blocks : null;
  if (typeof blocks !== "object" || !blocks) return "off";
  const prefix = `shopify://apps/${appHandle}/blocks/${CHAT_EMBED_BLOCK}/`;
  const on = Object.values(blocks).some((block: unknown) => {
    if (typeof block !== "object" || !block) return false;
    const { type, disabled } = block as { type?: unknown; disabled?: unknown };
    return (
      typeof type === "string" &&
      type.startsWith(prefix) &&
      type.length > prefix.length &&
      (disabled === undefined || disabled === false)
    );
  });
  return on ? "on" : "off";
}
