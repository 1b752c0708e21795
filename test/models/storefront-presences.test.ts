/**
 * The shop's kept storefront presences (`replaceStorefrontPresences`): two reads of Shopify that
 * finish at once (Settings' "Read again" beside the worker's own read, or two instances) each
 * replace the list whole. Neither fails, and what is kept is one read's list, never a mix. On the
 * run's database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql: there each statement of a
 * transaction sees what others committed before it, so two transactions could each delete the
 * rows of before and then both insert the same URLs).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { deleteAllShopData } from "../../app/models/shops.server";
import {
  replaceStorefrontPresences,
  storefrontPresencesOf,
} from "../../app/models/storefront-presences.server";
import type { StorefrontPresence } from "../../app/shopify/storefront-presences.server";
import { onPostgres } from "../../testkit/test-database";

const SHOP = "presences-replaced.myshopify.com";

/** The same URLs in every read; `read` tells them apart. */
const presencesOfRead = (read: number): StorefrontPresence[] =>
  ["en", "fr", "de"].map((locale, k) => ({
    url: `https://presences-replaced.example.com/${locale}`,
    webPresenceId: "gid://shopify/MarketWebPresence/1",
    host: "presences-replaced.example.com",
    locale,
    localeName: `read ${read}`,
    localePublished: true,
    defaultLocale: k === 0,
    primary: k === 0,
    markets: [],
    moreMarkets: false,
  }));

const clear = async () => {
  await prisma.storefrontPresence.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.shop.deleteMany({ where: { shopDomain: SHOP } });
};

beforeAll(async () => {
  await prepareAppEnvironment();
  await clear();
  await prisma.shop.create({ data: { shopDomain: SHOP, state: "active", syncProducts: true } });
  await replaceStorefrontPresences(SHOP, presencesOfRead(0), new Date());
});

afterAll(clear);

describe("replaceStorefrontPresences", () => {
  it("keeps one whole read when several replace the list at once", async () => {
    const reads = [1, 2, 3, 4, 5, 6, 7, 8];
    const outcomes = await Promise.allSettled(
      reads.map((read) => replaceStorefrontPresences(SHOP, presencesOfRead(read), new Date())),
    );
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);

    const { presences, readAt, problem } = await storefrontPresencesOf(SHOP);
    expect(presences.map((p) => p.locale)).toEqual(["en", "fr", "de"]);
    const kept = new Set(presences.map((p) => p.localeName));
    expect(kept.size).toBe(1);
    expect(reads.map((read) => `read ${read}`)).toContain([...kept][0]);
    expect(readAt).not.toBeNull();
    expect(problem).toBeNull();
  });

  // shop/redact deletes everything of a shop while a read of its presences, begun before, is
  // being written. Each transaction must take the Shop row first: otherwise one holds the
  // presences and waits for the Shop row, the other the reverse, and PostgreSQL kills one of them
  // as a deadlock. A third transaction holds a row the redaction deletes after the presences, so
  // that both reach their second lock before either finishes: the order is forced, not raced.
  it.skipIf(!onPostgres())(
    "deletes a shop's data while a read of its presences is written, leaving none",
    async () => {
      const shop = "presences-redacted.myshopify.com";
      await prisma.shop.create({ data: { shopDomain: shop, state: "uninstalled" } });
      await replaceStorefrontPresences(shop, presencesOfRead(0), new Date());
      const domainWorkspace = `${shop}#presences-redacted-example-com`;
      await prisma.quotaUsage.create({
        data: { shopDomain: domainWorkspace, month: "2026-12", kind: "product", used: 1 },
      });

      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = () => {};
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = prisma.$transaction(
        async (tx) => {
          await tx.$executeRaw`UPDATE "QuotaUsage" SET "used" = 2 WHERE "shopDomain" = ${domainWorkspace}`;
          held();
          await released;
        },
        { timeout: 60_000 },
      );
      await holding;
      const deleting = deleteAllShopData(shop);
      await waitersOnLocks(1);
      const replacing = replaceStorefrontPresences(shop, presencesOfRead(1), new Date());
      await waitersOnLocks(2);
      release();

      const outcomes = await Promise.allSettled([holder, deleting, replacing]);
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
      expect(await prisma.shop.count({ where: { shopDomain: shop } })).toBe(0);
      expect(await prisma.storefrontPresence.count({ where: { shopDomain: shop } })).toBe(0);
      expect(await prisma.quotaUsage.count({ where: { shopDomain: domainWorkspace } })).toBe(0);
    },
  );
});

/** Waits until `count` of this database's sessions wait for a row lock another holds. */
async function waitersOnLocks(count: number): Promise<void> {
  for (;;) {
    const [row] = await prisma.$queryRaw<{ waiting: bigint }[]>`
      SELECT count(*) AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (Number(row?.waiting ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
