/**
 * The fake's metaobjects, asked as the app asks (Shopify's own client over HTTP, the documents of
 * app/catalogue/queries.ts, validated against the 2026-10 schema): the sample store's FAQ and size
 * chart definitions with their entries, a product's metafield referencing a size chart, the
 * merchant's edits (`metaobjectUpdate`, `metaobjectDelete`, `metaobjectCreate`) showing in the
 * next read, and the scopes Shopify requires.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  METAOBJECT_DEFINITIONS_QUERY,
  type MetaobjectDefinitionsData,
} from "../../app/catalogue/queries";
import { mapMetaobject } from "../../app/catalogue/map-metaobject";
import { AdminApiError, queryAdmin, type AdminGraphql } from "../../app/shopify/admin-graphql";
import { readMetaobjectEntries } from "../../app/sync/full/metaobject-entries.server";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { readBulkExport } from "../../app/catalogue/bulk-jsonl";
import { mapProduct } from "../../app/catalogue/map-product";
import { productsBulkQuery } from "../../app/catalogue/queries";
import { urlSource } from "../../app/shopify/bulk-source";
import { pollBulk, runBulk, startTestShop, type FakeShopify } from "./helpers";

/** What the fake asks for METAOBJECTS_QUERY: 2 + 50 entries × 9 objects each. */
const METAOBJECTS_PAGE_COST = 452;

const DOCS_SHOP = fileURLToPath(
  new URL("../../dev/sample-store/shopify-docs-shop.jsonl", import.meta.url),
);

let fake: FakeShopify;
let admin: AdminGraphql;
let writer: FakeShopify;
let writerAdmin: AdminGraphql;
let unscoped: FakeShopify;

beforeAll(async () => {
  fake = await startTestShop({
    store: { files: [DOCS_SHOP], productSpecs: true, metaobjects: true },
  });
  admin = await shopifyAdminClient(fake.graphqlUrl);
  writer = await startTestShop({
    store: { metaobjects: true },
    scopes: ["read_metaobjects", "read_metaobject_definitions", "write_metaobjects"],
  });
  writerAdmin = await shopifyAdminClient(writer.graphqlUrl);
  unscoped = await startTestShop({ store: { metaobjects: true }, scopes: ["read_products"] });
});

afterAll(async () => {
  await fake?.close();
  await writer?.close();
  await unscoped?.close();
});

const definitions = async (client: AdminGraphql) =>
  (await queryAdmin<MetaobjectDefinitionsData>(client, METAOBJECT_DEFINITIONS_QUERY, {}))
    .metaobjectDefinitions.nodes;

const UPDATE = `mutation MetaobjectUpdate($id: ID!, $metaobject: MetaobjectUpdateInput!) {
  metaobjectUpdate(id: $id, metaobject: $metaobject) {
    metaobject { id displayName updatedAt fields { key value } }
    userErrors { field message code elementKey }
  }
}`;
const DELETE = `mutation MetaobjectDelete($id: ID!) {
  metaobjectDelete(id: $id) { deletedId userErrors { field message code } }
}`;
const CREATE = `mutation MetaobjectCreate($metaobject: MetaobjectCreateInput!) {
  metaobjectCreate(metaobject: $metaobject) {
    metaobject { id handle displayName }
    userErrors { field message code elementKey }
  }
}`;

describe("the fake shop's metaobjects", () => {
  it("lists the definitions with name, type, entry count and the online store capability", async () => {
    const listed = await definitions(admin);
    expect(
      listed.map((d) => [d.name, d.type, d.metaobjectsCount, d.capabilities.onlineStore]),
    ).toEqual([
      ["FAQ", "faq", 4, { enabled: true, data: { urlHandle: "faq" } }],
      ["Size chart", "size_chart", 2, null],
      ["Supplier contacts", "supplier_contact", 1, null],
      ["Color", "shopify--color-pattern", 4, null],
      ["Loyalty tiers", "app--4242--loyalty_tier", 1, null],
    ]);
  });

  it("reads a definition's entries with their fields, each mapping to a post", async () => {
    const entries = await readMetaobjectEntries(admin, ["faq", "size_chart"]);
    expect(entries.map((e) => e.displayName)).toEqual([
      "Can I return a sale item?",
      "How long does shipping to Germany take?",
      "How do I wax my snowboard?",
      "Do you sell gift cards?",
      "Burton Custom 151 size chart",
      "Burton Custom 158 size chart",
    ]);
    const returns = entries[0]!;
    expect(returns.definition.name).toBe("FAQ");
    expect(returns.fields.map((f) => [f.definition.name, f.type])).toEqual([
      ["Question", "single_line_text_field"],
      ["Answer", "multi_line_text_field"],
    ]);
    const mapped = mapMetaobject(returns, { primaryDomain: "demo-store.example.com" });
    expect(mapped).toMatchObject({
      indexable: true,
      item: {
        title: "Can I return a sale item?",
        url: "https://demo-store.example.com/pages/faq/can-i-return-a-sale-item",
        categories: ["FAQ"],
      },
    });
    // The draft entry is not published; the size chart has no page on the online store.
    expect(mapMetaobject(entries[3]!, { primaryDomain: "x.example" }).indexable).toBe(false);
    const chart = mapMetaobject(entries[4]!, { primaryDomain: "x.example" });
    expect(chart.indexable && chart.item.url).toBe(undefined);
    expect(chart.indexable && chart.item.content).toContain("Board length: 151 cm");
    // A page of 50 entries stays under Shopify's 1,000 points a query may ask.
    const asked = fake.state.requests().filter((r) => r.operationName === "Metaobjects");
    expect(asked.length).toBe(2);
    for (const request of asked) expect(request.requestedQueryCost).toBe(METAOBJECTS_PAGE_COST);
    // A type no definition has: no entries (a definition deleted while chosen).
    expect(await readMetaobjectEntries(admin, ["no_such_type"])).toEqual([]);
  });

  it("resolves a product's size chart metafield to the entry it references", async () => {
    const answer = await queryAdmin<{
      products: {
        nodes: {
          handle: string;
          metafield: { type: string; reference: { displayName: string } | null } | null;
        }[];
      };
    }>(
      admin,
      `{ products(first: 20) { nodes { handle metafield(namespace: "specs", key: "size_chart") {
          type reference { ... on Metaobject { displayName } } } } } }`,
    );
    const charted = answer.products.nodes.filter((p) => p.metafield);
    expect(charted.map((p) => [p.handle, p.metafield?.type, p.metafield?.reference])).toEqual([
      [
        "burton-custom-freestyle-151",
        "metaobject_reference",
        { displayName: "Burton Custom 151 size chart" },
      ],
      [
        "burton-custom-freestyle-151-1",
        "metaobject_reference",
        { displayName: "Burton Custom 151 size chart" },
      ],
      [
        "burton-custom-freestyle-151-2",
        "metaobject_reference",
        { displayName: "Burton Custom 151 size chart" },
      ],
    ]);
  });

  it("a product export choosing the size chart reference reads the entry it names, as text on the product", async () => {
    const started = await runBulk(
      fake,
      productsBulkQuery([{ namespace: "specs", key: "size_chart", type: "metaobject_reference" }]),
    );
    expect(started.userErrors).toEqual([]);
    const { final } = await pollBulk(fake, started.bulkOperation!.id);
    expect(final.status).toBe("COMPLETED");
    const bulk = await readBulkExport(urlSource(final.url!));
    const charts = new Map<string, unknown>();
    const chosen = [
      { namespace: "specs", key: "size_chart", name: "Size chart", type: "metaobject_reference" },
    ];
    for await (const item of bulk.items()) {
      if (item.type !== "Product") continue;
      const mapped = mapProduct(item.value, { primaryDomain: "x.example", metafields: chosen });
      if (mapped.indexable && mapped.item.attributes["Size chart"]) {
        charts.set(item.value.handle, mapped.item.attributes["Size chart"]);
      }
    }
    expect(Object.fromEntries(charts)).toEqual({
      "burton-custom-freestyle-151-1": [
        "Burton Custom 151 size chart: Board length 151 cm; Rider weight 45–68 kg; Waist width 24.8 cm; Notes Between sizes? Choose the shorter board for park riding.",
      ],
      "burton-custom-freestyle-151-2": [
        "Burton Custom 151 size chart: Board length 151 cm; Rider weight 45–68 kg; Waist width 24.8 cm; Notes Between sizes? Choose the shorter board for park riding.",
      ],
    });
  });

  it("shows a merchant's edit, creation and deletion in the next read", async () => {
    const [first] = await readMetaobjectEntries(writerAdmin, ["faq"]);
    const updated = await queryAdmin<{
      metaobjectUpdate: {
        metaobject: { displayName: string; updatedAt: string } | null;
        userErrors: unknown[];
      };
    }>(writerAdmin, UPDATE, {
      id: first!.id,
      metaobject: { fields: [{ key: "answer", value: "Sale items: 7 days, store credit only." }] },
    });
    expect(updated.metaobjectUpdate.userErrors).toEqual([]);
    const again = (await readMetaobjectEntries(writerAdmin, ["faq"]))[0]!;
    expect(again.fields.find((f) => f.key === "answer")?.value).toBe(
      "Sale items: 7 days, store credit only.",
    );

    const unknown = await queryAdmin<{ metaobjectUpdate: { userErrors: { code: string }[] } }>(
      writerAdmin,
      UPDATE,
      { id: first!.id, metaobject: { fields: [{ key: "colour", value: "red" }] } },
    );
    expect(unknown.metaobjectUpdate.userErrors.map((e) => e.code)).toEqual([
      "UNDEFINED_OBJECT_FIELD",
    ]);

    const created = await queryAdmin<{
      metaobjectCreate: { metaobject: { displayName: string } | null; userErrors: unknown[] };
    }>(writerAdmin, CREATE, {
      metaobject: {
        type: "faq",
        handle: "do-you-ship-to-norway",
        fields: [
          { key: "question", value: "Do you ship to Norway?" },
          { key: "answer", value: "Yes, in 5 to 8 business days." },
        ],
      },
    });
    expect(created.metaobjectCreate).toMatchObject({
      metaobject: { displayName: "Do you ship to Norway?" },
      userErrors: [],
    });

    const deleted = await queryAdmin<{ metaobjectDelete: { deletedId: string | null } }>(
      writerAdmin,
      DELETE,
      { id: first!.id },
    );
    expect(deleted.metaobjectDelete.deletedId).toBe(first!.id);
    const after = await readMetaobjectEntries(writerAdmin, ["faq"]);
    expect(after.map((e) => e.handle)).not.toContain(first!.handle);
    expect(after.map((e) => e.handle)).toContain("do-you-ship-to-norway");
    expect((await definitions(writerAdmin))[0]?.metaobjectsCount).toBe(4);
  });

  it("refuses reads without the metaobject scopes and writes without write_metaobjects, as Shopify does", async () => {
    const unscopedAdmin = await shopifyAdminClient(unscoped.graphqlUrl);
    await expect(definitions(unscopedAdmin)).rejects.toThrow(/read_metaobject_definitions/);
    await expect(readMetaobjectEntries(unscopedAdmin, ["faq"])).rejects.toBeInstanceOf(
      AdminApiError,
    );
    await expect(
      queryAdmin(admin, DELETE, { id: "gid://shopify/Metaobject/3200000001" }),
    ).rejects.toThrow(/write_metaobjects/);
  });
});
