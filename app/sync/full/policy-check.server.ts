/**
 * Following the shop's policies and the entries of its chosen metaobject definitions. Shopify
 * sends no webhook when a merchant edits, adds or removes a policy, and sends `metaobjects/*` only
 * to subscriptions filtered by each definition's type (decision 0030), so every changed-products
 * check (RECONCILE_CHECK_EVERY_MINUTES, hourly by default) also reads each shop's policies (one
 * query, a few cost points) and chosen entries (a query per 50 entries), maps and hashes them as a
 * full sync would, and compares them with the ledger. When one differs, is new or is gone, the
 * shop gets a full sync (trigger "reconcile"): through the ledger it sends only what changed, and
 * deletes what was removed. The daily full sweep covers them too. Each storefront domain's
 * workspace is compared as well, in its language (domain-content-check.server.ts).
 */
import {
  mapMetaobject,
  mapShopPolicy,
  SERVICE_ID_PREFIXES,
  SHOP_POLICIES_QUERY,
  contentHash,
  type ShopPoliciesData,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { indexedPostHashesWithPrefix } from "../../models/ledger.server";
import { chosenMetaobjectsOf, connectedActiveShops, workspaceOf } from "../../models/shops.server";
import { readMetaobjectEntries } from "./metaobject-entries.server";
import { domainContentChanged } from "./domain-content-check.server";
import { latestRun } from "../../models/sync-runs.server";
import type { ShopLeases } from "../engine/process-leases.server";
import { startShopSyncUnlessRunning } from "./run-full-sync.server";
import { logFor } from "../../server/log";
import { repeatWithoutOverlap } from "../../server/repeat-without-overlap";

const log = logFor("reconcile");

/** Shopify's clock and this server's may differ a little. */
const CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * Whether Shopify's policies differ from what the ledger says the index holds, counting only
 * edits made after `since` (the shop's latest run began): a policy the service refused or the
 * quota held back is not re-tried every hour by a whole sync, but by the daily sweep.
 */
export async function policiesChangedSince(
  scope: { shopDomain: string; workspaceId: string },
  primaryDomain: string,
  admin: AdminGraphql,
  since: Date,
): Promise<boolean> {
  const data = await queryAdmin<ShopPoliciesData>(admin, SHOP_POLICIES_QUERY);
  const held = await indexedPostHashesWithPrefix(scope, SERVICE_ID_PREFIXES.policy);
  const published = new Set<string>();
  const after = since.getTime() - CLOCK_MARGIN_MS;
  for (const policy of data.shop.shopPolicies) {
    const mapped = mapShopPolicy(policy, { primaryDomain });
    if (!mapped.indexable) continue;
    published.add(mapped.id);
    const edited = Date.parse(policy.updatedAt) >= after;
    if (edited && held.get(mapped.id) !== contentHash(mapped.item)) return true;
  }
  // A policy removed (or emptied) in Shopify that the index still holds.
  return [...held.keys()].some((id) => !published.has(id));
}

/**
 * Whether the entries of the chosen definitions differ from what the ledger holds, counting only
 * edits after `since`, as for policies; an entry deleted, unpublished or emptied (or of a
 * definition no longer chosen or deleted) that the index still holds counts whenever it is seen.
 */
export async function metaobjectsChangedSince(
  scope: { shopDomain: string; workspaceId: string },
  primaryDomain: string,
  admin: AdminGraphql,
  since: Date,
  types: readonly string[],
): Promise<boolean> {
  const entries = await readMetaobjectEntries(admin, types);
  const held = await indexedPostHashesWithPrefix(scope, SERVICE_ID_PREFIXES.metaobject);
  const shown = new Set<string>();
  const after = since.getTime() - CLOCK_MARGIN_MS;
  for (const entry of entries) {
    const mapped = mapMetaobject(entry, { primaryDomain });
    if (!mapped.indexable) continue;
    shown.add(mapped.id);
    const edited = Date.parse(entry.updatedAt) >= after;
    if (edited && held.get(mapped.id) !== contentHash(mapped.item)) return true;
  }
  return [...held.keys()].some((id) => !shown.has(id));
}

/**
 * For each connected shop that syncs pages or chose metaobject definitions, has had a full sync
 * and runs none now: a full sync when its policies or entries changed since. Returns the shops a
 * sync was started for.
 */
export async function followPolicyChanges(
  leases: ShopLeases,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): Promise<string[]> {
  const started: string[] = [];
  for (const shop of await connectedActiveShops()) {
    const workspaceId = workspaceOf(shop);
    const metaobjectTypes = chosenMetaobjectsOf(shop).map((m) => m.type);
    if ((!shop.syncPages && metaobjectTypes.length === 0) || !workspaceId) continue;
    try {
      const latest = await latestRun(shop.shopDomain);
      if (!latest || latest.activeShop !== null) continue;
      const admin = await adminOf(shop.shopDomain);
      const scope = { shopDomain: shop.shopDomain, workspaceId };
      const primaryDomain = shop.primaryDomain ?? shop.shopDomain;
      const changed =
        (shop.syncPages &&
          (await policiesChangedSince(scope, primaryDomain, admin, latest.startedAt))) ||
        (metaobjectTypes.length > 0 &&
          (await metaobjectsChangedSince(
            scope,
            primaryDomain,
            admin,
            latest.startedAt,
            metaobjectTypes,
          ))) ||
        // Each storefront domain's workspace, in its language: a full sync fills them after the shop's.
        (await domainContentChanged(shop, admin, metaobjectTypes));
      if (!changed) continue;
      const run = await startShopSyncUnlessRunning(leases, shop.shopDomain, "reconcile");
      if (run) started.push(shop.shopDomain);
    } catch (error) {
      log.error(
        { err: error, shop: shop.shopDomain },
        "the check of its policies and metaobject entries failed",
      );
    }
  }
  return started;
}

/** Checks every `everyMinutes` (never two passes at once); returns a stop function. */
export function schedulePolicyChecks(
  leases: ShopLeases,
  everyMinutes: number,
  adminOf: (shopDomain: string) => Promise<AdminGraphql>,
): () => void {
  return repeatWithoutOverlap(
    everyMinutes * 60_000,
    () => followPolicyChanges(leases, adminOf),
    (error) => log.error({ err: error }, "the policy check failed"),
  );
}
