/**
 * Whose event is it? The service sends every event of an account to every webhook of the account
 * (spec §6.1), and one account's keys may serve several shops, each in its own workspace. Chat,
 * handoff and feedback events name their workspace (`data.workspace_id`); `contact.submitted`
 * names only its thread, so it is the shop's when the shop has seen that thread in its own
 * workspace. Pure.
 */

type Attribution =
  /** Names this shop's workspace, or is the shop's own test delivery. */
  | "this-shop"
  /** Names another workspace: another shop's, or a workspace of the account no shop uses. */
  | "another-workspace"
  /** Names no workspace: the shop's if its thread is. */
  | "by-thread";

export function attributionOf(
  event: { data: Record<string, unknown> },
  shopWorkspace: string | null,
  test: boolean,
): Attribution {
  if (test) return "this-shop";
  const named = event.data.workspace_id;
  if (typeof named !== "string" || named.trim() === "") return "by-thread";
  // The service turns dots into hyphens itself (spec §5.6); the app stores the hyphenated form.
  const workspace = named.trim().toLowerCase().replaceAll(".", "-");
  return shopWorkspace !== null && workspace === shopWorkspace.toLowerCase()
    ? "this-shop"
    : "another-workspace";
}
