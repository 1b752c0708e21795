import { startEmulator, type EmulatorOptions } from "../dev/emulator/server";

export type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, tokenDelayMs: 0, ...options });
}

/** The content writes (bulk and single upserts and deletes) the emulator received. */
export function contentWrites(emulator: RunningEmulator, account?: string) {
  return emulator.state
    .requests()
    .filter(
      (r) =>
        r.method !== "GET" &&
        /^\/(products|posts)(\/|$)/.test(r.path) &&
        !r.path.endsWith("/search"),
    )
    .filter((r) => account === undefined || r.account === account);
}

export function indexedIds(emulator: RunningEmulator, account: string, workspaceId: string) {
  const workspace = emulator.state.workspace(account, workspaceId);
  return {
    products: (workspace?.products ?? []).map((p) => String(p.id)).sort(),
    posts: (workspace?.posts ?? []).map((p) => String(p.id)).sort(),
  };
}
