import {
  getNamedType,
  Kind,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
} from "graphql";
import { describe, expect, it } from "vitest";
import * as queries from "../../app/catalogue/queries";
import {
  translatedPoliciesQuery,
  withMetafieldTranslations,
} from "../../app/catalogue/translated-content";
import { adminSchema } from "./helpers";

/** Every GraphQL document exported from app/catalogue and app/shopify (named *_QUERY or *_MUTATION). */
const modules = import.meta.glob<Record<string, unknown>>(
  ["../../app/catalogue/*.ts", "../../app/shopify/*.ts", "!../../app/shopify/*.server.ts"],
  { eager: true },
);
const documents: [string, string][] = [
  // index.ts re-exports the others: keep each name once.
  ...new Map(
    Object.values(modules).flatMap((module) =>
      Object.entries(module).flatMap(([name, value]) =>
        typeof value === "string" && /_(QUERY|MUTATION)$/.test(name)
          ? [[name, value] as [string, string]]
          : [],
      ),
    ),
  ),
];

const BULK_DOCUMENTS: Record<string, string> = {
  PRODUCTS_BULK_QUERY: queries.PRODUCTS_BULK_QUERY,
  PAGES_BULK_QUERY: queries.PAGES_BULK_QUERY,
  ARTICLES_BULK_QUERY: queries.ARTICLES_BULK_QUERY,
  // A storefront domain's export (presence-workspaces.server.ts): the same, with translations.
  "translatedBulkQuery(products with metafields, a reference and a variant's, fr)":
    queries.translatedBulkQuery(
      withMetafieldTranslations(
        queries.productsBulkQuery([
          { namespace: "specs", key: "material", type: "single_line_text_field" },
          { namespace: "specs", key: "size_chart", type: "metaobject_reference" },
          {
            namespace: "specs",
            key: "finish",
            type: "single_line_text_field",
            owner: "PRODUCTVARIANT",
          },
        ]),
        "fr",
      ),
      "fr",
    ),
  "translatedBulkQuery(PAGES_BULK_QUERY, pt-BR)": queries.translatedBulkQuery(
    queries.PAGES_BULK_QUERY,
    "pt-BR",
  ),
  "translatedBulkQuery(ARTICLES_BULK_QUERY, fr)": queries.translatedBulkQuery(
    queries.ARTICLES_BULK_QUERY,
    "fr",
  ),
  // A market's domain (decision 0036): its prices and selection for its country, as fields.
  "marketBulkQuery(translated products with a variant's metafield, FR)": queries.marketBulkQuery(
    queries.translatedBulkQuery(
      queries.productsBulkQuery([
        {
          namespace: "specs",
          key: "finish",
          type: "single_line_text_field",
          owner: "PRODUCTVARIANT",
        },
      ]),
      "fr",
    ),
    "FR",
  ),
};

describe("a storefront domain's translated exports", () => {
  it.each(Object.entries(BULK_DOCUMENTS).filter(([name]) => name.startsWith("translated")))(
    "%s is valid against the Admin API 2026-10 schema",
    (_name, source) => {
      expect(validate(adminSchema(), parse(source)).map((error) => error.message)).toEqual([]);
      expect(source).toContain("translations(locale:");
    },
  );

  it("asks each chosen metafield's translations, as a list on the metafield (no connection more)", () => {
    const source =
      BULK_DOCUMENTS[
        "translatedBulkQuery(products with metafields, a reference and a variant's, fr)"
      ]!;
    expect(source.match(/id namespace key type value translations\(locale: "fr"\)/g)).toHaveLength(
      2,
    );
    expect(connectionStats(parse(source)).connections).toBe(
      connectionStats(parse(queries.productsBulkQuery([{ namespace: "specs", key: "material" }])))
        .connections,
    );
  });

  it("translatedPoliciesQuery (a paged query beside the exports) is valid against the Admin API 2026-10 schema", () => {
    const source = translatedPoliciesQuery("fr");
    expect(validate(adminSchema(), parse(source)).map((error) => error.message)).toEqual([]);
    expect(source).toContain('translations(locale: "fr")');
  });

  it("asks a market's prices and selection as fields, valid against 2026-10 and within the bulk limits", () => {
    const [, source] = Object.entries(BULK_DOCUMENTS).find(([name]) =>
      name.startsWith("marketBulkQuery"),
    )!;
    expect(validate(adminSchema(), parse(source)).map((error) => error.message)).toEqual([]);
    expect(source).toContain("publishedInContext(context: { country: FR })");
    expect(source).toContain("contextualPricing(context: { country: FR })");
    expect(source).toContain("variantMetafield0: metafield(");
    // Fields only: as many connections and levels as the export without them.
    const without = queries.productsBulkQuery([
      {
        namespace: "specs",
        key: "finish",
        type: "single_line_text_field",
        owner: "PRODUCTVARIANT",
      },
    ]);
    expect(connectionStats(parse(source))).toEqual(connectionStats(parse(without)));
    // Without the market's prices (a currency the chat cannot show): the selection alone.
    const selectionOnly = queries.marketBulkQuery(queries.productsBulkQuery(), "FR", false);
    expect(selectionOnly).not.toContain("contextualPricing");
    expect(() => queries.marketBulkQuery(queries.productsBulkQuery(), "FR } x {")).toThrow(
      /not a country code/,
    );
  });

  it("refuses a locale that is not a language tag, so nothing else reaches the document", () => {
    expect(() => queries.translatedBulkQuery(queries.PAGES_BULK_QUERY, 'fr") { x }')).toThrow(
      /not a locale/,
    );
  });
});

interface ConnectionStats {
  connections: number;
  depth: number;
  topLevelFields: string[];
}

/** Connections in a document and how deeply they nest, as Shopify's bulk limits count them. */
function connectionStats(document: DocumentNode): ConnectionStats {
  const typeInfo = new TypeInfo(adminSchema());
  let connections = 0;
  let depth = 0;
  let maxDepth = 0;
  const topLevelFields: string[] = [];
  let fieldDepth = 0;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          if (fieldDepth === 0) topLevelFields.push(node.name.value);
          fieldDepth += 1;
          const type = typeInfo.getType();
          if (type && getNamedType(type).name.endsWith("Connection")) {
            connections += 1;
            depth += 1;
            maxDepth = Math.max(maxDepth, depth);
          }
        },
        leave() {
          fieldDepth -= 1;
          const type = typeInfo.getType();
          if (type && getNamedType(type).name.endsWith("Connection")) depth -= 1;
        },
      },
    }),
  );
  return { connections, depth: maxDepth, topLevelFields };
}

describe("GraphQL documents", () => {
  it("exports every document the app sends", () => {
    expect(documents.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "ARTICLES_BULK_QUERY",
        "BULK_OPERATION_RUN_QUERY_MUTATION",
        "BULK_OPERATION_STATUS_QUERY",
        "PAGES_BULK_QUERY",
        "PRODUCTS_BULK_QUERY",
        "PRODUCTS_BY_IDS_QUERY",
        "SHOP_QUERY",
        "SHOP_POLICIES_QUERY",
        "MAIN_THEME_SETTINGS_QUERY",
        "APP_INSTALLATION_QUERY",
        "STOREFRONT_CONFIG_SET_MUTATION",
      ]),
    );
  });

  it.each(documents)("%s is valid against the Admin API 2026-10 schema", (_name, source) => {
    const errors = validate(adminSchema(), parse(source));
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it("uses no field Shopify has deprecated", () => {
    const deprecated: string[] = [];
    for (const [name, source] of documents) {
      const typeInfo = new TypeInfo(adminSchema());
      visit(
        parse(source),
        visitWithTypeInfo(typeInfo, {
          Field() {
            const field = typeInfo.getFieldDef();
            if (field?.deprecationReason) deprecated.push(`${name}: ${field.name}`);
          },
        }),
      );
    }
    expect(deprecated).toEqual([]);
  });
});

describe("bulk export queries", () => {
  it.each(Object.entries(BULK_DOCUMENTS))(
    "%s stays within Shopify's bulk limits (one top-level connection, ≤5 connections, ≤2 levels)",
    (_name, source) => {
      const document = parse(source);
      const stats = connectionStats(document);
      expect(stats.topLevelFields).toHaveLength(1);
      expect(stats.topLevelFields[0]).not.toMatch(/^nodes?$/);
      expect(stats.connections).toBeGreaterThanOrEqual(1);
      expect(stats.connections).toBeLessThanOrEqual(5);
      expect(stats.depth).toBeLessThanOrEqual(2);
      const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
      expect(fragments).toEqual([]);
    },
  );

  it("the product export reads variants, collections and media as nested connections", () => {
    const stats = connectionStats(parse(queries.PRODUCTS_BULK_QUERY));
    expect(stats).toMatchObject({ connections: 4, depth: 2, topLevelFields: ["products"] });
  });
});

/** Leaf field paths of a selection, with connection wrappers (edges/node, nodes, pageInfo) removed. */
function leafPaths(source: string, root: string[]): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  visit(parse(source), {
    Field: {
      enter(node) {
        stack.push(node.name.value);
        if (!node.selectionSet) {
          const path = stack.filter((name) => !["edges", "node", "nodes"].includes(name));
          if (root.every((name, index) => path[index] === name) && !path.includes("pageInfo")) {
            paths.push(path.slice(root.length).join("."));
          }
        }
      },
      leave() {
        stack.pop();
      },
    },
  });
  return paths.sort();
}

describe("live re-read of products", () => {
  it("selects exactly the fields of the bulk export, so one mapper serves both", () => {
    expect(leafPaths(queries.PRODUCTS_BY_IDS_QUERY, []).filter((p) => p !== "__typename")).toEqual(
      leafPaths(queries.PRODUCTS_BULK_QUERY, ["products"]),
    );
  });

  it("with chosen metafields, selects exactly those of the export with them", () => {
    const chosen = [{ namespace: "specs", key: "material" }];
    const read = queries.productsByIdsRead(chosen);
    expect(read.variables).toEqual({ metafieldKeys: ["specs.material"], metafieldsFirst: 1 });
    expect(leafPaths(read.query, []).filter((p) => p !== "__typename")).toEqual(
      leafPaths(queries.productsBulkQuery(chosen), ["products"]),
    );
    expect(leafPaths(read.query, [])).toContain("metafields.value");
    expect(queries.productsByIdsRead([]).query).toBe(queries.PRODUCTS_BY_IDS_QUERY);
  });

  it("with a chosen metaobject reference, both read the entry it names, fewer ids a query", () => {
    const chosen = [
      { namespace: "specs", key: "material", type: "single_line_text_field" },
      { namespace: "specs", key: "size_chart", type: "metaobject_reference" },
    ];
    const read = queries.productsByIdsRead(chosen);
    expect(read.idsPerQuery).toBe(queries.PRODUCT_IDS_PER_QUERY_WITH_REFERENCES);
    const bulk = queries.productsBulkQuery(chosen);
    expect(leafPaths(read.query, []).filter((p) => p !== "__typename")).toEqual(
      leafPaths(bulk, ["products"]),
    );
    expect(leafPaths(bulk, ["products"])).toEqual(
      expect.arrayContaining([
        "metafields.reference.displayName",
        "metafields.reference.fields.value",
        "metafields.reference.fields.definition.name",
      ]),
    );
    expect(validate(adminSchema(), parse(bulk)).map((e) => e.message)).toEqual([]);
    expect(connectionStats(parse(bulk))).toMatchObject({ connections: 5, depth: 2 });
  });
  it("with chosen variant metafields, both read them with each variant as aliased objects, within the bulk limits", () => {
    const chosen = [
      { namespace: "specs", key: "material", type: "single_line_text_field" },
      {
        namespace: "specs",
        key: "finish",
        type: "single_line_text_field",
        owner: "PRODUCTVARIANT",
      },
    ];
    const read = queries.productsByIdsRead(chosen);
    expect(read.variables).toEqual({ metafieldKeys: ["specs.material"], metafieldsFirst: 1 });
    expect(read.idsPerQuery).toBe(queries.VARIANT_METAFIELD_IDS_PER_QUERY);
    const bulk = queries.productsBulkQuery(chosen);
    expect(leafPaths(read.query, []).filter((p) => p !== "__typename")).toEqual(
      leafPaths(bulk, ["products"]),
    );
    expect(bulk).toContain(
      'variantMetafield0: metafield(namespace: "specs", key: "finish") { id namespace key type value }',
    );
    expect(validate(adminSchema(), parse(bulk)).map((e) => e.message)).toEqual([]);
    expect(validate(adminSchema(), parse(read.query)).map((e) => e.message)).toEqual([]);
    // The variant's metafield is an object, not a connection: still 5 connections, 2 levels.
    expect(connectionStats(parse(bulk))).toMatchObject({ connections: 5, depth: 2 });
    // Without a product metafield, the product export has its four connections and no keys.
    const variantOnly = queries.productsBulkQuery(chosen.slice(1));
    expect(variantOnly).not.toContain("metafields(keys:");
    expect(connectionStats(parse(variantOnly))).toMatchObject({ connections: 4, depth: 2 });
  });
});
