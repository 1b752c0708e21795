/**
 * Whose event is it? The service sends every event of an account to every webhook of the account
 * (spec §6.1), and one account's keys may serve several shops, each in workspaces of its own: its
 * primary one, one per storefront domain, and those it wrote to before a domain or key change.
 * Chat, handoff and feedback events name their workspace (`data.workspace_id`): the event is the
 * shop's when the shop holds that workspace (app/models/workspace-claims.server.ts), or, for a
 * workspace no shop holds, when it is the shop's own. `contact.submitted` names only its thread,
 * so it is the shop's when the shop has seen that thread. Pure.
 */

import { normalizedWorkspaceId } from "../index-service/workspace-id";

type Attribution =
  /** Names this shop's workspace, or is the shop's own test delivery. */
  | "this-shop"
  /** Names another workspace: another shop's, or a workspace of the account no shop uses. */
  | "another-workspace"
  /** Names no workspace: the shop's if its thread is. */
  | "by-thread";

/** The workspace the event names, as the app stores ids (spec §5.6: dots become hyphens). */
export function namedWorkspaceOf(event: { data: Record<string, unknown> }): string | null {
  const named = event.data.workspace_id;
  if (typeof named !== "string" || named.trim() === "") return null;
  return normalizedWorkspaceId(named);
}

export function attributionOf(
  event: { data: Record<string, unknown> },
  shop: { shopDomain: string; workspace: string | null },
  /** The shop holding the workspace the event names (null: none does). */
  holder: string | null,
  test: boolean,
): Attribution {
  if (test) return "this-shop";
  const workspace = namedWorkspaceOf(event);
  if (workspace === null) return "by-thread";
  if (holder !== null) return holder === shop.shopDomain ? "this-shop" : "another-workspace";
  return shop.workspace !== null && workspace === shop.workspace.toLowerCase()
    ? "this-shop"
    : "another-workspace";
}
