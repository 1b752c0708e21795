import { readFileSync } from "node:fs";
import { parse } from "@iarna/toml";
import { isEnumType } from "graphql";
import { describe, expect, it } from "vitest";
import { adminSchema } from "../catalogue/helpers";

interface Subscription {
  topics?: string[];
  compliance_topics?: string[];
  uri: string;
}

const toml = parse(readFileSync(`${__dirname}/../../shopify.app.toml`, "utf8")) as unknown as {
  name: string;
  embedded: boolean;
  access_scopes: { scopes: string };
  webhooks: { api_version: string; subscriptions: Subscription[] };
};

describe("shopify.app.toml", () => {
  it("asks for read-only scopes covering products, pages, articles and the live theme, and nothing to write", () => {
    const scopes = toml.access_scopes.scopes.split(",").map((s) => s.trim());
    expect(scopes).toEqual(
      expect.arrayContaining(["read_products", "read_online_store_pages", "read_themes"]),
    );
    expect(scopes.filter((s) => s.startsWith("write_"))).toEqual([]);
  });

  it("asks for read_content, which metafield_definitions/* require (decision 0034)", () => {
    const scopes = toml.access_scopes.scopes.split(",").map((s) => s.trim());
    expect(scopes).toContain("read_content");
    const topicEnum = adminSchema().getType("WebhookSubscriptionTopic");
    if (!isEnumType(topicEnum)) throw new Error("WebhookSubscriptionTopic is not an enum");
    expect(topicEnum.getValue("METAFIELD_DEFINITIONS_DELETE")?.description).toContain(
      "Requires the `read_content` scope.",
    );
  });

  it("asks to read metaobject definitions and entries (Settings' list, the chosen entries)", () => {
    const scopes = toml.access_scopes.scopes.split(",").map((s) => s.trim());
    expect(scopes).toEqual(
      expect.arrayContaining(["read_metaobject_definitions", "read_metaobjects"]),
    );
  });

  it("asks for read_inventory (inventory_levels/update) but no publication or listing scope", () => {
    const scopes = toml.access_scopes.scopes.split(",").map((s) => s.trim());
    expect(scopes).toContain("read_inventory");
    for (const unneeded of ["read_publications", "read_product_listings"]) {
      expect(scopes).not.toContain(unneeded);
    }
  });

  it("subscribes every topic the app handles, on the 2026-10 API", () => {
    expect(toml.webhooks.api_version).toBe("2026-10");
    const topics = toml.webhooks.subscriptions.flatMap((s) => s.topics ?? []);
    const compliance = toml.webhooks.subscriptions.flatMap((s) => s.compliance_topics ?? []);
    expect(topics.sort()).toEqual(
      [
        "app/scopes_update",
        "app/uninstalled",
        "bulk_operations/finish",
        "collections/create",
        "collections/delete",
        "collections/update",
        "domains/create",
        "domains/destroy",
        "domains/update",
        "inventory_levels/update",
        "locales/create",
        "locales/destroy",
        "locales/update",
        "markets/create",
        "markets/delete",
        "markets/update",
        "metafield_definitions/create",
        "metafield_definitions/delete",
        "metafield_definitions/update",
        "products/create",
        "products/delete",
        "products/update",
        "shop/update",
      ].sort(),
    );
    expect(compliance.sort()).toEqual([
      "customers/data_request",
      "customers/redact",
      "shop/redact",
    ]);
  });

  it("asks for read_markets and read_locales (where the shop sells: docs/markets.md)", () => {
    const scopes = toml.access_scopes.scopes.split(",").map((s) => s.trim());
    expect(scopes).toEqual(expect.arrayContaining(["read_markets", "read_locales"]));
  });

  it("subscribes only topics that exist in the 2026-10 schema's WebhookSubscriptionTopic", () => {
    const topicEnum = adminSchema().getType("WebhookSubscriptionTopic");
    if (!isEnumType(topicEnum)) throw new Error("WebhookSubscriptionTopic is not an enum");
    const known = new Set(topicEnum.getValues().map((value) => value.name));
    for (const topic of toml.webhooks.subscriptions.flatMap((s) => s.topics ?? [])) {
      expect(known, topic).toContain(topic.replaceAll("/", "_").toUpperCase());
    }
  });

  it("points each subscription at a relative route of the app", () => {
    for (const subscription of toml.webhooks.subscriptions) {
      expect(subscription.uri).toMatch(/^\/webhooks\/[a-z_/]+$/);
    }
  });
});
