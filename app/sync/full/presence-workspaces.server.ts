/**
 * Each storefront domain of the shop other than the primary one (a market on `shop.fr`, a
 * subdomain `fr.shop.com`) gets a workspace of its own, named after its domain as the service
 * names a browser's workspace (spec §5.6, `workspaceIdFromDomain`), holding the catalogue as a
 * shopper there sees it: products, pages, articles, policies and chosen metaobject entries in
 * that storefront's default language, field by field from Shopify's translations (the primary
 * language where one is missing or outdated), with URLs on that domain (domain-content.server.ts
 * for policies and entries). Filled after the shop's own full sync, by the same engine, through
 * the same pacer and key; the primary workspace is not touched.
 *
 * A domain workspace's runs and ledger rows are kept under their own key (`presenceLedgerKey`),
 * not the shop's: the Dashboard, the live worker and the move between workspaces (which read
 * "the shop's last run" and "workspaces that are no longer the shop's") see exactly what they
 * saw before. Its plan counts against the shop's month's quota (one account:
 * docs/reference/quota-per-account.md). Decision 0032 says what this leaves out.
 */
import type { Shop } from "@prisma/client";
import {
  isLocaleTag,
  marketBulkQuery,
  marketSource,
  translatedBulkQuery,
  translatedSource,
  withMetafieldTranslations,
  type ChosenMetafield,
  type MarketLinesReport,
  type ReferenceNames,
} from "../../catalogue";
import { InvalidDomainError, workspaceIdFromDomain } from "../../index-service/workspace-id";
import type { Tier } from "../../index-service/tiers";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { startBulkQuery, waitForBulkOperation } from "../../shopify/bulk-operation";
import { urlSource, type BulkSource } from "../../shopify/bulk-source";
import type { StorefrontPresence } from "../../shopify/storefront-presences.server";
import { storefrontPresencesOf } from "../../models/storefront-presences.server";
import {
  finishRun,
  recordStoppedRun,
  unfinishedRun,
  type SyncTrigger,
} from "../../models/sync-runs.server";
import {
  chosenMetaobjectsOf,
  unindexedDomainsOf,
  findShop,
  storefrontWorkspaceOf,
  workspaceOf,
} from "../../models/shops.server";
import { domainEntriesSource, domainPoliciesSource } from "./domain-content.server";
import { filledWorkspaceKeys } from "./domain-workspace-standing.server";
import {
  boundedStorefrontConfig,
  writeStorefrontConfig,
  type StorefrontConfig,
} from "../../shopify/storefront-config";
import { config } from "../../config.server";
import { serviceClientForWorkspace } from "../../shop/service-keys.server";
import type { HeldLease } from "../engine/process-leases.server";
import { pacers } from "../engine/pacer-registry.server";
import type { CatalogueType } from "../engine/catalogue-entry";
import { referenceNamesByLocale } from "../engine/reference-names.server";
import { runFullSync, type FullSyncResult } from "../engine/sync-export.server";
import { logFor } from "../../server/log";
import { presenceMarketPlan } from "./presence-market.server";
import { claimWorkspace, heldByOtherShops } from "../../models/workspace-claims.server";
import { workspaceHeldMessage } from "../../shop/workspace-held";

const log = logFor("sync");

export interface PresenceWorkspace {
  host: string;
  /** The storefront's default locale: the language its workspace holds. */
  locale: string;
  workspaceId: string;
  /** Whose runs and ledger rows these are (see the file's comment). */
  ledgerKey: string;
  /** The web presence's gid: its market gives the prices and the products shown. */
  webPresenceId: string;
}

/** The key a domain workspace's runs and ledger rows are kept under: never a shop's domain. */
export function presenceLedgerKey(shopDomain: string, workspaceId: string): string {
  return `${shopDomain}#${workspaceId}`;
}

/**
 * A domain workspace's run is carried by the shop's full sync, under the shop's lease, never
 * resumed on its own: one a stopped process left is closed by the shop's next full sync.
 */
export function isPresenceLedgerKey(key: string): boolean {
  return key.includes("#");
}

/**
 * The storefronts that get a workspace of their own: each web presence on a domain other than
 * the primary one, in its default locale while shoppers can see it (published, and a market it
 * serves active). A domain no
 * workspace id can be made from is named in `problems` and left out.
 */
export function presenceWorkspacesOf(
  shop: Pick<Shop, "shopDomain" | "primaryDomain" | "workspaceId" | "workspaceOverride"> &
    Partial<Pick<Shop, "storefrontWorkspaceId" | "unindexedDomains">>,
  presences: readonly StorefrontPresence[],
): { workspaces: PresenceWorkspace[]; problems: string[] } {
  const primaryHost = (shop.primaryDomain ?? "").toLowerCase();
  const own = workspaceOf(shop);
  // Unticked in Settings (decision 0042): not a storefront to serve, so the domain-removed
  // path of decision 0038 drops it from the configuration and empties its workspace.
  const unindexed = new Set(unindexedDomainsOf(shop));
  const workspaces: PresenceWorkspace[] = [];
  const problems: string[] = [];
  for (const presence of presences) {
    if (presence.primary || !presence.defaultLocale || !presence.localePublished) continue;
    if (presence.host.toLowerCase() === primaryHost) continue;
    if (unindexed.has(presence.host.toLowerCase())) continue;
    // Every market it serves switched off (draft): no shopper reaches it (decision 0038).
    if (servesNoActiveMarket(presence)) continue;
    if (!isLocaleTag(presence.locale)) {
      problems.push(`${presence.url}: "${presence.locale}" is not a language the app can ask for`);
      continue;
    }
    let workspaceId: string;
    try {
      workspaceId = workspaceIdFromDomain(presence.host);
    } catch (error) {
      if (!(error instanceof InvalidDomainError)) throw error;
      problems.push(`${presence.url}: ${error.message}`);
      continue;
    }
    if (workspaceId === own || workspaces.some((w) => w.workspaceId === workspaceId)) continue;
    // The primary's former workspace the storefront still asks during a move (decision 0038).
    if (workspaceId === shop.storefrontWorkspaceId) continue;
    workspaces.push({
      host: presence.host.toLowerCase(),
      locale: presence.locale,
      workspaceId,
      ledgerKey: presenceLedgerKey(shop.shopDomain, workspaceId),
      webPresenceId: presence.webPresenceId,
    });
  }
  return { workspaces, problems };
}

/** A presence whose markets were all read and none is active; one with no market is kept. */
function servesNoActiveMarket(presence: StorefrontPresence): boolean {
  return (
    presence.markets.length > 0 && !presence.moreMarkets && presence.markets.every((m) => !m.active)
  );
}

export interface PresenceSending {
  keyId: string | undefined;
  tier: Tier;
  lease: HeldLease | undefined;
  trigger: SyncTrigger;
  /** The bulk query of a type as the shop's own export asks it (chosen metafields included). */
  bulkQueryOf: (type: "product" | "page" | "article") => string;
  metafields: readonly ChosenMetafield[];
  /** What chosen references read as ids name (their names in the primary language). */
  referenceNames?: ReferenceNames | undefined;
  /** How often a translated export's bulk operation is asked whether it finished. */
  pollEveryMs?: number;
  /** Only these workspaces (a domain just added: app/shop/follow-storefront-domains.server.ts). */
  only?: readonly string[];
}

/** What a domain workspace holds of the shop's chosen types: all of them. */
const TRANSLATED_TYPES = ["product", "page", "article", "policy", "metaobject"] as const;
type TranslatedType = (typeof TRANSLATED_TYPES)[number];
const isBulkType = (type: TranslatedType): type is "product" | "page" | "article" =>
  type === "product" || type === "page" || type === "article";

/**
 * After the shop's own full sync: fills each storefront domain's workspace, then names the
 * filled ones in the storefront configuration. Nothing here fails the shop's run (already
 * finished) or pauses the shop: a failure is logged, and the next full sync tries again. Only a
 * lost lease stops it, as it stops the run.
 */
export async function fillStorefrontDomains(
  shop: Shop,
  admin: AdminGraphql,
  types: readonly CatalogueType[],
  sending: PresenceSending,
): Promise<void> {
  try {
    const { filled, refused } = await fillPresenceWorkspaces(shop, admin, types, sending);
    // A domain refused (another store's workspace) may have been named before: named no more.
    if (filled.size > 0 || refused > 0) await pointDomainsAtTheirWorkspaces(shop.shopDomain, admin);
  } catch (error) {
    if (error instanceof Error && error.name === "LeaseLostError") throw error;
    log.error(
      { err: error, shop: shop.shopDomain },
      "the storefront domains' workspaces were not filled",
    );
  }
}

/**
 * Fills every domain workspace of the shop. One domain failing (its export, the service) is
 * logged and leaves the others as they are.
 */
async function fillPresenceWorkspaces(
  shop: Shop,
  admin: AdminGraphql,
  types: readonly CatalogueType[],
  sending: PresenceSending,
): Promise<{ filled: Map<string, FullSyncResult>; refused: number }> {
  const results = new Map<string, FullSyncResult>();
  let refused = 0;
  const chosen = TRANSLATED_TYPES.filter((type) => types.includes(type));
  if (chosen.length === 0) return { filled: results, refused };
  const { presences } = await storefrontPresencesOf(shop.shopDomain);
  const { workspaces, problems } = presenceWorkspacesOf(shop, presences);
  for (const problem of problems) log.warn({ shop: shop.shopDomain }, problem);
  const namesIn = referenceNamesByLocale(admin, sending.metafields, sending.referenceNames);
  for (const workspace of workspaces) {
    if (sending.only && !sending.only.includes(workspace.workspaceId)) continue;
    // Never into another shop's workspace: its shoppers' chats would show this catalogue.
    if (!(await claimWorkspace(shop.shopDomain, workspace.workspaceId, workspace.host))) {
      log.warn(
        { shop: shop.shopDomain, workspaceId: workspace.workspaceId },
        `the storefront ${workspace.host} is not filled: another store holds its workspace`,
      );
      await fillStopped(workspace, chosen, sending, workspaceHeldMessage(workspace.workspaceId));
      refused += 1;
      continue;
    }
    try {
      const result = await fillOne(shop, admin, workspace, chosen, sending, namesIn);
      if (result) results.set(workspace.workspaceId, result);
    } catch (error) {
      if (error instanceof Error && error.name === "LeaseLostError") throw error;
      log.error(
        { err: error, shop: shop.shopDomain, workspaceId: workspace.workspaceId },
        `the storefront ${workspace.host} could not be filled`,
      );
      await fillStopped(workspace, chosen, sending, error instanceof Error ? error.message : null);
    }
  }
  return { filled: results, refused };
}

async function fillOne(
  shop: Shop,
  admin: AdminGraphql,
  workspace: PresenceWorkspace,
  types: readonly TranslatedType[],
  sending: PresenceSending,
  namesIn: (locale: string) => ReferenceNames | undefined,
): Promise<FullSyncResult | null> {
  const sources: { label: string; open: BulkSource }[] = [];
  const market = await presenceMarketPlan(admin, workspace.webPresenceId, shop.currencyCode);
  if (market.problem) {
    log.warn(
      { shop: shop.shopDomain, workspaceId: workspace.workspaceId },
      `the storefront ${workspace.host}: ${market.problem}`,
    );
  }
  const report: MarketLinesReport = { unshowable: 0, unpublished: 0 };
  for (const type of types.filter(isBulkType)) {
    const translated = translatedBulkQuery(
      withMetafieldTranslations(sending.bulkQueryOf(type), workspace.locale),
      workspace.locale,
    );
    const query =
      type === "product" && market.country
        ? marketBulkQuery(translated, market.country, market.prices)
        : translated;
    const id = await startBulkQuery(admin, query);
    const state = await waitForBulkOperation(admin, id, {
      pollEveryMs: sending.pollEveryMs ?? 2_000,
    });
    if (state.status !== "COMPLETED") {
      log.warn(
        { shop: shop.shopDomain, workspaceId: workspace.workspaceId, status: state.status },
        `the ${type} export for ${workspace.host} did not complete (${state.errorCode ?? state.status}): its workspace is left as it was`,
      );
      await fillStopped(
        workspace,
        types,
        sending,
        `Shopify's export of its ${type}s did not complete (${state.errorCode ?? state.status})`,
      );
      return null;
    }
    const open = state.url ? translatedSource(urlSource(state.url)) : undefined;
    sources.push({
      label: id,
      open: !open
        ? async function* empty() {}
        : type === "product" && market.country
          ? marketSource(open, market.currency, report)
          : open,
    });
  }
  if (types.includes("policy"))
    sources.push({ label: "shop-policies", open: domainPoliciesSource(admin, workspace) });
  if (types.includes("metaobject")) {
    const chosenTypes = chosenMetaobjectsOf(shop).map((m) => m.type);
    sources.push({
      label: "metaobject-entries",
      open: domainEntriesSource(admin, workspace, chosenTypes),
    });
  }
  // A run of this workspace a stopped process left carries other exports: it is over.
  const stale = await unfinishedRun(workspace.ledgerKey);
  if (stale) {
    await finishRun(stale.id, {
      state: "failed",
      errorCode: "SUPERSEDED",
      errorMessage: "A later full sync filled this storefront's workspace afresh.",
    });
  }
  const { lease } = sending;
  const result = await runFullSync({
    shopDomain: workspace.ledgerKey,
    workspaceId: workspace.workspaceId,
    primaryDomain: workspace.host,
    metafields: sending.metafields,
    referenceNames: namesIn(workspace.locale),
    ...(market.currency ? { currency: market.currency } : {}),
    client: serviceClientForWorkspace(shop, workspace.workspaceId),
    sources,
    types,
    trigger: sending.trigger,
    tier: sending.tier,
    keyProven: true,
    quotaShopDomain: shop.shopDomain,
    pacer: pacers.pacerFor(shop.shopDomain, sending.tier, sending.keyId),
    ...(lease ? { fence: lease.fence, guard: lease.confirm } : {}),
  });
  if (report.unshowable > 0) {
    log.warn(
      { shop: shop.shopDomain, workspaceId: workspace.workspaceId },
      `the storefront ${workspace.host}: ${report.unshowable} variant price(s) in "${report.unshowableCode ?? ""}", a currency the chat cannot show, kept the shop's price in ${market.currency ?? "the shop's currency"}`,
    );
  }
  return result;
}

/** A fill that stopped before its run could: kept, so the Dashboard says why (decision 0038). */
async function fillStopped(
  workspace: PresenceWorkspace,
  types: readonly string[],
  sending: PresenceSending,
  reason: string | null,
): Promise<void> {
  if (await unfinishedRun(workspace.ledgerKey)) return;
  await recordStoppedRun(
    {
      shopDomain: workspace.ledgerKey,
      workspaceId: workspace.workspaceId,
      trigger: sending.trigger,
      exportedTypes: types,
    },
    { errorCode: "EXPORT_FAILED", errorMessage: reason ?? "the export failed" },
  ).catch((error: unknown) => log.error({ err: error }, "the stopped fill was not recorded"));
}

/**
 * Storefront host → workspace, for each domain whose workspace a full sync filled (its last
 * run succeeded): what the storefront configuration names, so the chat and search box on that
 * domain ask it. A domain not filled yet is left out: its shoppers get the primary workspace,
 * in the primary language, rather than an empty one.
 */
export async function filledDomainWorkspaces(shopDomain: string): Promise<Record<string, string>> {
  const shop = await findShop(shopDomain);
  if (!shop) return {};
  const { presences } = await storefrontPresencesOf(shopDomain);
  const { workspaces } = presenceWorkspacesOf(shop, presences);
  const filledKeys = await filledWorkspaceKeys(workspaces.map((workspace) => workspace.ledgerKey));
  // Filled before another store was found to hold it (two shops that shared one before claims).
  const held = await heldByOtherShops(
    shopDomain,
    workspaces.map((workspace) => workspace.workspaceId),
  );
  const filled: Record<string, string> = {};
  for (const workspace of workspaces) {
    if (filledKeys.has(workspace.ledgerKey) && !held.has(workspace.workspaceId))
      filled[workspace.host] = workspace.workspaceId;
  }
  return filled;
}

/**
 * After the domains' workspaces are filled: the storefront configuration names each one by its
 * host, beside the workspace the storefront asks today (unchanged, so a move between workspaces
 * still decides that one). Without a publishable key there is no configuration to write.
 */
export async function pointDomainsAtTheirWorkspaces(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<void> {
  const shop = await findShop(shopDomain);
  const whole = shop && storefrontConfigOf(shop, await filledDomainWorkspaces(shopDomain));
  if (whole) await writeStorefrontConfig(admin, whole, shopDomain);
}

/**
 * The storefront configuration for the shop with these filled domain workspaces, before
 * Shopify's size bound; null without a publishable key (no configuration to write).
 */
function storefrontConfigOf(
  shop: Shop,
  workspaces: Record<string, string>,
): StorefrontConfig | null {
  const workspaceId = storefrontWorkspaceOf(shop);
  if (!shop.publishableKey || !workspaceId) return null;
  return {
    apiUrl: config().indexApiUrl,
    publishableKey: shop.publishableKey,
    workspaceId,
    workspaces,
  };
}

/**
 * The filled domains the storefront configuration cannot name within Shopify's 128 KB
 * (boundedStorefrontConfig, decision 0049): their workspaces are filled, but their shoppers get
 * the primary domain's catalogue. Settings names them.
 */
export function domainsLeftOffStorefront(shop: Shop, filled: Record<string, string>): string[] {
  const whole = storefrontConfigOf(shop, filled);
  return whole ? boundedStorefrontConfig(whole).leftOut : [];
}
