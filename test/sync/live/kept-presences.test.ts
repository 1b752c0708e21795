/**
 * What the live worker keeps of a shop's storefront domains between passes (decisions 0057 and
 * 0064): the presences, the domain workspaces found filled and each domain's market, read again
 * when the Shop row its pass reads says they may have changed. Each step reads the shop as a pass does (`passStart`) and asks
 * which domain workspaces its live changes follow, on the run's database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import { passStart } from "../../../app/models/live-pass.server";
import { forgetDomainRuns } from "../../../app/models/sync-runs.server";
import { replaceStorefrontPresences } from "../../../app/models/storefront-presences.server";
import { presenceLedgerKey } from "../../../app/sync/full/presence-workspaces.server";
import {
  filledPresenceWorkspaces,
  readPresences,
} from "../../../app/sync/live/domain-workspaces.server";
import { ShopMemory } from "../../../app/sync/live/worker-context";
import type { StorefrontPresence } from "../../../app/shopify/storefront-presences.server";

const SHOP = "kept-presences.myshopify.com";
const FRENCH = "kept-presences-fr";
const FRENCH_KEY = presenceLedgerKey(SHOP, FRENCH);

const presence = (host: string, locale: string, primary: boolean): StorefrontPresence => ({
  url: `https://${host}/`,
  webPresenceId: `gid://shopify/MarketWebPresence/${primary ? 1 : 2}`,
  host,
  locale,
  localeName: locale,
  localePublished: true,
  defaultLocale: true,
  primary,
  markets: [{ name: "Market", handle: "market", active: true, currencyCode: "EUR" }],
  moreMarkets: false,
});

const memory = new ShopMemory({ baseMs: 10, maxMs: 100 }, () => new Date());

/** The domain workspaces a pass beginning now would send to, as the worker finds them. */
async function followedNow(): Promise<string[]> {
  const { shop } = await passStart(SHOP, "2026-12");
  const workspaces = await filledPresenceWorkspaces(shop!, (current) =>
    memory.presencesOf(current, readPresences),
  );
  return workspaces.map((workspace) => workspace.workspaceId);
}

const clear = async () => {
  await prisma.syncRun.deleteMany({ where: { shopDomain: FRENCH_KEY } });
  await prisma.storefrontPresence.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.shop.deleteMany({ where: { shopDomain: SHOP } });
};

beforeAll(async () => {
  await prepareAppEnvironment();
  await clear();
  await prisma.shop.create({
    data: {
      shopDomain: SHOP,
      state: "active",
      primaryDomain: "kept-presences.com",
      workspaceId: "kept-presences-com",
    },
  });
  await replaceStorefrontPresences(
    SHOP,
    [presence("kept-presences.com", "en", true), presence("kept-presences.fr", "fr", false)],
    new Date(),
  );
});

afterAll(clear);

describe("the domain workspaces the worker keeps for a shop", () => {
  it("follows a domain once its fill succeeded, and stops once its fill is forgotten", async () => {
    // Not filled yet: not followed, and looked up again in the next batch.
    expect(await followedNow()).toEqual([]);
    await prisma.syncRun.create({
      data: {
        shopDomain: FRENCH_KEY,
        workspaceId: FRENCH,
        trigger: "domain-added",
        state: "succeeded",
        exportComplete: true,
        finishedAt: new Date(),
      },
    });
    expect(await followedNow()).toEqual([FRENCH]);
    expect(await followedNow()).toEqual([FRENCH]);

    // Emptied because its storefront is gone, while the row the kept view was read with stayed.
    await forgetDomainRuns(SHOP, FRENCH_KEY);
    expect(await followedNow()).toEqual([]);
  });

  it("keeps a domain's market until the shop's presences are read again, and nothing of a read that failed", async () => {
    const reads: string[] = [];
    const plan = async (currency: string) => {
      const { shop } = await passStart(SHOP, "2026-12");
      return memory.marketPlanOf(shop!, "gid://shopify/MarketWebPresence/2", async () => {
        reads.push(currency);
        if (currency === "fails") throw new Error("Shopify Admin API error: Internal error");
        return { country: "FR", prices: true, currency };
      });
    };
    expect((await plan("EUR")).currency).toBe("EUR");
    expect((await plan("CHF")).currency).toBe("EUR");
    expect(reads).toEqual(["EUR"]);

    // What following `markets/update` does: the presences read again.
    await replaceStorefrontPresences(
      SHOP,
      [presence("kept-presences.com", "en", true), presence("kept-presences.fr", "fr", false)],
      new Date(Date.now() + 1_000),
    );
    await expect(plan("fails")).rejects.toThrow("Internal error");
    expect((await plan("CHF")).currency).toBe("CHF");
    expect((await plan("GBP")).currency).toBe("CHF");
    expect(reads).toEqual(["EUR", "fails", "CHF"]);
  });
});
