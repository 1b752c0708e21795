import { Prisma } from "@prisma/client";
import prisma, { driverBoolean, driverQuery } from "./db.server";
import type { PresenceMarket, StorefrontPresence } from "../shopify/storefront-presences.server";

/**
 * The StorefrontPresence table: where the shop sells, one row per storefront URL, as last read
 * from Shopify (app/shop/follow-storefront-presences.server.ts writes it; Settings reads it).
 */

export interface KeptPresences {
  presences: StorefrontPresence[];
  readAt: Date | null;
  /** Why the last read failed, in the merchant's words; null when it worked. */
  problem: string | null;
}

/**
 * Replaces the shop's presences with those just read, and notes the read. The Shop row is written
 * first: on PostgreSQL its row lock makes two replacements at once take turns, each deleting what
 * the other wrote (otherwise both delete the rows of before and both insert the same URLs). A read
 * that waited for the shop's deletion (shop/redact) keeps nothing: the last statement takes back
 * the rows of a shop that is gone.
 */
export async function replaceStorefrontPresences(
  shopDomain: string,
  presences: readonly StorefrontPresence[],
  readAt: Date,
): Promise<void> {
  await prisma.$transaction([
    prisma.shop.updateMany({
      where: { shopDomain },
      data: { presencesReadAt: readAt, presencesProblem: null },
    }),
    prisma.storefrontPresence.deleteMany({ where: { shopDomain } }),
    prisma.storefrontPresence.createMany({
      data: presences.map((presence, position) => ({
        shopDomain,
        url: presence.url,
        webPresenceId: presence.webPresenceId,
        host: presence.host,
        locale: presence.locale,
        localeName: presence.localeName,
        localePublished: presence.localePublished,
        defaultLocale: presence.defaultLocale,
        primary: presence.primary,
        markets: JSON.stringify(presence.markets),
        moreMarkets: presence.moreMarkets,
        position,
      })),
    }),
    prisma.$executeRaw`
      DELETE FROM "StorefrontPresence" WHERE "shopDomain" = ${shopDomain}
        AND NOT EXISTS (SELECT 1 FROM "Shop" WHERE "shopDomain" = ${shopDomain})`,
  ]);
}

/** A read that failed: what was kept stays, with the reason beside it. */
export async function recordPresencesProblem(shopDomain: string, problem: string): Promise<void> {
  await prisma.shop.updateMany({ where: { shopDomain }, data: { presencesProblem: problem } });
}

export async function storefrontPresencesOf(shopDomain: string): Promise<KeptPresences> {
  const [presences, shop] = await Promise.all([
    presenceRowsOf(shopDomain),
    prisma.shop.findUnique({
      where: { shopDomain },
      select: { presencesReadAt: true, presencesProblem: true },
    }),
  ]);
  return {
    presences,
    readAt: shop?.presencesReadAt ?? null,
    problem: shop?.presencesProblem ?? null,
  };
}

/**
 * The shop's presences alone, in Shopify's order: to the driver, since the live worker reads
 * them for each batch it sends to a storefront domain's workspace (decision 0053).
 */
export async function presenceRowsOf(shopDomain: string): Promise<StorefrontPresence[]> {
  const rows = await driverQuery<{
    url: string;
    webPresenceId: string;
    host: string;
    locale: string;
    localeName: string;
    localePublished: unknown;
    defaultLocale: unknown;
    primary: unknown;
    markets: string;
    moreMarkets: unknown;
  }>(Prisma.sql`
    SELECT "url", "webPresenceId", "host", "locale", "localeName", "localePublished",
      "defaultLocale", "primary", "markets", "moreMarkets"
    FROM "StorefrontPresence" WHERE "shopDomain" = ${shopDomain} ORDER BY "position"`);
  return rows.map((row) => ({
    url: row.url,
    webPresenceId: row.webPresenceId,
    host: row.host,
    locale: row.locale,
    localeName: row.localeName,
    localePublished: driverBoolean(row.localePublished),
    defaultLocale: driverBoolean(row.defaultLocale),
    primary: driverBoolean(row.primary),
    markets: marketsOf(row.markets),
    moreMarkets: driverBoolean(row.moreMarkets),
  }));
}

function marketsOf(json: string): PresenceMarket[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as PresenceMarket[]) : [];
  } catch {
    return [];
  }
}

/** Installed shops (not uninstalled): whose presences the periodic check reads. */
export async function shopsToFollow(): Promise<string[]> {
  const shops = await prisma.shop.findMany({
    where: { state: { not: "uninstalled" } },
    select: { shopDomain: true },
    orderBy: { shopDomain: "asc" },
  });
  return shops.map((shop) => shop.shopDomain);
}
