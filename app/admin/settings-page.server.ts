import type { AdminGraphql } from "../shopify/admin-graphql";
import { metafieldKey } from "../catalogue";
import {
  chosenMetafieldsOf,
  chosenMetaobjectsOf,
  findShop,
  workspaceOf,
} from "../models/shops.server";
import { serviceEventsStatus } from "../service-events/registration.server";
import { logFor } from "../server/log";
import { storefrontPresencesOf } from "../models/storefront-presences.server";
import {
  choiceOf,
  productMetafieldOffers,
  type MetafieldOffer,
} from "../shop/product-metafields.server";
import {
  domainsLeftOffStorefront,
  presenceWorkspacesOf,
} from "../sync/full/presence-workspaces.server";
import type { StorefrontPresence } from "../shopify/storefront-presences.server";
import { STOREFRONT_CONFIG_MAX_BYTES } from "../shopify/storefront-config";
import type { Shop } from "@prisma/client";
import { metaobjectOffers, type MetaobjectOffer } from "../shop/metaobject-definitions.server";
import { choiceOnPage, storefrontChoiceOf } from "./storefront-choice.server";
import { pageOfDomains, STOREFRONTS_PER_PAGE } from "./storefront-choice";

const log = logFor("admin");

/** What the Settings page shows: the saved keys (never the secret), the workspace and choices. */
export async function settingsPageOf(shopDomain: string, admin: AdminGraphql, storefrontsPage = 1) {
  const [shop, events, metafields, metaobjects, presences] = await Promise.all([
    findShop(shopDomain),
    serviceEventsStatus(shopDomain),
    metafieldOffersOrNull(shopDomain, admin),
    metaobjectOffersOrNull(shopDomain, admin),
    storefrontPresencesOf(shopDomain),
  ]);
  const markets = await marketsOf(shop, presences.presences, storefrontsPage);
  return {
    derivedWorkspaceId: shop?.workspaceId ?? null,
    /** The workspace the primary domain names, another store's (so not this one's). */
    workspaceTakenFrom: shop?.workspaceTakenFrom ?? null,
    primaryDomain: shop?.primaryDomain ?? null,
    workspaceOverride: shop?.workspaceOverride ?? "",
    workspaceId: shop ? workspaceOf(shop) : null,
    secretKeyLast4: shop?.secretKeyLast4 ?? null,
    publishableKey: shop?.publishableKey ?? "",
    syncProducts: shop?.syncProducts ?? true,
    syncPages: shop?.syncPages ?? true,
    syncArticles: shop?.syncArticles ?? true,
    /** The store's product metafield definitions; null when Shopify could not be asked now. */
    metafields,
    chosenMetafields: shop ? chosenMetafieldsOf(shop).map(choiceOf) : [],
    /** Chosen, but the store no longer defines them (deleted in Shopify): "name (namespace.key)". */
    chosenGone:
      shop && metafields
        ? chosenMetafieldsOf(shop)
            .filter((m) => !metafields.some((offer) => offer.choice === choiceOf(m)))
            .map((m) => `${m.name} (${metafieldKey(m)})`)
        : [],
    /**
     * Chosen, still defined, but no longer offered (its storefront access turned off in Shopify,
     * say): "name (namespace.key): why". Sent until the next save, which drops them.
     */
    chosenWithdrawn:
      shop && metafields
        ? chosenMetafieldsOf(shop).flatMap((m) => {
            const offer = metafields.find((o) => o.choice === choiceOf(m));
            return offer?.notOffered ? [`${offer.name} (${offer.key}): ${offer.notOffered}`] : [];
          })
        : [],
    /** The store's metaobject definitions; null when Shopify could not be asked now. */
    metaobjects,
    chosenMetaobjects: shop ? chosenMetaobjectsOf(shop).map((m) => m.type) : [],
    /** Chosen, but deleted in Shopify since: "name (type)". */
    chosenMetaobjectsGone:
      shop && metaobjects
        ? chosenMetaobjectsOf(shop)
            .filter((m) => !metaobjects.some((offer) => offer.type === m.type))
            .map((m) => `${m.name} (${m.type})`)
        : [],
    events,
    /** Where the store sells, as last read from Shopify: one page of it (decision 0049). */
    markets: {
      ...markets,
      readAt: presences.readAt?.toISOString() ?? null,
      problem: presences.problem,
    },
  };
}

/** Domains with a workspace of their own named in the card's first line; the rest are counted. */
const OWN_WORKSPACES_NAMED = 5;

/**
 * Settings' "Markets and languages" for one page of a store's storefront URLs (issue 24,
 * decision 0049): thousands of presences are sent a page at a time, with the total, each
 * page's domains with their choice (decision 0042) and the cost of the other pages' ticks.
 */
async function marketsOf(
  shop: Shop | null,
  presences: readonly StorefrontPresence[],
  page: number,
) {
  const paged = pageOfDomains(presences, page, STOREFRONTS_PER_PAGE);
  const shown = new Set(
    paged.rows
      .filter((presence) => presence.defaultLocale && !presence.primary)
      .map((presence) => presence.host.toLowerCase()),
  );
  const choice = await storefrontChoiceOf(shop, presences, shown);
  // Storefront host → its own filled workspace (decision 0032), unticked ones left out.
  const filled = new Set(
    choice.rows.filter((row) => !row.primary && row.filled).map((r) => r.domain),
  );
  const ownWorkspaces: Record<string, string> = {};
  if (shop) {
    for (const workspace of presenceWorkspacesOf(shop, presences).workspaces) {
      if (filled.has(workspace.host)) ownWorkspaces[workspace.host] = workspace.workspaceId;
    }
  }
  const own = presences.filter(
    (presence) => presence.defaultLocale && ownWorkspaces[presence.host.toLowerCase()],
  );
  const leftOff = shop ? domainsLeftOffStorefront(shop, ownWorkspaces) : [];
  const first = (paged.page - 1) * STOREFRONTS_PER_PAGE;
  return {
    presences: paged.rows,
    /** The storefront the index holds today, wherever the page is. */
    primary: presences.find((presence) => presence.primary) ?? null,
    paging: {
      page: paged.page,
      pages: paged.pages,
      total: paged.total,
      first: paged.total === 0 ? 0 : first + 1,
      last: first + paged.rows.length,
    },
    /** The page's hosts → their own filled workspace. */
    domainWorkspaces: Object.fromEntries(
      Object.entries(ownWorkspaces).filter(([host]) => shown.has(host)),
    ),
    /** Every domain indexed in a workspace of its own: the first few named, all counted. */
    ownWorkspaces: {
      count: own.length,
      named: own
        .slice(0, OWN_WORKSPACES_NAMED)
        .map((presence) => ({ url: presence.url, localeName: presence.localeName })),
    },
    /**
     * Filled domains the storefront configuration cannot name within Shopify's 128 KB (0049):
     * the first few named, all counted, and those on this page.
     */
    leftOffStorefront: {
      count: leftOff.length,
      named: leftOff.slice(0, OWN_WORKSPACES_NAMED),
      onPage: leftOff.filter((host) => shown.has(host)),
      limitKb: STOREFRONT_CONFIG_MAX_BYTES / 1024,
    },
    /** The page's domains the merchant can tick, with counts and the quota left (0042). */
    choice: choiceOnPage(choice, shown),
  };
}

async function metaobjectOffersOrNull(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<MetaobjectOffer[] | null> {
  try {
    return await metaobjectOffers(admin);
  } catch (error) {
    log.warn({ err: error, shop: shopDomain }, "metaobject definitions could not be read");
    return null;
  }
}

async function metafieldOffersOrNull(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<MetafieldOffer[] | null> {
  try {
    return await productMetafieldOffers(admin);
  } catch (error) {
    log.warn({ err: error, shop: shopDomain }, "metafield definitions could not be read");
    return null;
  }
}
