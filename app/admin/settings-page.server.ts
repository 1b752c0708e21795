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
import { filledDomainWorkspaces } from "../sync/full/presence-workspaces.server";
import { metaobjectOffers, type MetaobjectOffer } from "../shop/metaobject-definitions.server";
import { storefrontChoiceOf } from "./storefront-choice.server";

const log = logFor("admin");

/** What the Settings page shows: the saved keys (never the secret), the workspace and choices. */
export async function settingsPageOf(shopDomain: string, admin: AdminGraphql) {
  const [shop, events, metafields, metaobjects, presences, domainWorkspaces] = await Promise.all([
    findShop(shopDomain),
    serviceEventsStatus(shopDomain),
    metafieldOffersOrNull(shopDomain, admin),
    metaobjectOffersOrNull(shopDomain, admin),
    storefrontPresencesOf(shopDomain),
    filledDomainWorkspaces(shopDomain),
  ]);
  const storefrontChoice = await storefrontChoiceOf(shop, presences.presences);
  return {
    derivedWorkspaceId: shop?.workspaceId ?? null,
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
    /** Where the store sells, as last read from Shopify (read-only for now). */
    presences: { ...presences, readAt: presences.readAt?.toISOString() ?? null },
    /** Storefront host → its own filled workspace (decision 0032). */
    domainWorkspaces,
    /** The domains the merchant can tick to index, with counts and the quota left (0042). */
    storefrontChoice,
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
