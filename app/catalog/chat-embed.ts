import { AdminApiError, queryAdmin, type AdminGraphql } from "./admin-graphql";
import { MAIN_THEME_SETTINGS_QUERY, type MainThemeSettingsData } from "./queries";

/** The theme app extension's block that carries the chat (extensions/chat-widget/blocks/). */
export const CHAT_EMBED_BLOCK = "chat-widget";

/**
 * The chat's app embed in the store's live theme: "on", "off" (added but switched off, or never
 * switched on), "no-access" (the app was not granted read_themes: installed before it asked), or
 * "unknown" (Shopify did not say; never assumed on).
 */
export type ChatEmbedState = "on" | "off" | "no-access" | "unknown";

export async function readChatEmbedState(admin: AdminGraphql): Promise<ChatEmbedState> {
  let data: MainThemeSettingsData;
  try {
    data = await queryAdmin<MainThemeSettingsData>(admin, MAIN_THEME_SETTINGS_QUERY);
  } catch (error) {
    if (error instanceof AdminApiError && isAccessDenied(error.errors)) return "no-access";
    return "unknown";
  }
  const theme = data.themes.nodes[0];
  if (!theme) return "unknown";
  const body = theme.files?.nodes.find(
    (file) => file.filename === "config/settings_data.json",
  )?.body;
  const text =
    body?.content ??
    (body?.contentBase64 ? Buffer.from(body.contentBase64, "base64").toString("utf8") : undefined);
  if (text === undefined) return "off";
  return chatEmbedOn(text) ?? "unknown";
}

function isAccessDenied(errors: unknown): boolean {
  return (
    Array.isArray(errors) &&
    errors.some(
      (error: { extensions?: { code?: string } }) => error?.extensions?.code === "ACCESS_DENIED",
    )
  );
}

/**
 * Reads settings_data.json (Shopify writes a comment block at its top): the chat is on when a
 * block of `current.blocks` is the chat's app embed and is not disabled. `current` may also be a
 * preset's name (a string), which holds no embed. Undefined when the file is not JSON.
 */
export function chatEmbedOn(settingsData: string): "on" | "off" | undefined {
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
  const on = Object.values(blocks).some((block: unknown) => {
    if (typeof block !== "object" || !block) return false;
    const { type, disabled } = block as { type?: unknown; disabled?: unknown };
    return (
      typeof type === "string" &&
      type.startsWith("shopify://apps/") &&
      type.includes(`/blocks/${CHAT_EMBED_BLOCK}/`) &&
      disabled === false
    );
  });
  return on ? "on" : "off";
}
