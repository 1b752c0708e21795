/**
 * The periodic policy and entry check (policy-check.server.ts) for each storefront domain's
 * workspace: its policies and entries as that domain reads them (domain-content.server.ts),
 * compared with what its ledger says the workspace holds. A policy or entry counts as changed
 * when it, or its translation into the domain's language, was edited after the domain's latest
 * run began and its document differs; one the workspace holds that is gone counts whenever seen.
 * A translation removed carries no date: the daily sweep brings it back to the primary language.
 */
import type { Shop } from "@prisma/client";
import {
  SERVICE_ID_PREFIXES,
  contentHash,
  mapMetaobject,
  mapShopPolicy,
  type PostMapResult,
} from "../../catalogue";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { indexedPostHashesWithPrefix } from "../../models/ledger.server";
import { storefrontPresencesOf } from "../../models/storefront-presences.server";
import { latestRun } from "../../models/sync-runs.server";
import { readDomainEntries, readDomainPolicies, type Edited } from "./domain-content.server";
import { presenceWorkspacesOf } from "./presence-workspaces.server";

/** Shopify's clock and this server's may differ a little. */
const CLOCK_MARGIN_MS = 5 * 60_000;

async function differs<T>(
  scope: { shopDomain: string; workspaceId: string },
  prefix: string,
  read: Edited<T>[],
  map: (item: T) => PostMapResult,
  after: number,
): Promise<boolean> {
  const held = await indexedPostHashesWithPrefix(scope, prefix);
  const shown = new Set<string>();
  for (const { item, editedAt } of read) {
    const mapped = map(item);
    if (!mapped.indexable) continue;
    shown.add(mapped.id);
    if (editedAt >= after && held.get(mapped.id) !== contentHash(mapped.item)) return true;
  }
  return [...held.keys()].some((id) => !shown.has(id));
}

/**
 * Whether any storefront domain's workspace the shop's full syncs filled holds policies (when
 * the shop syncs pages) or entries of `metaobjectTypes` that differ from Shopify's.
 */
export async function domainContentChanged(
  shop: Shop,
  admin: AdminGraphql,
  metaobjectTypes: readonly string[],
): Promise<boolean> {
  const { presences } = await storefrontPresencesOf(shop.shopDomain);
  for (const workspace of presenceWorkspacesOf(shop, presences).workspaces) {
    const latest = await latestRun(workspace.ledgerKey);
    if (!latest || latest.state === "running") continue;
    const scope = { shopDomain: workspace.ledgerKey, workspaceId: workspace.workspaceId };
    const after = latest.startedAt.getTime() - CLOCK_MARGIN_MS;
    const context = { primaryDomain: workspace.host };
    if (
      shop.syncPages &&
      (await differs(
        scope,
        SERVICE_ID_PREFIXES.policy,
        await readDomainPolicies(admin, workspace),
        (policy) => mapShopPolicy(policy, context),
        after,
      ))
    )
      return true;
    if (
      metaobjectTypes.length > 0 &&
      (await differs(
        scope,
        SERVICE_ID_PREFIXES.metaobject,
        await readDomainEntries(admin, workspace, metaobjectTypes),
        (entry) => mapMetaobject(entry, context),
        after,
      ))
    )
      return true;
  }
  return false;
}
