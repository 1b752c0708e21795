/**
 * Where a storefront domain's own workspace stands (decision 0038): filled (the storefront
 * configuration may name it), being filled, or not filled and why. Read by the storefront
 * configuration's writer (only a filled workspace is named), by the follower of the store's
 * domains (what to fill now) and by the Dashboard (what it tells the merchant).
 */
import { nextQuotaReset } from "../../index-service/tiers";
import {
  lastFinishedRun,
  lastSucceededRun,
  runCounts,
  unfinishedRun,
} from "../../models/sync-runs.server";

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
  if (await unfinishedRun(ledgerKey)) return { kind: "filling" };
  const [last, succeeded] = await Promise.all([
    lastFinishedRun(ledgerKey),
    lastSucceededRun(ledgerKey),
  ]);
  if (!last) return { kind: "not-started" };
  const at = last.finishedAt ?? last.startedAt;
  if (last.state !== "succeeded") {
    if (succeeded && (await leftNothingOut(succeeded))) {
      return { kind: "filled", at: succeeded.finishedAt ?? succeeded.startedAt };
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

/** Whether the storefront configuration may name this domain's workspace. */
export async function isDomainWorkspaceFilled(ledgerKey: string): Promise<boolean> {
  return (await domainWorkspaceStanding(ledgerKey)).kind === "filled";
}
