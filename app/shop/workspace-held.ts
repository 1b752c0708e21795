/**
 * What a merchant reads when a workspace is another store's (app/models/workspace-claims.server.ts):
 * each workspace belongs to one store connected to this app, so that neither store's shoppers
 * reach the other's catalogue or Inbox.
 */
export function workspaceHeldMessage(workspaceId: string): string {
  return `workspace ${workspaceId} belongs to another store connected to this app`;
}

/** Settings' words when the workspace a save would write to is another store's. */
export function workspaceHeldProblem(workspaceId: string, ownFallback: string): string {
  return `The ${workspaceHeldMessage(workspaceId)}. Enter one of your own in “Use another workspace id”, such as ${ownFallback}.`;
}
