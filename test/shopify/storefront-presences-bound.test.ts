/**
 * Thousands of web presences (issue 24, decision 0049): the reader pages through them 25 a
 * query and keeps them all; past MAX_WEB_PRESENCES it stops and says so rather than return a
 * list cut short (which would read as domains removed). Against a stub of the Admin API that
 * answers STOREFRONT_PRESENCES_QUERY's shape.
 */
import { describe, expect, it } from "vitest";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";
import {
  MAX_WEB_PRESENCES,
  readStorefrontPresences,
  TooManyPresencesError,
} from "../../app/shopify/storefront-presences.server";

/** An Admin API with `total` web presences: the primary domain, then one domain each. */
function storeWith(total: number): { admin: AdminGraphql; asked: () => number } {
  let asked = 0;
  const admin: AdminGraphql = {
    graphql(_query, options) {
      asked++;
      const variables = options?.variables ?? {};
      const first = Number(variables.first);
      const start = variables.after ? Number(variables.after) : 0;
      const end = Math.min(total, start + first);
      const nodes = Array.from({ length: end - start }, (_, k) => {
        const i = start + k;
        const host = i === 0 ? "shop.example" : `d${i}.shop.example`;
        return {
          id: `gid://shopify/MarketWebPresence/${i + 1}`,
          subfolderSuffix: null,
          domain: { host },
          defaultLocale: { locale: "en" },
          alternateLocales: [],
          rootUrls: [{ locale: "en", url: `https://${host}/` }],
          markets: {
            nodes: [
              {
                name: `Market ${i}`,
                handle: `m${i}`,
                status: "ACTIVE",
                currencySettings: { baseCurrency: { currencyCode: "EUR" } },
              },
            ],
            pageInfo: { hasNextPage: false },
          },
        };
      });
      const data = {
        shop: { primaryDomain: { host: "shop.example" }, currencyCode: "EUR" },
        shopLocales: [{ locale: "en", name: "English", primary: true, published: true }],
        webPresences: {
          pageInfo: { hasNextPage: end < total, endCursor: String(end) },
          nodes,
        },
      };
      return Promise.resolve(new Response(JSON.stringify({ data }), { status: 200 }));
    },
  };
  return { admin, asked: () => asked };
}

describe("reading thousands of web presences", () => {
  it("keeps every one of 3,000, the primary first, 25 a query", async () => {
    const { admin, asked } = storeWith(3000);
    const presences = await readStorefrontPresences(admin);
    expect(presences).toHaveLength(3000);
    expect(presences[0]).toMatchObject({ host: "shop.example", primary: true });
    expect(presences[2999]).toMatchObject({ host: "d2999.shop.example", primary: false });
    expect(asked()).toBe(120);
  });

  it("reads exactly the bound, and past it stops with an error rather than a list cut short", async () => {
    expect((await readStorefrontPresences(storeWith(MAX_WEB_PRESENCES).admin)).length).toBe(
      MAX_WEB_PRESENCES,
    );
    const over = storeWith(MAX_WEB_PRESENCES + 1);
    await expect(readStorefrontPresences(over.admin)).rejects.toBeInstanceOf(TooManyPresencesError);
    expect(over.asked()).toBe(MAX_WEB_PRESENCES / 25);
  });
});
