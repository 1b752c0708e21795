/**
 * Where the shop sells (docs/markets.md, decision 0031): its storefront presences read from the
 * Admin API in one paged document, and kept whole. Who reads them when:
 * app/shop/follow-storefront-presences.server.ts (and the install, app.server.ts).
 */
import { isAccessDenied, queryAdmin, type AdminGraphql } from "./admin-graphql";
import {
  recordPresencesProblem,
  replaceStorefrontPresences,
} from "../models/storefront-presences.server";
import { logFor } from "../server/log";
import {
  STOREFRONT_PRESENCES_QUERY,
  WEB_PRESENCE_MARKETS_FIRST,
  WEB_PRESENCES_PER_PAGE,
  type StorefrontPresencesData,
} from "../catalogue/queries";

/** A market a storefront URL serves, as Settings names it. */
export interface PresenceMarket {
  name: string;
  handle: string;
  active: boolean;
  /** ISO 4217; null when Shopify gave no currency settings. */
  currencyCode: string | null;
}

/**
 * One storefront URL shoppers open: a web presence's default locale at its root, or one of its
 * alternate locales at a subfolder (`/de`). What the app keeps of Shopify's web presences.
 */
export interface StorefrontPresence {
  url: string;
  webPresenceId: string;
  /** The domain's host (a subfolder presence: the primary domain's). */
  host: string;
  locale: string;
  localeName: string;
  localePublished: boolean;
  /** The web presence's default locale (not an alternate one at a subfolder). */
  defaultLocale: boolean;
  /** The storefront the index holds today: the primary domain in the shop's primary locale. */
  primary: boolean;
  markets: PresenceMarket[];
  /** The presence serves more markets than were read (WEB_PRESENCE_MARKETS_FIRST). */
  moreMarkets: boolean;
}

/**
 * The most web presences read (issue 24, decision 0049): 400 pages of 25. A store past it keeps
 * the list read before, whole, and Settings says why; a list cut short would read as domains
 * removed and empty their workspaces (decision 0038).
 */
export const MAX_WEB_PRESENCES = 10_000;

/** The store has more web presences than the app reads (MAX_WEB_PRESENCES). */
export class TooManyPresencesError extends Error {
  constructor() {
    super(`more than ${MAX_WEB_PRESENCES} web presences`);
    this.name = "TooManyPresencesError";
  }
}

/** What Settings says when the store has more web presences than the app reads. */
export const PRESENCES_TOO_MANY =
  `The store has more than ${MAX_WEB_PRESENCES.toLocaleString("en")} domains and subfolders ` +
  "(web presences), more than the app reads: the list below is the one read before, kept whole, " +
  "and no domain was dropped or emptied. Remove unused domains or subfolders in Shopify's " +
  "Markets settings to bring the store under the bound.";

/**
 * Every storefront URL of the shop, in Shopify's order (the primary domain's presence first),
 * from one document paged over `webPresences`. Throws AdminApiError; ACCESS_DENIED
 * (`isAccessDenied`) when read_markets or read_locales was not granted; TooManyPresencesError
 * past MAX_WEB_PRESENCES, rather than return a list cut short.
 */
export async function readStorefrontPresences(admin: AdminGraphql): Promise<StorefrontPresence[]> {
  const presences: StorefrontPresence[] = [];
  let after: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages * WEB_PRESENCES_PER_PAGE >= MAX_WEB_PRESENCES) throw new TooManyPresencesError();
    const data: StorefrontPresencesData = await queryAdmin<StorefrontPresencesData>(
      admin,
      STOREFRONT_PRESENCES_QUERY,
      { first: WEB_PRESENCES_PER_PAGE, after, marketsFirst: WEB_PRESENCE_MARKETS_FIRST },
    );
    presences.push(...presencesOf(data));
    const page = data.webPresences?.pageInfo;
    if (!page?.hasNextPage || !page.endCursor) break;
    after = page.endCursor;
  }
  presences.sort((a, b) => Number(b.primary) - Number(a.primary));
  // One URL is one storefront: should an answer name a URL twice (a domain made primary while
  // another presence still names it), the first (the primary's) is kept, never both.
  const seen = new Set<string>();
  return presences.filter((presence) => {
    if (seen.has(presence.url)) return false;
    seen.add(presence.url);
    return true;
  });
}

/** The storefront URLs of one page of the answer. */
export function presencesOf(data: StorefrontPresencesData): StorefrontPresence[] {
  const locales = new Map(data.shopLocales.map((locale) => [locale.locale, locale]));
  const primaryLocale = data.shopLocales.find((locale) => locale.primary)?.locale;
  const primaryHost = data.shop.primaryDomain.host;
  return (data.webPresences?.nodes ?? []).flatMap((presence) => {
    const host = presence.domain?.host ?? primaryHost;
    const markets = (presence.markets?.nodes ?? []).map((market) => ({
      name: market.name,
      handle: market.handle,
      active: market.status === "ACTIVE",
      currencyCode: market.currencySettings?.baseCurrency.currencyCode ?? null,
    }));
    return presence.rootUrls.map((root) => {
      const locale = locales.get(root.locale);
      const isDefault = root.locale === presence.defaultLocale.locale;
      return {
        url: root.url,
        webPresenceId: presence.id,
        host,
        locale: root.locale,
        localeName: locale?.name ?? root.locale,
        localePublished: locale?.published ?? false,
        defaultLocale: isDefault,
        primary:
          isDefault &&
          presence.domain?.host === primaryHost &&
          presence.subfolderSuffix === null &&
          root.locale === primaryLocale,
        markets,
        moreMarkets: presence.markets?.pageInfo.hasNextPage ?? false,
      };
    });
  });
}

const log = logFor("presences");

/** What Settings says when the shop has not granted the scopes the read needs. */
export const PRESENCES_NEED_SCOPES =
  "The app cannot read the store's markets and languages: it needs the read_markets and " +
  "read_locales permissions. Open the app from Shopify's admin to grant them.";

export type PresencesOutcome =
  | { kind: "read"; presences: StorefrontPresence[] }
  | { kind: "no-access" }
  | { kind: "failed"; error: unknown };

/**
 * Reads the shop's presences and keeps them; a shop that did not grant the scopes, or a read
 * that failed, keeps what was read before, with the reason noted. Never throws.
 */
export async function refreshStorefrontPresences(
  shopDomain: string,
  admin: AdminGraphql,
  now: Date = new Date(),
): Promise<PresencesOutcome> {
  try {
    const presences = await readStorefrontPresences(admin);
    await replaceStorefrontPresences(shopDomain, presences, now);
    return { kind: "read", presences };
  } catch (error) {
    if (isAccessDenied(error)) {
      await recordPresencesProblem(shopDomain, PRESENCES_NEED_SCOPES);
      return { kind: "no-access" };
    }
    if (error instanceof TooManyPresencesError) {
      log.warn({ shop: shopDomain }, "the store has more presences than the app reads");
      await recordPresencesProblem(shopDomain, PRESENCES_TOO_MANY);
      return { kind: "failed", error };
    }
    log.warn({ err: error, shop: shopDomain }, "the store's presences could not be read");
    return { kind: "failed", error };
  }
}
