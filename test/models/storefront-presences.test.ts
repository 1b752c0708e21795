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
import {
  replaceStorefrontPresences,
  storefrontPresencesOf,
} from "../../app/models/storefront-presences.server";
import type { StorefrontPresence } from "../../app/shopify/storefront-presences.server";

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
});
