/**
 * Translations in the fake shop (dev/fake-shopify/translations.ts), asked as Shopify 2026-10
 * answers them: `translatableResources` / `translatableResource` with their digests and
 * `translations(locale:)`, the merchant's `translationsRegister` (a stale digest refused with
 * Shopify's user error) and `translationsRemove`, `outdated` once the source changes, and a
 * product export carrying each product's translations. Every document is validated against the
 * 2026-10 schema by the fake, and read through Shopify's own client where the app reads.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryAdmin, type AdminGraphql } from "../../app/shopify/admin-graphql";
import {
  PAGES_BULK_QUERY,
  productsBulkQuery,
  translatedBulkQuery,
} from "../../app/catalogue/queries";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import { asMerchant, graphql, pollBulk, runBulk, startTestShop, type FakeShopify } from "./helpers";

let fake: FakeShopify;
let admin: AdminGraphql;

beforeAll(async () => {
  fake = await startTestShop({
    store: {
      files: ["dev/sample-store/shopify-docs-shop.jsonl"],
      generated: { products: 12, pages: 4, articles: 0, seed: 1 },
      metaobjects: true,
      productSpecs: true,
    },
  });
  admin = await shopifyAdminClient(fake.graphqlUrl);
});

afterAll(async () => {
  await fake?.close();
});

const RESOURCES = `query Resources($type: TranslatableResourceType!, $first: Int!, $locale: String!) {
  translatableResources(resourceType: $type, first: $first) {
    nodes {
      resourceId
      translatableContent { key value digest locale type }
      translations(locale: $locale) { key value locale outdated }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const RESOURCE = `query Resource($id: ID!, $locale: String!) {
  translatableResource(resourceId: $id) {
    resourceId
    translatableContent { key value digest }
    translations(locale: $locale) { key value outdated }
  }
}`;

const REGISTER = `mutation Register($id: ID!, $translations: [TranslationInput!]!) {
  translationsRegister(resourceId: $id, translations: $translations) {
    translations { key value locale outdated }
    userErrors { field message code }
  }
}`;

const REMOVE = `mutation Remove($id: ID!, $keys: [String!]!, $locales: [String!]!) {
  translationsRemove(resourceId: $id, translationKeys: $keys, locales: $locales) {
    translations { key locale }
    userErrors { field message code }
  }
}`;

interface ResourceNode {
  resourceId: string;
  translatableContent: { key: string; value: string | null; digest: string | null }[];
  translations: { key: string; value: string; outdated: boolean }[];
}

interface RegisterData {
  translationsRegister: {
    translations: { key: string; value: string; outdated: boolean }[] | null;
    userErrors: { field: string[]; message: string; code: string }[];
  };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A generated product the sample store translated (its title is made of the generator's words). */
function translatedProduct() {
  const product = fake.state
    .products()
    .find((candidate) => fake.state.translations(candidate.id, "fr").length === 3);
  if (!product) throw new Error("the sample store has no French product");
  return product;
}

async function resource(id: string, locale = "fr"): Promise<ResourceNode> {
  const data = await queryAdmin<{ translatableResource: ResourceNode }>(admin, RESOURCE, {
    id,
    locale,
  });
  return data.translatableResource;
}

describe("the fake shop's translations", () => {
  it("lists products with their source text, Shopify's digests and their French translations", async () => {
    const data = await queryAdmin<{ translatableResources: { nodes: ResourceNode[] } }>(
      admin,
      RESOURCES,
      { type: "PRODUCT", first: 25, locale: "fr" },
    );
    const nodes = data.translatableResources.nodes;
    expect(nodes.length).toBe(fake.state.products().length);
    const product = translatedProduct();
    const node = nodes.find((candidate) => candidate.resourceId === product.id)!;
    expect(node.translatableContent.map((content) => content.key)).toEqual([
      "title",
      "body_html",
      "handle",
      "product_type",
    ]);
    const title = node.translatableContent.find((content) => content.key === "title")!;
    expect(title).toMatchObject({ value: product.title, digest: sha256(String(product.title)) });
    const french = Object.fromEntries(node.translations.map((t) => [t.key, t]));
    expect(french.title?.value).not.toBe(product.title);
    expect(french.title?.outdated).toBe(false);
    expect(french.handle?.value).toMatch(/^[a-z0-9-]+$/);
    // German titles only, for the /de subfolder.
    const german = await resource(product.id, "de");
    expect(german.translations.map((t) => t.key)).toEqual(["title"]);

    const cost = fake.state.requests().find((r) => r.operationName === "Resources");
    // A page of 25 products with their content and one locale's translations.
    expect(cost?.requestedQueryCost).toBeLessThanOrEqual(1000);
  });

  it("keeps product options and option values as resources of their own (PRODUCT_OPTION, PRODUCT_OPTION_VALUE), read on the product and each variant's selected value", async () => {
    const values = await queryAdmin<{ translatableResources: { nodes: ResourceNode[] } }>(
      admin,
      RESOURCES,
      { type: "PRODUCT_OPTION_VALUE", first: 250, locale: "fr" },
    );
    const sand = values.translatableResources.nodes.find((node) =>
      node.translatableContent.some((c) => c.key === "name" && c.value === "Sand"),
    )!;
    expect(sand.translatableContent).toEqual([
      expect.objectContaining({ key: "name", value: "Sand", digest: sha256("Sand") }),
    ]);
    expect(sand.translations).toMatchObject([{ key: "name", value: "Sable", outdated: false }]);
    // A merchant renames the value in French; the product and its variants read it.
    const registered = await asMerchant<RegisterData>(fake, REGISTER, {
      id: sand.resourceId,
      translations: [
        {
          key: "name",
          locale: "fr",
          value: "Sable doré",
          translatableContentDigest: sha256("Sand"),
        },
      ],
    });
    expect(registered.translationsRegister.userErrors).toEqual([]);
    const product = fake.state
      .products()
      .find((p) =>
        (p.variants as { selectedOptions: { value: string }[] }[]).some((v) =>
          v.selectedOptions.some((o) => o.value === "Sand"),
        ),
      )!;
    const read = await queryAdmin<{
      product: {
        options: {
          name: string;
          translations: { value: string }[];
          optionValues: { name: string; translations: { value: string }[] }[];
        }[];
        variants: {
          nodes: {
            selectedOptions: {
              value: string;
              optionValue: { translations: { value: string }[] };
            }[];
          }[];
        };
      };
    }>(
      admin,
      `query P($id: ID!) { product(id: $id) {
        options { name translations(locale: "fr") { value } optionValues { name translations(locale: "fr") { value } } }
        variants(first: 100) { nodes { selectedOptions { value optionValue { translations(locale: "fr") { value } } } } }
      } }`,
      { id: product.id },
    );
    const colour = read.product.options.find((o) => o.name === "Color")!;
    expect(colour.translations).toEqual([{ value: "Couleur" }]);
    expect(colour.optionValues.find((v) => v.name === "Sand")?.translations).toEqual([
      { value: "Sable doré" },
    ]);
    const selected = read.product.variants.nodes
      .flatMap((v) => v.selectedOptions)
      .find((o) => o.value === "Sand")!;
    expect(selected.optionValue.translations).toEqual([{ value: "Sable doré" }]);
  });

  it("lists the online store's pages in French", async () => {
    const data = await queryAdmin<{ translatableResources: { nodes: ResourceNode[] } }>(
      admin,
      RESOURCES,
      { type: "PAGE", first: 10, locale: "fr" },
    );
    const about = data.translatableResources.nodes.find(
      (node) => node.translatableContent.find((c) => c.key === "title")?.value === "About us",
    );
    expect(about?.translations.find((t) => t.key === "title")?.value).toBe("À propos");
    expect(about?.translations.find((t) => t.key === "handle")?.value).toBe("a-propos");
  });

  it("registers a translation with the source's digest, and refuses a stale digest with Shopify's user error, saving nothing", async () => {
    const product = fake.state.products().find((p) => String(p.title).startsWith("IPod Nano"))!;
    const before = await resource(product.id);
    expect(before.translations).toEqual([]);
    const digest = before.translatableContent.find((c) => c.key === "title")!.digest!;

    const stale = await asMerchant<RegisterData>(fake, REGISTER, {
      id: product.id,
      translations: [
        { key: "title", locale: "fr", value: "iPod Nano (FR)", translatableContentDigest: digest },
        {
          key: "body_html",
          locale: "fr",
          value: "<p>Le lecteur</p>",
          translatableContentDigest: sha256("an older description"),
        },
      ],
    });
    expect(stale.translationsRegister).toEqual({
      translations: null,
      userErrors: [
        {
          field: ["translations", "1", "translatableContentDigest"],
          message: "Translatable content hash is invalid",
          code: "INVALID_TRANSLATABLE_CONTENT",
        },
      ],
    });
    expect(fake.state.translations(product.id)).toEqual([]);

    const saved = await asMerchant<RegisterData>(fake, REGISTER, {
      id: product.id,
      translations: [
        { key: "title", locale: "fr", value: "iPod Nano (FR)", translatableContentDigest: digest },
      ],
    });
    expect(saved.translationsRegister.userErrors).toEqual([]);
    expect((await resource(product.id)).translations).toEqual([
      { key: "title", value: "iPod Nano (FR)", outdated: false },
    ]);
  });

  it("keeps a shop policy's body, a translatable definition's entries' text fields and a text metafield's value, each read where Shopify 2026-10 reads it", async () => {
    const policies = await queryAdmin<{
      translatableResources: { nodes: ResourceNode[] };
    }>(admin, RESOURCES, { type: "SHOP_POLICY", first: 10, locale: "fr" });
    const refund = fake.state.policies().find((p) => p.type === "REFUND_POLICY")!;
    const listed = policies.translatableResources.nodes.find((n) => n.resourceId === refund.id)!;
    expect(listed.translatableContent.map((c) => c.key)).toEqual(["body"]);
    expect(listed.translations).toEqual([
      expect.objectContaining({ key: "body", outdated: false }),
    ]);
    // ShopPolicy and Metafield carry `translations` themselves; Metaobject does not.
    const shop = await queryAdmin<{
      shop: { shopPolicies: { type: string; translations: { value: string }[] }[] };
    }>(
      admin,
      `{ shop { shopPolicies { type translations(locale: "fr") { key value outdated } } } }`,
    );
    expect(
      shop.shop.shopPolicies.find((p) => p.type === "REFUND_POLICY")!.translations[0]!.value,
    ).toMatch(/^<h2>Retours et remboursements/);

    const faq = fake.state.metaobjects("faq") as { id: string; handle: string }[];
    const sale = faq.find((entry) => entry.handle === "can-i-return-a-sale-item")!;
    const entry = await resource(sale.id);
    expect(entry.translatableContent.map((c) => c.key)).toEqual(["question", "answer"]);
    expect(entry.translations.map((t) => t.key)).toEqual(["question", "answer"]);
    // A size chart's definition has no `translatable` capability: nothing to translate.
    const chart = (fake.state.metaobjects("size_chart") as { id: string }[])[0]!;
    expect((await resource(chart.id)).translatableContent).toEqual([]);

    const nano = fake.state.products().find((p) => p.handle === "ipod-nano")!;
    const metafields = await queryAdmin<{
      product: {
        metafield: { translations: { key: string; value: string; outdated: boolean }[] };
      };
    }>(
      admin,
      `query M($id: ID!) { product(id: $id) { metafield(namespace: "specs", key: "material") { translations(locale: "fr") { key value outdated } } } }`,
      { id: nano.id },
    );
    expect(metafields.product.metafield.translations).toEqual([
      { key: "value", value: "Aluminium anodisé", outdated: false },
    ]);

    // The English policy changes: its French body is outdated.
    fake.state.updatePolicy("REFUND_POLICY", "<p>45 days.</p>");
    expect(fake.state.translations(String(refund.id), "fr")).toEqual([
      expect.objectContaining({ key: "body", outdated: true }),
    ]);
  });

  it("refuses the primary locale, an unknown key, and the app's own token", async () => {
    const product = translatedProduct();
    const digest = sha256(String(product.title));
    const refused = await asMerchant<RegisterData>(fake, REGISTER, {
      id: product.id,
      translations: [
        { key: "title", locale: "en", value: "x", translatableContentDigest: digest },
        { key: "colour", locale: "fr", value: "x", translatableContentDigest: digest },
      ],
    });
    expect(refused.translationsRegister.userErrors.map((e) => e.code)).toEqual([
      "INVALID_LOCALE_FOR_SHOP",
      "INVALID_KEY_FOR_MODEL",
    ]);
    const asApp = await graphql(fake, REGISTER, {
      id: product.id,
      translations: [{ key: "title", locale: "fr", value: "x", translatableContentDigest: digest }],
    });
    expect(JSON.stringify(asApp.body.errors)).toContain("ACCESS_DENIED");
  });

  it("marks a translation outdated once its source text changes, and removes it on translationsRemove", async () => {
    const product = translatedProduct();
    fake.state.updateProduct(product.id, { title: `${String(product.title)} v2` });
    const after = Object.fromEntries(
      (await resource(product.id)).translations.map((t) => [t.key, t.outdated]),
    );
    expect(after).toMatchObject({ title: true, handle: false });

    const removed = await asMerchant<{
      translationsRemove: { translations: { key: string; locale: string }[] };
    }>(fake, REMOVE, { id: product.id, keys: ["title"], locales: ["fr"] });
    expect(removed.translationsRemove.translations).toEqual([{ key: "title", locale: "fr" }]);
    expect(fake.state.translations(product.id, "fr").map((t) => t.key)).not.toContain("title");
  });

  it("exports each product's and page's translations in a bulk operation (the storefront domain's export)", async () => {
    for (const query of [
      translatedBulkQuery(productsBulkQuery(), "fr"),
      translatedBulkQuery(PAGES_BULK_QUERY, "fr"),
    ]) {
      const started = await runBulk(fake, query);
      expect(started.userErrors).toEqual([]);
      const { final } = await pollBulk(fake, started.bulkOperation!.id);
      expect(final.status).toBe("COMPLETED");
      const text = await (await fetch(final.url!)).text();
      const roots = text
        .trim()
        .split("\n")
        .map(
          (line) =>
            JSON.parse(line) as { id: string; __parentId?: string; translations?: unknown[] },
        )
        .filter((line) => !line.__parentId);
      expect(roots.length).toBeGreaterThan(0);
      expect(roots.every((line) => Array.isArray(line.translations))).toBe(true);
      expect(roots.some((line) => (line.translations ?? []).length > 0)).toBe(true);
    }
  });
});
