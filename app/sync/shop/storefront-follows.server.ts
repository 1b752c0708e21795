/**
 * The storefront configuration (the chat's app-data metafield) names the workspace the widget
 * asks. After the shop's workspace changed with its primary domain, it keeps naming the old,
 * still-full workspace until the new one holds the catalogue; then it is rewritten to name the new
 * one, and only after that may the old one be emptied (app/sync/live/maintenance.server.ts).
 */
import type { Shop } from "@prisma/client";
import { writeStorefrontConfig, type AdminGraphql } from "../../catalog";
import { config } from "../../config.server";
import { nextQuotaReset } from "../../models/quota-usage.server";
import {
  findShop,
  recordStorefrontWorkspace,
  storefrontWorkspaceOf,
  workspaceOf,
} from "../../models/shops.server";
import { lastFinishedRun, runCounts, unfinishedRun } from "../../models/sync-runs.server";
import { adminFor } from "../../shopify-admin.server";

/** Writes the storefront configuration naming `workspaceId` (no secret), and records that it does. */
export async function pointStorefrontAt(
  admin: AdminGraphql,
  shop: Pick<Shop, "shopDomain">,
  publishableKey: string,
  workspaceId: string,
): Promise<void> {
  await writeStorefrontConfig(admin, {
    apiUrl: config().indexApiUrl,
    publishableKey,
    workspaceId,
  });
  await recordStorefrontWorkspace(shop.shopDomain, workspaceId);
}

/** Why the storefront still asks the old workspace. */
export type MoveWait =
  /** A full sync into the new workspace is under way. */
  | { kind: "sending" }
  /** No full sync has gone into the new workspace yet (the worker starts one). */
  | { kind: "not-started" }
  /** The last full sync into it stopped, for this reason (in the merchant's words). */
  | { kind: "stopped"; message: string | null }
  /** The month's quota could not take everything: what was left out, and when it comes back. */
  | { kind: "over-quota"; products: number; posts: number; resetsOn: Date }
  /** Filled: the storefront is being pointed at it (a moment, or Shopify refused the write). */
  | { kind: "filled" };

export type StorefrontStanding =
  | { kind: "follows"; workspaceId: string | null }
  | { kind: "waiting"; from: string; to: string; wait: MoveWait };

/**
 * Whether the storefront asks the shop's own workspace, and if not, why not yet. The new
 * workspace holds the catalogue once the shop's newest finished full sync went there, succeeded,
 * and left nothing over quota (an item the service refused would be refused in any workspace).
 */
export async function storefrontStanding(shop: Shop): Promise<StorefrontStanding> {
  const current = workspaceOf(shop);
  const storefront = storefrontWorkspaceOf(shop);
  if (!current || !storefront || storefront === current)
    return { kind: "follows", workspaceId: current };
  const waiting = (wait: MoveWait): StorefrontStanding => ({
    kind: "waiting",
    from: storefront,
    to: current,
    wait,
  });
  const active = await unfinishedRun(shop.shopDomain);
  if (active?.workspaceId === current) return waiting({ kind: "sending" });
  const last = await lastFinishedRun(shop.shopDomain);
  if (!last || last.workspaceId !== current) return waiting({ kind: "not-started" });
  if (last.state !== "succeeded") return waiting({ kind: "stopped", message: last.errorMessage });
  const counts = await runCounts(last);
  const products = counts.products.overQuota;
  const posts = counts.posts.overQuota;
  // A succeeded run owes nothing; should one still, the next run sends it.
  if (counts.pending > 0) return waiting({ kind: "stopped", message: null });
  if (products + posts > 0)
    return waiting({
      kind: "over-quota",
      products,
      posts,
      resetsOn: nextQuotaReset(last.finishedAt ?? last.startedAt),
    });
  return waiting({ kind: "filled" });
}

/**
 * Points the storefront at the shop's workspace once that workspace holds the catalogue. Returns
 * true when the storefront asks the shop's workspace (already, or now): only then may the
 * workspaces before it be emptied.
 */
export async function followStorefront(shopDomain: string, admin?: AdminGraphql): Promise<boolean> {
  const shop = await findShop(shopDomain);
  if (!shop) return false;
  const standing = await storefrontStanding(shop);
  if (standing.kind === "follows") return true;
  if (standing.wait.kind !== "filled") return false;
  // Without a publishable key the storefront has no configuration to follow.
  if (shop.publishableKey)
    await pointStorefrontAt(
      admin ?? (await adminFor(shopDomain)),
      shop,
      shop.publishableKey,
      standing.to,
    );
  else await recordStorefrontWorkspace(shopDomain, standing.to);
  return true;
}
