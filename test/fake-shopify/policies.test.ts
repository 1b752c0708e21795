/**
 * The fake's `shop { shopPolicies }` and `shopPolicyUpdate`, asked as the app asks (Shopify's own
 * client over HTTP), and its control routes: every policy type ships with text, an edit shows in
 * the next read, an emptied or removed policy leaves the list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAdmin, type AdminGraphql } from "../../app/shopify/admin-graphql";
import { SHOP_POLICIES_QUERY, type ShopPoliciesData } from "../../app/catalogue/queries";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { graphql, startTestShop, type FakeShopify } from "./helpers";

let fake: FakeShopify;
let admin: AdminGraphql;
let writer: FakeShopify;
let clock = Date.parse("2026-11-25T10:00:00Z");

beforeAll(async () => {
  fake = await startTestShop({ now: () => clock });
  admin = await shopifyAdminClient(fake.graphqlUrl);
  writer = await startTestShop({
    scopes: ["read_products", "read_online_store_pages", "write_legal_policies"],
  });
});

afterAll(async () => {
  await fake?.close();
  await writer?.close();
});

const policies = async () =>
  (await queryAdmin<ShopPoliciesData>(admin, SHOP_POLICIES_QUERY)).shop.shopPolicies;

const UPDATE = `mutation PolicyUpdate($shopPolicy: ShopPolicyInput!) {
  shopPolicyUpdate(shopPolicy: $shopPolicy) {
    shopPolicy { id type title body url updatedAt }
    userErrors { field message code }
  }
}`;

describe("the fake shop's policies", () => {
  it("lists every policy type with a title, HTML text and its URL on the primary domain", async () => {
    const list = await policies();
    expect(list.map((policy) => policy.type)).toEqual([
      "CONTACT_INFORMATION",
      "LEGAL_NOTICE",
      "PRIVACY_POLICY",
      "REFUND_POLICY",
      "SHIPPING_POLICY",
      "SUBSCRIPTION_POLICY",
      "TERMS_OF_SALE",
      "TERMS_OF_SERVICE",
    ]);
    const refund = list.find((policy) => policy.type === "REFUND_POLICY")!;
    expect(refund).toMatchObject({
      id: expect.stringMatching(/^gid:\/\/shopify\/ShopPolicy\/\d+$/),
      title: "Refund policy",
      url: "https://demo-store.example.com/policies/refund-policy",
    });
    expect(refund.body).toContain("30-day return policy");
    for (const policy of list) expect(policy.body.length).toBeGreaterThan(100);
  });

  it("an edit shows in the next read with a later updatedAt; an emptied or removed policy is gone", async () => {
    const before = (await policies()).find((policy) => policy.type === "SHIPPING_POLICY")!;
    clock += 60_000;
    const edit = await fetch(`${fake.url}/__fake/policies/SHIPPING_POLICY`, {
      method: "PUT",
      body: JSON.stringify({ body: "<p>Free shipping to Germany in 2 days.</p>" }),
    });
    expect(edit.status).toBe(200);
    const after = (await policies()).find((policy) => policy.type === "SHIPPING_POLICY")!;
    expect(after).toMatchObject({
      id: before.id,
      body: "<p>Free shipping to Germany in 2 days.</p>",
    });
    expect(after.updatedAt > before.updatedAt).toBe(true);

    await fetch(`${fake.url}/__fake/policies/LEGAL_NOTICE`, { method: "DELETE" });
    fake.state.updatePolicy("TERMS_OF_SALE", "  ");
    const types = (await policies()).map((policy) => policy.type);
    expect(types).not.toContain("LEGAL_NOTICE");
    expect(types).not.toContain("TERMS_OF_SALE");
    expect(types).toContain("REFUND_POLICY");

    const unknown = await fetch(`${fake.url}/__fake/policies/RETURNS`, {
      method: "PUT",
      body: "{}",
    });
    expect(unknown.status).toBe(404);
  });

  it("shopPolicyUpdate needs write_legal_policies, refuses a body over 512 kB, and changes the policy", async () => {
    const denied = await graphql(fake, UPDATE, {
      shopPolicy: { type: "REFUND_POLICY", body: "<p>No returns.</p>" },
    });
    expect(JSON.stringify(denied.body.errors)).toContain("ACCESS_DENIED");
    expect((await policies()).find((p) => p.type === "REFUND_POLICY")!.body).toContain("30-day");

    const tooBig = await graphql<{ shopPolicyUpdate: { userErrors: { code: string }[] } }>(
      writer,
      UPDATE,
      { shopPolicy: { type: "REFUND_POLICY", body: "x".repeat(512 * 1024 + 1) } },
    );
    expect(tooBig.body.data?.shopPolicyUpdate.userErrors).toEqual([
      { field: ["shopPolicy", "body"], message: "Body is too big", code: "TOO_BIG" },
    ]);

    const done = await graphql<{ shopPolicyUpdate: { shopPolicy: { body: string; url: string } } }>(
      writer,
      UPDATE,
      { shopPolicy: { type: "REFUND_POLICY", body: "<p>Returns within 60 days.</p>" } },
    );
    expect(done.body.data?.shopPolicyUpdate.shopPolicy).toMatchObject({
      body: "<p>Returns within 60 days.</p>",
      url: "https://demo-store.example.com/policies/refund-policy",
    });
    expect(writer.state.policies().find((p) => p.type === "REFUND_POLICY")).toMatchObject({
      body: "<p>Returns within 60 days.</p>",
    });
  });

  it("a field ShopPolicy does not have is refused as Shopify refuses it", async () => {
    const answer = await graphql(fake, "{ shop { shopPolicies { handle } } }");
    expect(JSON.stringify(answer.body.errors)).toContain(
      "Field 'handle' doesn't exist on type 'ShopPolicy'",
    );
  });
});
