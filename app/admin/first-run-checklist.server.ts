/**
 * The Dashboard's first-run checklist, each step read from where it is true: the keys from the
 * shop's record, the first sync from its runs, the chat from the store's live theme (the app
 * embed's state through the Admin API, never assumed), the first conversation from the
 * service's events.
 */
import type { Shop } from "@prisma/client";
import { readChatEmbedState, type ChatEmbedState } from "../shopify/theme-app-embed";
import { type AdminGraphql } from "../shopify/admin-graphql";
import { conversationStarted } from "../models/service-events.server";
import { hasSucceededRun } from "../models/sync-runs.server";

export interface ChecklistStep {
  id: "keys" | "first-sync" | "chat-on" | "conversation";
  label: string;
  done: boolean;
  /** What to do next, or why the app cannot tell. */
  hint: string | null;
}

const CHAT_HINTS: Record<ChatEmbedState, string | null> = {
  on: null,
  off: "Switch on “Storefront chat” under App embeds in your live theme, then save the theme.",
  "no-access":
    "The app cannot see your themes yet: open the app again and approve the new permission (read themes).",
  unknown: "Shopify did not say whether the chat is on in your live theme; reload to ask again.",
};

export async function firstRunChecklist(
  shopDomain: string,
  shop: Shop | null,
  admin: AdminGraphql,
): Promise<{ steps: ChecklistStep[]; complete: boolean }> {
  const [synced, chat, conversation] = await Promise.all([
    hasSucceededRun(shopDomain),
    readChatEmbedState(admin),
    conversationStarted(shopDomain),
  ]);
  const keys = Boolean(shop?.secretKeyCiphertext && shop.publishableKey);
  const steps: ChecklistStep[] = [
    {
      id: "keys",
      label: "Keys saved",
      done: keys,
      hint: keys ? null : "Add the search service's secret and publishable keys in Settings.",
    },
    {
      id: "first-sync",
      label: "First sync done",
      done: synced,
      hint: synced ? null : "It starts by itself once the keys are saved.",
    },
    {
      id: "chat-on",
      label: "Chat switched on in the live theme",
      done: chat === "on",
      hint: CHAT_HINTS[chat],
    },
    {
      id: "conversation",
      label: "First conversation",
      done: conversation,
      hint: conversation ? null : "Open your store and ask the chat a question.",
    },
  ];
  return { steps, complete: steps.every((step) => step.done) };
}
