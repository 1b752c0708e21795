import type { VariantStock } from "./map-product";
import {
  hasReference,
  productMetafieldsOf,
  variantMetafieldsOf,
  type ReferencedEntry,
} from "./metafield-text";
import type { ShopifyMetaobject, ShopifyProductFields, ShopifyShopPolicy } from "./shopify-types";

/**
 * The app's Admin GraphQL documents (API 2026-10). The bulk exports and the `nodes(ids:)` re-read
 * select the very same fields (the selection strings below are shared), so one mapper serves the
 * full sync and live updates. Bulk documents avoid fragments and keep to Shopify's bulk limits:
 * one top-level connection, at most 5 connections, nested at most 2 levels.
 */

const IMAGE_SELECTION = "url altText";

// An image's preview is the image itself; a video's or 3D model's is its poster.
const MEDIA_SELECTION = `
  id
  mediaContentType
  alt
  preview { image { url } }`;

const OPTIONS_SELECTION = "options { name values }";
const SELECTED_OPTIONS_SELECTION = "selectedOptions { name value }";

const PRODUCT_SELECTION = `
  id
  legacyResourceId
  title
  handle
  descriptionHtml
  productType
  vendor
  tags
  status
  onlineStoreUrl
  createdAt
  updatedAt
  publishedAt
  totalInventory
  tracksInventory
  ${OPTIONS_SELECTION}
  featuredMedia { ${MEDIA_SELECTION} }`;

// Variants come in position order (the connection's default sort key).
const VARIANT_SELECTION = `
  id
  sku
  price
  compareAtPrice
  inventoryQuantity
  inventoryPolicy
  availableForSale
  ${SELECTED_OPTIONS_SELECTION}
  inventoryItem { tracked }`;

const METAFIELD_SELECTION = "id namespace key type value";

/** A chosen metafield as the documents ask for it (a ChosenMetafield, or its key alone). */
export interface MetafieldChoice {
  namespace: string;
  key: string;
  type?: string;
  owner?: string;
}

/** The response key of a variant's chosen metafield: `variantMetafield0`, `variantMetafield1`… */
export const VARIANT_METAFIELD_ALIAS = "variantMetafield";

/**
 * A variant with the chosen variant metafields, each an object under an alias
 * (`metafield(namespace:, key:)`), not a connection: the product export's five connections are
 * all taken, and a connection inside variants would be a third level (docs/decisions/0033).
 */
function variantSelection(variantChosen: readonly MetafieldChoice[]): string {
  const fields = variantChosen.map(
    (metafield, index) =>
      `${VARIANT_METAFIELD_ALIAS}${index}: metafield(namespace: ${JSON.stringify(metafield.namespace)}, key: ${JSON.stringify(metafield.key)}) { ${METAFIELD_SELECTION} }`,
  );
  return [VARIANT_SELECTION, ...fields].join("\n  ");
}

/** `query` with the chosen variant metafields in its variants' selection (none: as it is). */
function withVariantMetafields(query: string, chosen: readonly MetafieldChoice[]): string {
  const variantChosen = variantMetafieldsOf(chosen);
  if (variantChosen.length === 0) return query;
  return query
    .replace(`node { ${VARIANT_SELECTION} }`, `node { ${variantSelection(variantChosen)} }`)
    .replace(`nodes { ${VARIANT_SELECTION} }`, `nodes { ${variantSelection(variantChosen)} }`);
}

/**
 * With a chosen `metaobject_reference` metafield: what the entry it names says (a size chart's
 * name and fields), read with the product. An object, not a connection: no bulk level of its own.
 */
const METAFIELD_WITH_REFERENCE_SELECTION = `${METAFIELD_SELECTION} reference { __typename ... on Metaobject { displayName fields { key type value definition { name } } } ... on Product { title } ... on ProductVariant { title product { title } } ... on Collection { title } ... on Page { title } ... on MediaImage { alt image { url } } ... on GenericFile { alt url } ... on Video { alt filename } }`;

const COLLECTION_SELECTION = `
  id
  title
  handle`;

const PAGE_SELECTION = `
  id
  title
  handle
  body
  bodySummary
  isPublished
  createdAt
  updatedAt
  publishedAt`;

/** An article's blog: its handle is in the article's URL, its title the article's category. */
const BLOG_SELECTION = "blog { id handle title }";

const ARTICLE_SELECTION = `
  id
  title
  handle
  body
  summary
  isPublished
  createdAt
  updatedAt
  publishedAt
  tags
  author { name }
  image { ${IMAGE_SELECTION} }
  ${BLOG_SELECTION}`;

/** Bulk export of every product (all statuses: the sync deletes the ones no longer indexable). */
export const PRODUCTS_BULK_QUERY = `{
  products {
    edges {
      node {
        ${PRODUCT_SELECTION}
        variants { edges { node { ${VARIANT_SELECTION} } } }
        collections { edges { node { ${COLLECTION_SELECTION} } } }
        media { edges { node { ${MEDIA_SELECTION} } } }
      }
    }
  }
}`;

/** A metafield's `namespace.key`, as `metafields(keys:)` names it. */
export function metafieldKey(metafield: { namespace: string; key: string }): string {
  return `${metafield.namespace}.${metafield.key}`;
}

/**
 * The products' bulk export with the chosen metafields (none: the plain export). A product's are
 * the fifth connection, Shopify's limit (`metafields(keys:)`, only the chosen ones); a variant's
 * are objects in the variant's selection (variantSelection). A chosen metaobject reference of a
 * product is resolved (the entry's name and fields) with it.
 */
export function productsBulkQuery(chosen: readonly MetafieldChoice[] = []): string {
  const query = withVariantMetafields(PRODUCTS_BULK_QUERY, chosen);
  const own = productMetafieldsOf(chosen);
  if (own.length === 0) return query;
  const keys = own.map((metafield) => JSON.stringify(metafieldKey(metafield))).join(", ");
  const selection = hasReference(own) ? METAFIELD_WITH_REFERENCE_SELECTION : METAFIELD_SELECTION;
  return query.replace(
    "        media { edges",
    `        metafields(keys: [${keys}]) { edges { node { ${selection} } } }\n        media { edges`,
  );
}

/**
 * Bulk export of the products changed after `since` (Shopify's `updated_at` search; an order's
 * inventory adjustment counts as an update): the incremental reconciliation's export.
 */
export function productsChangedSinceBulkQuery(
  since: Date,
  chosen: readonly MetafieldChoice[] = [],
): string {
  return productsBulkQuery(chosen).replace(
    "products {",
    `products(query: "${updatedAfterTerm(since)}") {`,
  );
}

/**
 * The store's product (`ownerType: PRODUCT`) or variant (`PRODUCTVARIANT`) metafield definitions,
 * for Settings: name, `namespace.key`, type and how many products (variants) have a value
 * (`metafieldsCount`). A page of 200.
 */
export const PRODUCT_METAFIELD_DEFINITIONS_QUERY = `query ProductMetafieldDefinitions($ownerType: MetafieldOwnerType!, $after: String) {
  metafieldDefinitions(ownerType: $ownerType, first: 200, after: $after) {
    nodes {
      id
      name
      namespace
      key
      description
      type { name }
      metafieldsCount
      access { storefront }
      pinnedPosition
      validationStatus
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/**
 * The names of what references read as ids name (lists of references, a variant's references):
 * a product, variant, collection or page by its title, a file by its alt text or file name, a
 * metaobject entry by its display name. REFERENCED_NAMES_PER_QUERY ids a query; an id of
 * something deleted answers null.
 */
export const REFERENCED_NAMES_QUERY = `query ReferencedNames($ids: [ID!]!) {
  nodes(ids: $ids) {
    __typename id
    ... on Product { title }
    ... on ProductVariant { title product { title } }
    ... on Collection { title }
    ... on Page { title }
    ... on MediaImage { alt image { url } }
    ... on GenericFile { alt url }
    ... on Video { alt filename }
    ... on Metaobject { displayName }
  }
}`;

/** Ids a ReferencedNames query: a variant or an image is two objects, so about 200 points. */
export const REFERENCED_NAMES_PER_QUERY = 100;

/**
 * What a storefront domain's language calls what references name: each referenced product,
 * collection, page, image or metaobject entry's source text (to find the field its name is) and
 * its translations into `$locale`. REFERENCED_NAMES_PER_QUERY ids a query (`$first` = their
 * number); an id that names no translatable resource is left out of the answer.
 */
export const REFERENCE_TRANSLATIONS_QUERY = `query ReferenceTranslations($ids: [ID!]!, $first: Int!, $locale: String!) {
  translatableResourcesByIds(resourceIds: $ids, first: $first) {
    nodes {
      resourceId
      translatableContent { key value }
      translations(locale: $locale) { key value outdated }
    }
  }
}`;

export interface ReferenceTranslationsData {
  translatableResourcesByIds: {
    nodes: {
      resourceId: string;
      translatableContent: { key: string; value: string | null }[];
      translations: { key: string; value: string | null; outdated: boolean }[];
    }[];
  };
}

export interface ReferencedNamesData {
  nodes: ((ReferencedEntry & { id: string }) | null)[];
}

export interface MetafieldDefinitionNode {
  id: string;
  name: string;
  namespace: string;
  key: string;
  description: string | null;
  type: { name: string };
  metafieldsCount: number;
  /** `NONE`: the storefront cannot read it (Shopify admin: Custom data, "Storefronts" access). */
  access: { storefront: "NONE" | "PUBLIC_READ" | null };
  /** Set when the merchant pinned the definition, so it shows on every product's page in the admin. */
  pinnedPosition: number | null;
  /** `SOME_INVALID`: some stored values fail the definition's type or validations. */
  validationStatus?: "ALL_VALID" | "IN_PROGRESS" | "SOME_INVALID";
}

export interface ProductMetafieldDefinitionsData {
  metafieldDefinitions: {
    nodes: MetafieldDefinitionNode[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/**
 * Bulk export of what decides whether and where each product is indexed, for the whole
 * catalogue: its id, status, Online Store URL and collections' ids (no cost points; a line per
 * product and per membership). The hourly check compares it with the ledger: a product deleted,
 * unpublished or moved between collections without its webhook shows up here.
 */
export const PRODUCT_SHAPES_BULK_QUERY = `{
  products {
    edges {
      node {
        id
        status
        onlineStoreUrl
        collections { edges { node { id } } }
      }
    }
  }
}`;

/** A page of the collections changed after a time (`query`: `updated_at:>'…'`), ids only. */
export const COLLECTIONS_CHANGED_QUERY = `query CollectionsChanged($query: String!, $first: Int!, $after: String) {
  collections(first: $first, after: $after, query: $query) {
    nodes { id }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface CollectionsChangedData {
  collections: {
    nodes: { id: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** Shopify's search term for "changed after" (whole seconds, UTC). */
export function updatedAfterTerm(since: Date): string {
  return `updated_at:>'${since.toISOString().replace(/\.\d{3}Z$/, "Z")}'`;
}

/** Bulk export of the online store's pages. */
export const PAGES_BULK_QUERY = `{
  pages {
    edges {
      node { ${PAGE_SELECTION} }
    }
  }
}`;

/**
 * What a storefront in another language needs of each product or page: its translations into
 * that locale (`translations(locale:)`, a list, so it is allowed in a bulk query and costs the
 * export nothing more), with `outdated` so a translation whose source changed is not used.
 */
const TRANSLATIONS_SELECTION = (locale: string) =>
  `translations(locale: ${JSON.stringify(locale)}) { key value outdated }`;

/** A BCP 47 tag as Shopify's locales are ("fr", "pt-BR", "zh-Hant-TW"); nothing else reaches a document. */
export function isLocaleTag(locale: string): boolean {
  return /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/.test(locale);
}

/**
 * `productsBulkQuery`, `PAGES_BULK_QUERY` or `ARTICLES_BULK_QUERY` with each product's (page's,
 * article's and its blog's) translations into `locale`; the rest of the export is the same, so
 * the same reader and mapper take it.
 */
export function translatedBulkQuery(query: string, locale: string): string {
  if (!isLocaleTag(locale)) throw new Error(`"${locale}" is not a locale`);
  const at = query.indexOf("node {");
  if (at < 0) throw new Error("not a connection's bulk query");
  const end = at + "node {".length;
  const translated = `${query.slice(0, end)}\n        ${TRANSLATIONS_SELECTION(locale)}${query.slice(end)}`;
  // An article's blog has its own title and handle in each language (Shopify's BLOG resource).
  return translatedOptions(translated, locale).replace(
    BLOG_SELECTION,
    `blog { id handle title ${TRANSLATIONS_SELECTION(locale)} }`,
  );
}

/**
 * A product selection with its options' names and values in `locale` (Shopify's
 * `PRODUCT_OPTION` and `PRODUCT_OPTION_VALUE` resources): each option's and option value's
 * `translations`, and each variant's selected values through `optionValue` (fields, not
 * connections: the export's limits and cost are unchanged). A selection without them is returned
 * as it is.
 */
export function translatedOptions(query: string, locale: string): string {
  const translations = TRANSLATIONS_SELECTION(locale);
  return query
    .replace(
      OPTIONS_SELECTION,
      `options { name values ${translations} optionValues { name ${translations} } }`,
    )
    .replace(
      SELECTED_OPTIONS_SELECTION,
      `selectedOptions { name value optionValue { ${translations} } }`,
    );
}

/** An ISO 3166 country code, as Shopify's `CountryCode` names them ("FR"). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code);
}

/**
 * `productsBulkQuery` (translated or not) as a shopper in `country` sees it: each product's
 * `publishedInContext` and, unless `prices` is false, each variant's `contextualPricing` (the
 * market's price and currency). Both are fields, not connections, so the bulk export's limits
 * and cost are unchanged (docs/markets.md#prices-and-selection-per-market).
 */
export function marketBulkQuery(query: string, country: string, prices = true): string {
  if (!isCountryCode(country)) throw new Error(`"${country}" is not a country code`);
  const context = `context: { country: ${country} }`;
  const at = query.indexOf("node {");
  if (at < 0) throw new Error("not a connection's bulk query");
  const end = at + "node {".length;
  let market = `${query.slice(0, end)}\n        publishedInContext(${context})${query.slice(end)}`;
  if (prices) {
    // The variant's first fields: the same whether its options are asked in another language.
    const head = VARIANT_SELECTION.slice(0, VARIANT_SELECTION.indexOf(SELECTED_OPTIONS_SELECTION));
    const variant = `node { ${head}`;
    if (!market.includes(variant)) throw new Error("not a product bulk query");
    market = market.replace(
      variant,
      `node { contextualPricing(${context}) { price { amount currencyCode } compareAtPrice { amount currencyCode } }\n  ${head}`,
    );
  }
  return market;
}

/**
 * The market(s) a web presence serves, each with its status, currency and first country: the
 * country a domain workspace's prices and selection are asked for (`marketBulkQuery`).
 */
export const PRESENCE_MARKET_QUERY = `query PresenceMarket($id: ID!) {
  node(id: $id) {
    ... on MarketWebPresence {
      markets(first: 5) {
        nodes {
          name
          status
          currencySettings { baseCurrency { currencyCode } }
          conditions { regionsCondition { regions(first: 1) { nodes { ... on MarketRegionCountry { code } } } } }
        }
      }
    }
  }
}`;

export interface PresenceMarketData {
  node: {
    markets?: {
      nodes: {
        name: string;
        status: string;
        currencySettings: { baseCurrency: { currencyCode: string } } | null;
        conditions: {
          regionsCondition: { regions: { nodes: { code?: string }[] } } | null;
        } | null;
      }[];
    };
  } | null;
}

/** Bulk export of every blog's articles. */
export const ARTICLES_BULK_QUERY = `{
  articles {
    edges {
      node { ${ARTICLE_SELECTION} }
    }
  }
}`;

/**
 * The `first:` sizes the `nodes(ids:)` re-read asks for; a product with more is marked truncated
 * (re-read it alone with larger sizes). Shopify refuses a query whose requested cost exceeds
 * 1,000 points; it grows with `ids × (about 3 × variantsFirst + collectionsFirst + 3 × mediaFirst)`,
 * some 185 points per id with these sizes, so send at most 5 ids per query.
 */
export const PRODUCT_NODES_DEFAULT_PAGE_SIZES = {
  variantsFirst: 50,
  collectionsFirst: 10,
  mediaFirst: 5,
} as const;

/** Re-reads products by gid for live updates (variables: `ids` and the sizes above). */
export const PRODUCTS_BY_IDS_QUERY = `query ProductsByIds(
  $ids: [ID!]!
  $variantsFirst: Int!
  $collectionsFirst: Int!
  $mediaFirst: Int!
) {
  nodes(ids: $ids) {
    __typename
    ... on Product {
      ${PRODUCT_SELECTION}
      variants(first: $variantsFirst) {
        nodes { ${VARIANT_SELECTION} }
        pageInfo { hasNextPage }
      }
      collections(first: $collectionsFirst) {
        nodes { ${COLLECTION_SELECTION} }
        pageInfo { hasNextPage }
      }
      media(first: $mediaFirst) {
        nodes { ${MEDIA_SELECTION} }
        pageInfo { hasNextPage }
      }
    }
  }
}`;

/**
 * PRODUCTS_BY_IDS_QUERY with the chosen metafields (variables: those of metafieldVariables too),
 * for a shop that chose some; the same fields as productsBulkQuery with keys.
 */
export const PRODUCTS_WITH_METAFIELDS_BY_IDS_QUERY = PRODUCTS_BY_IDS_QUERY.replace(
  "$mediaFirst: Int!\n) {",
  "$mediaFirst: Int!\n  $metafieldKeys: [String!]!\n  $metafieldsFirst: Int!\n) {",
).replace(
  "      media(first: $mediaFirst) {",
  `      metafields(first: $metafieldsFirst, keys: $metafieldKeys) {
        nodes { ${METAFIELD_SELECTION} }
      }
      media(first: $mediaFirst) {`,
);

/**
 * PRODUCTS_WITH_METAFIELDS_BY_IDS_QUERY resolving metaobject references (a size chart): three
 * more objects a metafield, so fewer ids a query (PRODUCT_IDS_PER_QUERY_WITH_REFERENCES).
 */
export const PRODUCTS_WITH_METAFIELD_REFERENCES_BY_IDS_QUERY =
  PRODUCTS_WITH_METAFIELDS_BY_IDS_QUERY.replace(
    `nodes { ${METAFIELD_SELECTION} }`,
    `nodes { ${METAFIELD_WITH_REFERENCE_SELECTION} }`,
  );

/** Ids a re-read asks at once when references are resolved: 4 × ~228 points, under 1,000. */
export const PRODUCT_IDS_PER_QUERY_WITH_REFERENCES = 4;

/**
 * The re-read of products by id for a shop's chosen metafields: the query and the variables it
 * adds, how many ids it may ask at once when that is fewer than usual, and the sizes of the
 * re-read of a product cut short when they must be smaller than usual. None chosen: the plain
 * query (an empty `keys` would list every metafield). At most MAX_CHOSEN_METAFIELDS, some 12
 * points an id (about 30 with a metaobject reference among them); a variant metafield costs one
 * point a variant read (VARIANT_METAFIELD_IDS_PER_QUERY).
 */
export function productsByIdsRead(chosen: readonly MetafieldChoice[]): {
  query: string;
  variables: Record<string, unknown>;
  idsPerQuery?: number;
  largeVariantsFirst?: number;
} {
  const read = productMetafieldsRead(productMetafieldsOf(chosen));
  const variantCount = variantMetafieldsOf(chosen).length;
  if (variantCount === 0) return read;
  return {
    query: withVariantMetafields(read.query, chosen),
    variables: read.variables,
    idsPerQuery: VARIANT_METAFIELD_IDS_PER_QUERY,
    largeVariantsFirst: VARIANT_METAFIELD_LARGE_VARIANTS_FIRST[variantCount - 1]!,
  };
}

/**
 * Ids a re-read asks at once with chosen variant metafields (each one point a variant: 50 more an
 * id; with 10 chosen, 2 of them variants' and a metaobject reference, 320 an id, so 3 ids, 960
 * points), and, with 1 or 2 variant metafields, the variants a product cut short is read again
 * with, alone (959 and 955 points, rather than 250 variants). Measured with the fake's cost model
 * (test/fake-shopify/variant-metafields.test.ts).
 */
export const VARIANT_METAFIELD_IDS_PER_QUERY = 3;
export const VARIANT_METAFIELD_LARGE_VARIANTS_FIRST = [200, 160] as const;

/** At most this many of the chosen metafields are variants' (each is read with every variant). */
export const MAX_CHOSEN_VARIANT_METAFIELDS = VARIANT_METAFIELD_LARGE_VARIANTS_FIRST.length;

function productMetafieldsRead(chosen: readonly MetafieldChoice[]): {
  query: string;
  variables: Record<string, unknown>;
  idsPerQuery?: number;
} {
  if (chosen.length === 0) return { query: PRODUCTS_BY_IDS_QUERY, variables: {} };
  const variables = { metafieldKeys: chosen.map(metafieldKey), metafieldsFirst: chosen.length };
  if (hasReference(chosen)) {
    return {
      query: PRODUCTS_WITH_METAFIELD_REFERENCES_BY_IDS_QUERY,
      variables,
      idsPerQuery: PRODUCT_IDS_PER_QUERY_WITH_REFERENCES,
    };
  }
  return { query: PRODUCTS_WITH_METAFIELDS_BY_IDS_QUERY, variables };
}

/** At most this many product metafields are chosen (the re-read's cost stays under 1,000). */
export const MAX_CHOSEN_METAFIELDS = 10;

/** Reads pages by gid (the Dashboard's "Retry failed items"). */
export const PAGES_BY_IDS_QUERY = `query PagesByIds($ids: [ID!]!) {
  nodes(ids: $ids) {
    __typename
    ... on Page { ${PAGE_SELECTION} }
  }
}`;

/** Reads articles by gid; apart from pages, as their `updatedAt` fields have different types. */
export const ARTICLES_BY_IDS_QUERY = `query ArticlesByIds($ids: [ID!]!) {
  nodes(ids: $ids) {
    __typename
    ... on Article { ${ARTICLE_SELECTION} }
  }
}`;

/** Products' titles by gid: the Dashboard names the changes that wait (one point an id). */
export const PRODUCT_TITLES_QUERY = `query ProductTitles($ids: [ID!]!) {
  nodes(ids: $ids) {
    __typename
    ... on Product { id title }
  }
}`;

/** Starts a bulk export; `query` is one of the *_BULK_QUERY documents. Check `userErrors`. */
export const BULK_OPERATION_RUN_QUERY_MUTATION = `mutation BulkOperationRunQuery($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { field message code }
  }
}`;

/** Polls a bulk operation by its gid. */
export const BULK_OPERATION_STATUS_QUERY = `query BulkOperationStatus($id: ID!) {
  node(id: $id) {
    ... on BulkOperation {
      id
      status
      errorCode
      objectCount
      url
      partialDataUrl
    }
  }
}`;

/** The shop's domains (the primary domain builds storefront URLs) and currency. */
export const SHOP_QUERY = `query ShopDomains {
  shop {
    myshopifyDomain
    email
    primaryDomain { host url }
    currencyCode
  }
}`;

/**
 * The shop's legal policies (refund, shipping, privacy, terms…), each with its public URL. Not a
 * connection, so not a bulk export: one small query (a few cost points), asked by every full sync
 * that covers pages. No webhook reports a policy edit; see docs/live-updates.md.
 */
export const SHOP_POLICIES_QUERY = `query ShopPolicies {
  shop {
    shopPolicies {
      id
      type
      title
      body
      url
      createdAt
      updatedAt
    }
  }
}`;

export interface ShopPoliciesData {
  shop: { shopPolicies: ShopifyShopPolicy[] };
}

/**
 * The store's metaobject definitions, for Settings: name, type, how many entries, and whether its
 * entries have pages on the online store (the `onlineStore` capability and its URL segment).
 * Scope `read_metaobject_definitions`. A page of 100 (about 400 cost points); a shop has at most
 * a few hundred definitions.
 */
export const METAOBJECT_DEFINITIONS_QUERY = `query MetaobjectDefinitions($after: String) {
  metaobjectDefinitions(first: 100, after: $after) {
    nodes {
      id
      name
      type
      metaobjectsCount
      access { storefront }
      capabilities { onlineStore { enabled data { urlHandle } } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface MetaobjectDefinitionNode {
  id: string;
  name: string;
  type: string;
  metaobjectsCount: number;
  /** `NONE`: the storefront may not read its entries (never offered). */
  access: { storefront: "NONE" | "PUBLIC_READ" };
  capabilities: {
    onlineStore: { enabled: boolean; data: { urlHandle: string } | null } | null;
  };
}

export interface MetaobjectDefinitionsData {
  metaobjectDefinitions: {
    nodes: MetaobjectDefinitionNode[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/**
 * The entries of one metaobject definition (scope `read_metaobjects`), a page at a time: each
 * with its fields (type and stored value, and the field's name from the definition), whether it
 * is published, and its definition's name and online-store URL segment, so one entry maps alone.
 * About 9 cost points an entry: a page of 50 asks 452, under the 1,000 a query may ask.
 */
export const METAOBJECTS_QUERY = `query Metaobjects($type: String!, $after: String) {
  metaobjects(type: $type, first: 50, after: $after) {
    nodes {
      id
      handle
      type
      displayName
      updatedAt
      capabilities { publishable { status } }
      definition { name capabilities { onlineStore { enabled data { urlHandle } } } }
      fields { key type value definition { name } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface MetaobjectsData {
  metaobjects: {
    nodes: ShopifyMetaobject[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/**
 * The published (MAIN) theme's settings_data.json, where app embeds are switched on and off
 * (scope read_themes). Only the live theme counts: it is the one shoppers see.
 */
export const MAIN_THEME_SETTINGS_QUERY = `query MainThemeSettings {
  currentAppInstallation { app { handle } }
  themes(first: 1, roles: [MAIN]) {
    nodes {
      name
      files(filenames: ["config/settings_data.json"], first: 1) {
        nodes {
          filename
          body {
            ... on OnlineStoreThemeFileBodyText { content }
            ... on OnlineStoreThemeFileBodyBase64 { contentBase64 }
            ... on OnlineStoreThemeFileBodyUrl { url }
          }
        }
      }
    }
  }
}`;

export interface MainThemeSettingsData {
  currentAppInstallation: { app: { handle: string | null } | null } | null;
  themes: {
    nodes: {
      name: string;
      files: {
        nodes: {
          filename: string;
          body: { content?: string; contentBase64?: string; url?: string };
        }[];
      } | null;
    }[];
  };
}

export type BulkOperationStatus =
  "CANCELED" | "CANCELING" | "COMPLETED" | "CREATED" | "EXPIRED" | "FAILED" | "RUNNING";

export interface BulkOperationRunQueryData {
  bulkOperationRunQuery: {
    bulkOperation: { id: string; status: BulkOperationStatus } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

export interface BulkOperationStatusData {
  node: {
    id: string;
    status: BulkOperationStatus;
    errorCode: "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT" | null;
    /** UnsignedInt64, serialised as a string. */
    objectCount: string;
    url: string | null;
    partialDataUrl: string | null;
  } | null;
}

export interface ShopDomainsData {
  shop: {
    myshopifyDomain: string;
    email: string | null;
    primaryDomain: { host: string; url: string };
    currencyCode: string;
  };
}

/**
 * Inventory items per lookup query, and the variants read of each (an item may be shared by
 * several variants): 1 + 2 + 10 × 2 points per item, some 575 requested, within Shopify's 1,000.
 */
export const INVENTORY_ITEMS_PER_QUERY = 25;
export const INVENTORY_ITEM_VARIANTS_FIRST = 10;

/** The products of each inventory item (inventory_levels/update names only the item). */
export const INVENTORY_ITEM_PRODUCTS_QUERY = `query InventoryItemProducts($ids: [ID!]!, $variantsFirst: Int!) {
  nodes(ids: $ids) {
    ... on InventoryItem {
      id
      variants(first: $variantsFirst) { nodes { product { id } } }
    }
  }
}`;

export interface InventoryItemProductsData {
  nodes: ({ id?: string; variants?: { nodes: { product: { id: string } | null }[] } } | null)[];
}

/**
 * The stock read of a product the stock model cannot hold (more than 50 variants, or an item at
 * more than 4 locations): the variants' stock fields, and what tells whether the product is still
 * indexed at the URL the index has; alone, with up to 250 variants (some 503 points requested,
 * what it returns is what it costs); one with more than that is re-read whole.
 */
export const PRODUCT_STOCK_VARIANTS_MAX = 250;

export const PRODUCT_STOCK_BY_IDS_QUERY = `query ProductStockByIds($ids: [ID!]!, $variantsFirst: Int!) {
  nodes(ids: $ids) {
    __typename
    ... on Product {
      id
      handle
      status
      onlineStoreUrl
      updatedAt
      variants(first: $variantsFirst) {
        nodes { id inventoryQuantity inventoryPolicy availableForSale inventoryItem { tracked } }
        pageInfo { hasNextPage }
      }
    }
  }
}`;

export interface ProductStockNode {
  __typename: "Product";
  id: string;
  handle: string;
  status: ShopifyProductFields["status"];
  onlineStoreUrl: string | null;
  updatedAt: string;
  variants: { nodes: VariantStock[]; pageInfo: { hasNextPage: boolean } };
}

export interface ProductStockByIdsData {
  nodes: (ProductStockNode | { __typename: string } | null)[];
}

/**
 * The stock model's read of one product (docs/decisions/0021-stock-from-the-payload.md): what the
 * stock read asks, plus each variant's inventory item and its levels, so that the product's later
 * purchases are computed from their inventory_levels/update payloads alone. One product a query,
 * 50 variants of 4 levels (some 800 points requested; a product with 3 variants at one location
 * costs about 24); a product with more variants or levels is not modelled and keeps the stock read.
 */
export const PRODUCT_STOCK_MODEL_VARIANTS_FIRST = 50;
export const PRODUCT_STOCK_MODEL_LEVELS_FIRST = 4;

export const PRODUCT_STOCK_MODEL_QUERY = `query ProductStockModel($ids: [ID!]!, $variantsFirst: Int!, $levelsFirst: Int!) {
  nodes(ids: $ids) {
    __typename
    ... on Product {
      id
      handle
      status
      onlineStoreUrl
      updatedAt
      variants(first: $variantsFirst) {
        nodes {
          id
          inventoryQuantity
          inventoryPolicy
          availableForSale
          inventoryItem {
            id
            tracked
            inventoryLevels(first: $levelsFirst) {
              nodes { location { id } quantities(names: ["available"]) { quantity } }
              pageInfo { hasNextPage }
            }
          }
        }
        pageInfo { hasNextPage }
      }
    }
  }
}`;

export interface ModelledVariantNode extends VariantStock {
  inventoryItem: {
    id: string;
    tracked: boolean;
    inventoryLevels: {
      nodes: { location: { id: string }; quantities: { quantity: number }[] }[];
      pageInfo: { hasNextPage: boolean };
    };
  } | null;
}

export interface ProductStockModelNode extends Omit<ProductStockNode, "variants"> {
  variants: { nodes: ModelledVariantNode[]; pageInfo: { hasNextPage: boolean } };
}

export interface ProductStockModelData {
  nodes: (ProductStockModelNode | { __typename: string } | null)[];
}

/**
 * The stock model's bulk export (docs/decisions/0060-the-full-sync-fills-the-stock-model.md): every
 * inventory item with its variant, product, tracking and policy, and its `available` at each
 * location, so that each product's first order after a full sync is computed without a read.
 * Run beside the products' export, whose five connections are all taken.
 */
export const STOCK_MODEL_BULK_QUERY = `{
  inventoryItems {
    edges {
      node {
        id
        tracked
        variants { edges { node { id inventoryQuantity inventoryPolicy product { id } } } }
        inventoryLevels {
          edges { node { location { id } quantities(names: ["available"]) { quantity } } }
        }
      }
    }
  }
}`;

/** A line of STOCK_MODEL_BULK_QUERY's export: an inventory item. */
export interface StockExportItemLine {
  id: string;
  tracked: boolean;
}

/** A line of STOCK_MODEL_BULK_QUERY's export: an item's variant (`__parentId` its item). */
export interface StockExportVariantLine {
  id: string;
  inventoryQuantity: number | null;
  inventoryPolicy: string;
  product: { id: string };
  __parentId: string;
}

/** A line of STOCK_MODEL_BULK_QUERY's export: one of an item's levels (`__parentId` its item). */
export interface StockExportLevelLine {
  location: { id: string };
  quantities: { quantity: number }[];
  __parentId: string;
}

/** Products per page of a collection's members: some 253 points requested. */
export const COLLECTION_PRODUCTS_PAGE_SIZE = 250;

/** A page of a collection's products, by id only (collections/update names only the collection). */
export const COLLECTION_PRODUCT_IDS_QUERY = `query CollectionProductIds($id: ID!, $first: Int!, $after: String) {
  collection(id: $id) {
    products(first: $first, after: $after) {
      nodes { id }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

export interface CollectionProductIdsData {
  collection: {
    products: {
      nodes: { id: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

/** Web presences per page, and markets read of each (see STOREFRONT_PRESENCES_QUERY's cost). */
export const WEB_PRESENCES_PER_PAGE = 25;
export const WEB_PRESENCE_MARKETS_FIRST = 5;

/**
 * Where the shop sells (docs/markets.md): each web presence (a domain, or a subfolder of the
 * primary domain) with its default and alternate locales, the storefront URL of each
 * (`rootUrls`), and the markets it serves with their currency; the shop's locales with whether
 * each is published. Scopes read_markets and read_locales. About 1 + 2 + 25 × (6 + 2 + 5 × 3)
 * = 600 points requested for a full page; most shops have one page.
 */
export const STOREFRONT_PRESENCES_QUERY = `query StorefrontPresences($first: Int!, $after: String, $marketsFirst: Int!) {
  shop { primaryDomain { host } currencyCode }
  shopLocales { locale name primary published }
  webPresences(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id
      subfolderSuffix
      domain { host }
      defaultLocale { locale }
      alternateLocales { locale }
      rootUrls { locale url }
      markets(first: $marketsFirst) {
        pageInfo { hasNextPage }
        nodes {
          id
          name
          handle
          status
          currencySettings { baseCurrency { currencyCode } }
        }
      }
    }
  }
}`;

export interface StorefrontPresencesData {
  shop: { primaryDomain: { host: string }; currencyCode: string };
  shopLocales: { locale: string; name: string; primary: boolean; published: boolean }[];
  webPresences: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: {
      id: string;
      subfolderSuffix: string | null;
      domain: { host: string } | null;
      defaultLocale: { locale: string };
      alternateLocales: { locale: string }[];
      rootUrls: { locale: string; url: string }[];
      markets: {
        pageInfo: { hasNextPage: boolean };
        nodes: {
          id: string;
          name: string;
          handle: string;
          status: "ACTIVE" | "DRAFT";
          currencySettings: { baseCurrency: { currencyCode: string } } | null;
        }[];
      } | null;
    }[];
  } | null;
}
