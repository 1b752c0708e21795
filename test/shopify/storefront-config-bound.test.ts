/**
 * The storefront configuration within Shopify's 128 KB bound for a `json` metafield (API
 * 2026-04 and later; decision 0049): with thousands of filled storefront domains the app writes
 * the domains that fit, leaves the rest out (their shoppers get the primary's workspace) and
 * says so, rather than a write Shopify refuses. Through the real admin client against the fake,
 * which refuses a larger value as Shopify does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  boundedStorefrontConfig,
  STOREFRONT_CONFIG_KEY,
  STOREFRONT_CONFIG_MAX_BYTES,
  writeStorefrontConfig,
  type StorefrontConfig,
} from "../../app/shopify/storefront-config";
import type { AdminGraphql } from "../../app/shopify/admin-graphql";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { captureLogs } from "../../testkit/capture-logs";
import {
  asMerchant,
  METAFIELDS_SET,
  startTestShop,
  type FakeShopify,
} from "../fake-shopify/helpers";

let shop: FakeShopify;
let admin: AdminGraphql;
beforeAll(async () => {
  shop = await startTestShop();
  admin = await shopifyAdminClient(shop.graphqlUrl);
});
afterAll(() => shop.close());

function configWith(domains: number): StorefrontConfig {
  return {
    apiUrl: "https://search.example",
    publishableKey: "pk_test",
    workspaceId: "shop-example-com",
    workspaces: Object.fromEntries(
      Array.from({ length: domains }, (_, n) => [
        `market-${String(n).padStart(4, "0")}.example.com`,
        `market-${String(n).padStart(4, "0")}-example-com`,
      ]),
    ),
  };
}

const stored = () =>
  shop.state.metafields().find((metafield) => metafield.key === STOREFRONT_CONFIG_KEY)?.value;

describe("the storefront configuration's size", () => {
  it("names every domain while it fits", async () => {
    const config = configWith(100);
    expect(await writeStorefrontConfig(admin, config, "shop.example.com")).toEqual([]);
    expect(JSON.parse(stored()!)).toEqual(config);
  });

  it("names the domains that fit in 128 KB and says which are left out, instead of a refused write", async () => {
    const config = configWith(4_000);
    expect(Buffer.byteLength(JSON.stringify(config))).toBeGreaterThan(STOREFRONT_CONFIG_MAX_BYTES);
    const logs = captureLogs();
    const leftOut = await writeStorefrontConfig(admin, config, "shop.example.com");
    logs.restore();
    const written = JSON.parse(stored()!) as StorefrontConfig;
    expect(Buffer.byteLength(stored()!)).toBeLessThanOrEqual(STOREFRONT_CONFIG_MAX_BYTES);
    expect(written.workspaceId).toBe(config.workspaceId);
    const named = Object.keys(written.workspaces!);
    expect(named.length + leftOut.length).toBe(4_000);
    expect(named).toEqual(Object.keys(config.workspaces!).slice(0, named.length));
    expect(leftOut[0]).toBe(Object.keys(config.workspaces!)[named.length]);
    // As many as fit: one more would not.
    expect(
      Buffer.byteLength(
        JSON.stringify({
          ...written,
          workspaces: { ...written.workspaces, [leftOut[0]!]: config.workspaces![leftOut[0]!]! },
        }),
      ),
    ).toBeGreaterThan(STOREFRONT_CONFIG_MAX_BYTES);
    expect(logs.lines().some((line) => line.msg.includes(`not ${leftOut.length} more`))).toBe(true);
  });

  it("is what the fake Shopify holds to: a larger json value is refused, nothing stored", async () => {
    const before = stored();
    const { currentAppInstallation } = await asMerchant<{ currentAppInstallation: { id: string } }>(
      shop,
      "{ currentAppInstallation { id } }",
    );
    const answer = await asMerchant<{
      metafieldsSet: { userErrors: { code: string }[] };
    }>(shop, METAFIELDS_SET, {
      metafields: [
        {
          ownerId: currentAppInstallation.id,
          namespace: "chat_widget",
          key: STOREFRONT_CONFIG_KEY,
          type: "json",
          value: JSON.stringify(configWith(4_000)),
        },
      ],
    });
    expect(answer.metafieldsSet.userErrors.map((error) => error.code)).toEqual(["INVALID_VALUE"]);
    expect(stored()).toBe(before);
    expect(boundedStorefrontConfig(configWith(10)).leftOut).toEqual([]);
  });
});
