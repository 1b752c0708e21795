/**
 * Where a storefront domain's own workspace stands (decision 0038): filled (the storefront
 * configuration may name it), being filled, or not filled and why. Read by the storefront
 * configuration's writer (only a filled workspace is named), by the follower of the store's
 * domains (what to fill now) and by the Dashboard (what it tells the merchant).
 */
import type { SyncRun } from "@prisma/client";
import { nextQuotaReset } from "../../index-service/tiers";
import { runCounts, runsOfKeys } from "../../models/sync-runs.server";

export type DomainWorkspaceStanding =
  /** Its last fill succeeded and left nothing out for the quota. */
  | { kind: "filled"; at: Date }
  /** A fill is under way. */
  | { kind: "filling" }
  /** No fill has gone there yet (just added, or emptied and added back). */
  | { kind: "not-started" }
  /** The month's quota could not take everything: what was left out, and when it comes back. */
  | { kind: "over-quota"; products: number; posts: number; resetsOn: Date; at: Date }
  /** The last fill stopped (its export failed, the service refused): the reason, and when. */
  | { kind: "stopped"; message: string | null; at: Date };

/**
 * A workspace is filled when its newest finished fill succeeded with nothing over quota. A fill
 * that stopped after one that filled it leaves the earlier catalogue there: still filled.
 */
export async function domainWorkspaceStanding(ledgerKey: string): Promise<DomainWorkspaceStanding> {
  return standingFrom((await runsOfKeys([ledgerKey])).get(ledgerKey) ?? []);
}

/**
 * Of these keys, those whose workspace is filled (the storefront configuration may name it):
 * one query a thousand keys, so thousands of domains do not cost thousands of queries.
 */
export async function filledWorkspaceKeys(ledgerKeys: readonly string[]): Promise<Set<string>> {
  const filled = new Set<string>();
  for (const [key, runs] of await runsOfKeys(ledgerKeys)) {
    if ((await standingFrom(runs)).kind === "filled") filled.add(key);
  }
  return filled;
}

/** Where a workspace stands, from every run kept under its key. */
async function standingFrom(runs: readonly SyncRun[]): Promise<DomainWorkspaceStanding> {
  if (runs.some((run) => run.activeShop !== null)) return { kind: "filling" };
  const newest = (of: SyncRun[], when: (run: SyncRun) => Date) =>
    of.reduce<SyncRun | null>((best, run) => (!best || when(run) > when(best) ? run : best), null);
  const finishedAt = (run: SyncRun) => run.finishedAt ?? run.startedAt;
  const last = newest(
    runs.filter((run) => run.state !== "running"),
    finishedAt,
  );
  const succeeded = newest(
    runs.filter((run) => run.state === "succeeded"),
    (run) => run.startedAt,
  );
  if (!last) return { kind: "not-started" };
  const at = finishedAt(last);
  if (last.state !== "succeeded") {
    if (succeeded && (await leftNothingOut(succeeded))) {
      return { kind: "filled", at: finishedAt(succeeded) };
    }
    return { kind: "stopped", message: last.errorMessage, at };
  }
  const counts = await runCounts(last);
  const products = counts.products.overQuota;
  const posts = counts.posts.overQuota;
  if (products + posts > 0) {
    return { kind: "over-quota", products, posts, resetsOn: nextQuotaReset(at), at };
  }
  return { kind: "filled", at };
}

async function leftNothingOut(run: Parameters<typeof runCounts>[0]): Promise<boolean> {
  const counts = await runCounts(run);
  return counts.products.overQuota + counts.posts.overQuota === 0;
}
