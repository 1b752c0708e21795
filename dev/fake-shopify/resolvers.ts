/**
 * The data behind the schema: root fields and object views over the store, for graphql-js
 * `execute`. Objects are plain values named by `__typename`; a field whose value is a function is
 * called with its arguments (as graphql-js's default resolver does); a field the fake does not
 * model resolves to null, or to an empty value of its type when it is non-null.
 */
import { optionViews, selectedOptionViews } from "./product-options";
import { themeQueries } from "./themes";
import {
  GraphQLError,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from "graphql";
import type { BulkOperationRecord } from "./bulk-operations";
import { connection, type ConnectionArgs, type Slice } from "./connection";
import type { FakeShopifyCore } from "./core";
import { gid, gidType, numericPart, parseGid } from "./gid";
import { inventoryItemGidOf, inventoryLevelGid, LOCATION_GID, variantGidOfItem } from "./inventory";
import {
  digest,
  ownerType,
  valueProblem,
  type MetafieldRecord,
  type MetafieldsSetInput,
} from "./metafields";
import {
  deletedMetafieldDefinitionPayload,
  isMetafieldType,
  metafieldDefinitionPayload,
  type MetafieldDefinitionRecord,
} from "./metafield-definitions";
import { metaobjectMutations, metaobjectNode, metaobjectQueries } from "./metaobjects";
import { isShopPolicyType, policyView } from "./policies";
import type { Json, ProductRecord } from "./store";

export interface ResolverContext {
  core: FakeShopifyCore;
  /** The scopes of the token that asked (default: the app's, `core.scopes`). */
  scopes?: readonly string[];
  /** Set while a bulk export reads its top-level connection in chunks. */
  slice?: Slice;
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SCALAR_DEFAULTS: Readonly<Record<string, unknown>> = {
  String: "",
  Int: 0,
  Float: 0,
  Boolean: false,
  ID: "gid://shopify/Unknown/0",
  DateTime: "1970-01-01T00:00:00Z",
  Date: "1970-01-01",
  URL: "https://example.invalid/",
  HTML: "",
  Money: "0.0",
  Decimal: "0.0",
  UnsignedInt64: "0",
  JSON: {},
};

/** What a field the fake does not model resolves to. */
function emptyValue(type: GraphQLOutputType, schema: GraphQLSchema): unknown {
  if (!isNonNullType(type)) return null;
  const inner = type.ofType;
  if (isListType(inner)) return [];
  if (isScalarType(inner)) return SCALAR_DEFAULTS[inner.name] ?? "";
  if (isEnumType(inner)) return inner.getValues()[0]?.value ?? null;
  if (isAbstractType(inner)) return { __typename: schema.getPossibleTypes(inner)[0]?.name };
  return {};
}

export const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (
  source,
  args,
  context,
  info,
) => {
  const value = isRecord(source) ? source[info.fieldName] : undefined;
  if (typeof value === "function") return (value as Resolver)(args, context, info);
  return value === undefined ? emptyValue(info.returnType, info.schema) : value;
};

export const typeResolver: GraphQLTypeResolver<unknown, ResolverContext> = (
  value,
  _context,
  info,
  abstractType,
) => {
  const record = isRecord(value) ? value : {};
  const named = typeof record.__typename === "string" ? record.__typename : gidType(record.id);
  const possible = info.schema.getPossibleTypes(abstractType);
  return possible.some((type) => type.name === named) ? (named ?? undefined) : possible[0]?.name;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resolver = (args: any, context: ResolverContext, info: unknown) => unknown;

function invalidGid(id: string): GraphQLError {
  return new GraphQLError(`Invalid global id '${id}'`, {
    extensions: { code: "argumentLiteralsIncompatible", typeName: "CoercionError" },
  });
}

// ——— Views ———

function metafieldResolvers(core: FakeShopifyCore, ownerId: string): Json {
  return {
    metafield: (args: { namespace?: string | null; key: string }) => {
      const record = core.metafields.get(ownerId, args.namespace, args.key);
      return record ? metafieldView(core, record) : null;
    },
    metafields: (args: ConnectionArgs & { namespace?: string | null; keys?: string[] | null }) => {
      const keys = args.keys?.map((key) => key.split("."));
      const records = core.metafields
        .ofOwner(ownerId, args.namespace)
        .filter(
          (record) =>
            !keys ||
            keys.some(
              ([namespace, key]) =>
                core.metafields.canonicalNamespace(namespace) === record.namespace &&
                key === record.key,
            ),
        );
      return connection(records, args, (record) => metafieldView(core, record));
    },
  };
}

export function metafieldView(core: FakeShopifyCore, record: MetafieldRecord): Json {
  let jsonValue: unknown = record.value;
  try {
    jsonValue = JSON.parse(record.value);
  } catch {
    // Text types' jsonValue is the string itself.
  }
  return {
    __typename: "Metafield",
    id: record.id,
    legacyResourceId: numericPart(record.id),
    namespace: core.metafields.publicNamespace(record.namespace),
    key: record.key,
    type: record.type,
    value: record.value,
    jsonValue,
    compareDigest: digest(record.value),
    translations: core.translations.translationsField(record.id),
    ownerType: ownerType(record.ownerId),
    owner: () => nodeById(core, record.ownerId),
    // A reference type's value is the gid of what it names (null when that is gone).
    reference: () =>
      record.type.endsWith("_reference") && !record.type.startsWith("list.")
        ? safeNode(core, record.value)
        : null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function mediaView(media: Json): Json {
  const preview = isRecord(media.preview) ? media.preview : null;
  const image = preview && isRecord(preview.image) ? preview.image : null;
  return {
    __typename: gidType(media.id) ?? "MediaImage",
    status: "READY",
    ...media,
    ...(media.preview
      ? { preview: { __typename: "MediaPreviewImage", status: "READY", ...preview } }
      : {}),
    image: image ? { __typename: "Image", url: image.url, altText: media.alt ?? null } : null,
  };
}

function variantView(core: FakeShopifyCore, variant: Json, record: ProductRecord): Json {
  const options = (variant.selectedOptions as { value: string }[] | undefined) ?? [];
  const title = options.map((option) => option.value).join(" / ") || "Default Title";
  return {
    __typename: "ProductVariant",
    title,
    displayName: `${String(record.product.title)} - ${title}`,
    legacyResourceId: numericPart(String(variant.id)),
    ...variant,
    selectedOptions: selectedOptionViews(
      record.product,
      (variant.selectedOptions as { name: string; value: string }[] | undefined) ?? [],
      (id) => core.translations.translationsField(id),
    ),
    inventoryItem: inventoryItemView(core, variant, record),
    contextualPricing: core.pricing.variantPricing(variant),
    product: () => productView(core, record),
    ...metafieldResolvers(core, String(variant.id)),
  };
}

/** A variant's inventory item, with its one level at the shop's location. */
function inventoryItemView(core: FakeShopifyCore, variant: Json, record: ProductRecord): Json {
  const id = inventoryItemGidOf(String(variant.id));
  const tracked = (variant.inventoryItem as { tracked?: boolean } | null)?.tracked ?? false;
  const available = typeof variant.inventoryQuantity === "number" ? variant.inventoryQuantity : 0;
  const level = () => ({
    __typename: "InventoryLevel",
    id: inventoryLevelGid(id),
    isActive: true,
    location: { __typename: "Location", id: LOCATION_GID, name: "Shop location" },
    quantities: ({ names }: { names: string[] }) =>
      names.map((name) => ({
        __typename: "InventoryQuantity",
        id: `${inventoryLevelGid(id)}&name=${name}`,
        name,
        quantity: name === "available" || name === "on_hand" ? available : 0,
        updatedAt: record.product.updatedAt,
      })),
    updatedAt: record.product.updatedAt,
    item: () => inventoryItemView(core, variant, record),
  });
  return {
    __typename: "InventoryItem",
    id,
    legacyResourceId: numericPart(id),
    tracked,
    sku: variant.sku ?? null,
    requiresShipping: true,
    createdAt: record.product.createdAt,
    updatedAt: record.product.updatedAt,
    variant: () => variantView(core, variant, record),
    variants: (args: ConnectionArgs) =>
      connection([variant], args, (one) => variantView(core, one, record)),
    inventoryLevel: ({ locationId }: { locationId: string }) =>
      locationId === LOCATION_GID ? level() : null,
    inventoryLevels: (args: ConnectionArgs) => connection([0], args, level),
  };
}

/** A collection never changed here is as old as the sample store (a fixed time). */
const COLLECTIONS_LOADED_AT = "2026-01-01T00:00:00Z";

function collectionUpdatedAt(collection: Json): string {
  return typeof collection.updatedAt === "string" ? collection.updatedAt : COLLECTIONS_LOADED_AT;
}

function collectionView(core: FakeShopifyCore, collection: Json): Json {
  const id = String(collection.id);
  return {
    __typename: "Collection",
    legacyResourceId: numericPart(id),
    ...collection,
    updatedAt: collectionUpdatedAt(collection),
    products: (args: ConnectionArgs) =>
      connection(
        core.store
          .productList()
          .filter((record) => record.collections.some((candidate) => candidate.id === id)),
        args,
        (record) => productView(core, record),
      ),
    ...metafieldResolvers(core, id),
  };
}

export function productView(core: FakeShopifyCore, record: ProductRecord): Json {
  const product = record.product;
  const featured = isRecord(product.featuredMedia) ? mediaView(product.featuredMedia) : null;
  return {
    __typename: "Product",
    ...product,
    featuredMedia: featured,
    description: String(product.descriptionHtml ?? "").replace(/<[^>]*>/g, ""),
    hasOnlyDefaultVariant: record.variants.length === 1,
    variantsCount: { __typename: "Count", count: record.variants.length, precision: "EXACT" },
    mediaCount: { __typename: "Count", count: record.media.length, precision: "EXACT" },
    variants: (args: ConnectionArgs) =>
      connection(record.variants, args, (variant) => variantView(core, variant, record)),
    collections: (args: ConnectionArgs) =>
      connection(record.collections, args, (collection) => collectionView(core, collection)),
    media: (args: ConnectionArgs) => connection(record.media, args, mediaView),
    options: optionViews(product, (id) => core.translations.translationsField(id)),
    translations: core.translations.translationsField(String(product.id)),
    publishedInContext: core.pricing.publishedInContext(String(product.id), onOnlineStore(product)),
    ...metafieldResolvers(core, String(product.id)),
  };
}

/** Active and published to the Online Store (it has a storefront URL). */
function onOnlineStore(product: Json): boolean {
  return product.status === "ACTIVE" && typeof product.onlineStoreUrl === "string";
}

function pageView(core: FakeShopifyCore, page: Json): Json {
  return {
    __typename: "Page",
    ...page,
    translations: core.translations.translationsField(String(page.id)),
    ...metafieldResolvers(core, String(page.id)),
  };
}

function articleView(core: FakeShopifyCore, article: Json): Json {
  const blog = isRecord(article.blog) ? article.blog : null;
  const image = isRecord(article.image) ? article.image : null;
  return {
    __typename: "Article",
    ...article,
    author: isRecord(article.author) ? { __typename: "ArticleAuthor", ...article.author } : null,
    image: image ? { __typename: "Image", ...image } : null,
    blog: blog
      ? {
          __typename: "Blog",
          ...blog,
          translations: core.translations.translationsField(String(blog.id)),
        }
      : null,
    translations: core.translations.translationsField(String(article.id)),
    ...metafieldResolvers(core, String(article.id)),
  };
}

export function bulkOperationView(operation: BulkOperationRecord): Json {
  return {
    __typename: "BulkOperation",
    id: operation.id,
    type: operation.type,
    query: operation.query,
    status: operation.status,
    errorCode: operation.errorCode,
    createdAt: operation.createdAt,
    completedAt: operation.completedAt,
    objectCount: String(operation.objectCount),
    rootObjectCount: String(operation.rootObjectCount),
    fileSize: operation.fileSize === null ? null : String(operation.fileSize),
    url: operation.url,
    partialDataUrl: operation.partialDataUrl,
  };
}

function domainView(core: FakeShopifyCore): Json {
  return core.presences.domainView(core.shop.id) ?? {};
}

/** The scopes of the request's token. */
function scopesOf(context: unknown): readonly string[] {
  const given = context as ResolverContext;
  return given.scopes ?? given.core.scopes;
}

function shopView(core: FakeShopifyCore): Json {
  const shop = core.shop;
  const id = gid("Shop", shop.id);
  return {
    __typename: "Shop",
    id,
    name: shop.name,
    email: shop.email,
    contactEmail: shop.email,
    myshopifyDomain: shop.myshopifyDomain,
    primaryDomain: domainView(core),
    url: `https://${shop.primaryDomain}`,
    currencyCode: shop.currencyCode,
    createdAt: shop.createdAt,
    updatedAt: shop.updatedAt,
    ianaTimezone: "UTC",
    timezoneAbbreviation: "UTC",
    enabledPresentmentCurrencies: [shop.currencyCode],
    shopPolicies: () =>
      core.policies.list().map((record) => ({
        ...policyView(record, core.shop.primaryDomain),
        translations: core.translations.translationsField(record.id),
      })),
    plan: {
      __typename: "ShopPlan",
      displayName: "Development",
      publicDisplayName: "Development",
      partnerDevelopment: true,
      shopifyPlus: false,
    },
    ...metafieldResolvers(core, id),
  };
}

function appInstallationView(core: FakeShopifyCore): Json {
  return {
    __typename: "AppInstallation",
    id: core.appInstallationId,
    accessScopes: core.scopes.map((handle) => ({
      __typename: "AccessScope",
      handle,
      description: "",
    })),
    app: {
      __typename: "App",
      id: gid("App", core.appId),
      title: "Catalog Chat",
      handle: "catalog-chat",
      apiKey: "fake-api-key",
    },
    launchUrl: `https://admin.shopify.com/store/${core.shop.myshopifyDomain.split(".")[0]}/apps/catalog-chat`,
    uninstallUrl: null,
    ...metafieldResolvers(core, core.appInstallationId),
  };
}

/** Any object the fake knows, by gid; null when there is none (deleted, never existed). */
export function nodeById(core: FakeShopifyCore, id: string): Json | null {
  const parsed = parseGid(id);
  if (!parsed) throw invalidGid(id);
  const { store } = core;
  switch (parsed.type) {
    case "Product": {
      const record = store.products.get(id);
      return record ? productView(core, record) : null;
    }
    case "ProductVariant":
    case "Collection":
    case "MediaImage":
    case "Video":
    case "ExternalVideo":
    case "Model3d": {
      const found = store.productChild(id);
      if (!found) return null;
      if (parsed.type === "ProductVariant") return variantView(core, found.node, found.record);
      if (parsed.type === "Collection") return collectionView(core, found.node);
      return mediaView(found.node);
    }
    case "InventoryItem": {
      const variantGid = variantGidOfItem(id);
      const found = variantGid ? store.productChild(variantGid) : undefined;
      return found ? inventoryItemView(core, found.node, found.record) : null;
    }
    case "Page": {
      const page = store.pages.get(id);
      return page ? pageView(core, page) : null;
    }
    case "Article": {
      const article = store.articles.get(id);
      return article ? articleView(core, article) : null;
    }
    case "BulkOperation": {
      const operation = core.bulk.get(id);
      return operation ? bulkOperationView(operation) : null;
    }
    case "AppInstallation":
      return id === core.appInstallationId ? appInstallationView(core) : null;
    case "Shop":
      return id === gid("Shop", core.shop.id) ? shopView(core) : null;
    case "Domain":
    case "Market":
    case "MarketWebPresence":
      return core.presences.node(id);
    case "MarketCatalog":
    case "PriceList":
    case "Publication":
      return core.pricing.node(id);
    case "Metafield": {
      const record = core.metafields.byId(id);
      return record ? metafieldView(core, record) : null;
    }
    case "Metaobject":
    case "MetaobjectDefinition":
      return metaobjectNode(core.metaobjects, id);
    case "MetafieldDefinition": {
      const record = core.metafieldDefinitions.byId(id);
      return record ? metafieldDefinitionView(core, record) : null;
    }
    default:
      return null;
  }
}

function safeNode(core: FakeShopifyCore, id: string): Json | null {
  try {
    return nodeById(core, id);
  } catch {
    return null;
  }
}

/** All collections products belong to, once each. */
function collectionList(core: FakeShopifyCore): Json[] {
  const byId = new Map<string, Json>();
  for (const record of core.store.productList()) {
    for (const collection of record.collections) byId.set(String(collection.id), collection);
  }
  return [...byId.values()];
}

const UPDATED_AT = /(?:^|\s)updated_at:(>=|>|<=|<)\s*['"]?([^'"\s]+)['"]?/i;

/**
 * The products (or collections) a `query:` search keeps: `updated_at:>'…'` (and >=, <, <=) is applied, as the
 * app's incremental reconciliation needs; every other term is ignored (all products match).
 */
function updatedMatching<T>(
  list: T[],
  query: string | null | undefined,
  updatedAtOf: (item: T) => unknown,
): T[] {
  const match = query ? UPDATED_AT.exec(query) : null;
  if (!match?.[1] || !match[2]) return list;
  const bound = Date.parse(match[2]);
  if (Number.isNaN(bound)) return list;
  const operator = match[1];
  return list.filter((item) => {
    const updated = Date.parse(String(updatedAtOf(item)));
    if (operator === ">") return updated > bound;
    if (operator === ">=") return updated >= bound;
    if (operator === "<") return updated < bound;
    return updated <= bound;
  });
}

/** The fields of `MetafieldDefinitionUpdateInput` the fake follows. */
interface MetafieldDefinitionUpdateInput {
  namespace?: string | null;
  key: string;
  ownerType: string;
  name?: string | null;
  description?: string | null;
  access?: { storefront?: string | null } | null;
  pin?: boolean | null;
}

/** The fields of `MetafieldDefinitionInput` (create) the fake follows: the update's, and more. */
interface MetafieldDefinitionCreateInput extends Omit<MetafieldDefinitionUpdateInput, "name"> {
  name: string;
  type: string;
  validations?: { name: string; value: string }[] | null;
}

/** An owner type as Shopify's messages name it ("Product metafields"). */
const OWNER_NAMES: Readonly<Record<string, string>> = {
  PRODUCT: "Product",
  PRODUCTVARIANT: "Variant",
  COLLECTION: "Collection",
};

/** A definition as Shopify shows it; `metafieldsCount` counts the values stored for it. */
function metafieldDefinitionView(core: FakeShopifyCore, record: MetafieldDefinitionRecord): Json {
  const values = core.metafields
    .list()
    .filter(
      (metafield) =>
        metafield.namespace === record.namespace &&
        metafield.key === record.key &&
        ownerType(metafield.ownerId) === record.ownerType,
    );
  return {
    __typename: "MetafieldDefinition",
    id: record.id,
    name: record.name,
    namespace: core.metafields.publicNamespace(record.namespace),
    key: record.key,
    description: record.description,
    ownerType: record.ownerType,
    type: { __typename: "MetafieldDefinitionType", name: record.type, category: record.type },
    metafieldsCount: values.length,
    metafields: (args: ConnectionArgs) =>
      connection(values, args, (metafield) => metafieldView(core, metafield)),
    access: {
      __typename: "MetafieldAccess",
      admin: "PUBLIC_READ_WRITE",
      storefront: record.storefrontAccess,
      customerAccount: "NONE",
    },
    pinnedPosition: record.pinnedPosition,
    validationStatus: values.some((metafield) => valueProblem(record.type, metafield.value))
      ? "SOME_INVALID"
      : "ALL_VALID",
    validations: (record.validations ?? []).map((validation) => ({
      __typename: "MetafieldDefinitionValidation",
      type: "single_line_text_field",
      ...validation,
    })),
    useAsCollectionCondition: false,
  };
}

export function queryRoot(core: FakeShopifyCore): Json {
  const { store } = core;
  core.pricing.viewOf = (id) => nodeById(core, id);
  return {
    metafieldDefinitions: (
      args: ConnectionArgs & { ownerType: string; namespace?: string | null; key?: string | null },
    ) =>
      connection(
        core.metafieldDefinitions
          .ofOwnerType(args.ownerType)
          .filter(
            (record) =>
              (!args.namespace ||
                core.metafields.canonicalNamespace(args.namespace) === record.namespace) &&
              (!args.key || args.key === record.key),
          ),
        args,
        (record) => metafieldDefinitionView(core, record),
      ),
    shop: () => shopView(core),
    node: ({ id }: { id: string }) => nodeById(core, id),
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => nodeById(core, id)),
    products: (args: ConnectionArgs & { query?: string | null }, context: ResolverContext) =>
      connection(
        updatedMatching(store.productList(), args.query, (record) => record.product.updatedAt),
        args,
        (record) => productView(core, record),
        context.slice,
      ),
    product: ({ id }: { id: string }) => {
      const record = store.products.get(id);
      return record ? productView(core, record) : null;
    },
    inventoryItem: ({ id }: { id: string }) =>
      gidType(id) === "InventoryItem" ? nodeById(core, id) : null,
    inventoryItems: (args: ConnectionArgs, context: ResolverContext) =>
      connection(
        store
          .productList()
          .flatMap((record) => record.variants.map((variant) => ({ record, variant }))),
        args,
        ({ record, variant }) => inventoryItemView(core, variant, record),
        context.slice,
      ),
    productVariant: ({ id }: { id: string }) =>
      gidType(id) === "ProductVariant" ? nodeById(core, id) : null,
    collections: (args: ConnectionArgs & { query?: string | null }, context: ResolverContext) =>
      connection(
        updatedMatching(collectionList(core), args.query, collectionUpdatedAt),
        args,
        (collection) => collectionView(core, collection),
        context.slice,
      ),
    collection: ({ id }: { id: string }) =>
      gidType(id) === "Collection" ? nodeById(core, id) : null,
    pages: (args: ConnectionArgs, context: ResolverContext) =>
      connection([...store.pages.values()], args, (page) => pageView(core, page), context.slice),
    page: ({ id }: { id: string }) => (gidType(id) === "Page" ? nodeById(core, id) : null),
    articles: (args: ConnectionArgs, context: ResolverContext) =>
      connection(
        [...store.articles.values()],
        args,
        (article) => articleView(core, article),
        context.slice,
      ),
    article: ({ id }: { id: string }) => (gidType(id) === "Article" ? nodeById(core, id) : null),
    currentBulkOperation: ({ type }: { type?: string }) => {
      const operation = core.bulk.current(type ?? "QUERY");
      return operation ? bulkOperationView(operation) : null;
    },
    bulkOperation: ({ id }: { id: string }) => {
      const operation = core.bulk.get(id);
      return operation ? bulkOperationView(operation) : null;
    },
    currentAppInstallation: () => appInstallationView(core),
    ...core.presences.queries(scopesOf),
    ...core.translations.queries(scopesOf),
    ...core.pricing.queries(),
    ...metaobjectQueries(core.metaobjects, () => core.scopes),
    ...themeQueries(
      core.themes,
      () => core.scopes,
      () => core.baseUrl,
    ),
    appInstallation: ({ id }: { id?: string | null }) =>
      id === undefined || id === null || id === core.appInstallationId
        ? appInstallationView(core)
        : null,
  };
}

function userErrorView(error: { field: string[] | null; message: string; code: string }): Json {
  return { __typename: "BulkOperationUserError", ...error };
}

export function mutationRoot(core: FakeShopifyCore): Json {
  core.pricing.viewOf = (id) => nodeById(core, id);
  return {
    ...core.presences.mutations(scopesOf, ({ topic, payload }) => {
      void core.webhooks.send(topic, payload);
    }),
    ...core.translations.mutations(scopesOf),
    ...core.pricing.mutations(),
    ...metaobjectMutations(
      core.metaobjects,
      () => core.scopes,
      () => core.iso(),
    ),
    bulkOperationRunQuery: ({ query, groupObjects }: { query: string; groupObjects: boolean }) => {
      const { operation, userErrors } = core.bulk.run(query, groupObjects);
      return {
        bulkOperation: operation ? bulkOperationView(operation) : null,
        userErrors: userErrors.map(userErrorView),
      };
    },
    bulkOperationCancel: ({ id }: { id: string }) => {
      const { operation, userErrors } = core.bulk.cancel(id);
      return {
        bulkOperation: operation ? bulkOperationView(operation) : null,
        userErrors: userErrors.map(userErrorView),
      };
    },
    shopPolicyUpdate: ({ shopPolicy }: { shopPolicy: { type: string; body: string } }) => {
      if (!core.scopes.includes("write_legal_policies")) {
        throw new GraphQLError(
          "Access denied for shopPolicyUpdate field. Required access: `write_legal_policies` access scope.",
          {
            extensions: {
              code: "ACCESS_DENIED",
              requiredAccess: "`write_legal_policies` access scope.",
            },
          },
        );
      }
      // The schema's enum has already refused any other type.
      if (!isShopPolicyType(shopPolicy.type)) return null;
      const { policy, userErrors } = core.policies.update(
        shopPolicy.type,
        shopPolicy.body,
        core.iso(),
      );
      return {
        shopPolicy: policy
          ? {
              ...policyView(policy, core.shop.primaryDomain),
              translations: core.translations.translationsField(policy.id),
            }
          : null,
        userErrors: userErrors.map((error) => ({ __typename: "ShopPolicyUserError", ...error })),
      };
    },
    metafieldDefinitionDelete: ({
      id,
      deleteAllAssociatedMetafields,
    }: {
      id?: string | null;
      deleteAllAssociatedMetafields?: boolean | null;
    }) => {
      const record = id ? core.metafieldDefinitions.delete(id) : undefined;
      if (!record) {
        return {
          deletedDefinitionId: null,
          deletedDefinition: null,
          userErrors: [
            {
              __typename: "MetafieldDefinitionDeleteUserError",
              field: ["id"],
              message: "Definition not found.",
              code: "NOT_FOUND",
            },
          ],
        };
      }
      if (deleteAllAssociatedMetafields) {
        core.metafields.deleteWhere(
          (metafield) =>
            metafield.namespace === record.namespace &&
            metafield.key === record.key &&
            ownerType(metafield.ownerId) === record.ownerType,
        );
      }
      // Shopify sends metafield_definitions/* only to an app granted read_content.
      if (core.scopes.includes("read_content")) {
        void core.webhooks.send(
          "metafield_definitions/delete",
          deletedMetafieldDefinitionPayload(record),
        );
      }
      return {
        deletedDefinitionId: record.id,
        deletedDefinition: {
          __typename: "MetafieldDefinitionIdentifier",
          ownerType: record.ownerType,
          namespace: core.metafields.publicNamespace(record.namespace),
          key: record.key,
        },
        userErrors: [],
      };
    },
    metafieldDefinitionCreate: ({ definition }: { definition: MetafieldDefinitionCreateInput }) => {
      const refused = (field: string, message: string, code: string) => ({
        createdDefinition: null,
        userErrors: [
          {
            __typename: "MetafieldDefinitionCreateUserError",
            field: ["definition", field],
            message,
            code,
            elementKey: null,
            elementIndex: null,
          },
        ],
      });
      const namespace = core.metafields.canonicalNamespace(definition.namespace);
      if (!definition.name.trim()) return refused("name", "Name can't be blank.", "BLANK");
      if (definition.key.length < 2)
        return refused("key", "Key is too short (minimum is 2 characters).", "TOO_SHORT");
      if (definition.key.length > 64)
        return refused("key", "Key is too long (maximum is 64 characters).", "TOO_LONG");
      if (!/^[A-Za-z0-9_-]+$/.test(definition.key))
        return refused("key", "Key contains one or more invalid characters.", "INVALID_CHARACTER");
      if (definition.namespace && !/^[A-Za-z0-9_-]{3,255}$/.test(definition.namespace))
        return refused(
          "namespace",
          "Namespace must be 3-255 characters of letters, numbers, hyphens and underscores.",
          "INVALID_CHARACTER",
        );
      if (!isMetafieldType(definition.type))
        return refused("type", "Type name is not included in the list.", "INCLUSION");
      if (core.metafieldDefinitions.find(namespace, definition.key, definition.ownerType)) {
        return refused(
          "key",
          `Key is in use for ${OWNER_NAMES[definition.ownerType] ?? definition.ownerType} metafields on the '${core.metafields.publicNamespace(namespace)}' namespace.`,
          "TAKEN",
        );
      }
      const record = core.metafieldDefinitions.create({
        name: definition.name.trim(),
        namespace,
        key: definition.key,
        type: definition.type,
        ownerType: definition.ownerType,
        description: definition.description ?? null,
        // Shopify's default when the input leaves it out: not readable by the storefront.
        storefrontAccess: definition.access?.storefront === "PUBLIC_READ" ? "PUBLIC_READ" : "NONE",
        pinnedPosition: definition.pin
          ? core.metafieldDefinitions.nextPinnedPosition(definition.ownerType)
          : null,
        validations: definition.validations ?? [],
      });
      // Shopify sends metafield_definitions/* only to an app granted read_content.
      if (core.scopes.includes("read_content")) {
        void core.webhooks.send(
          "metafield_definitions/create",
          metafieldDefinitionPayload(record, core.shop.id),
        );
      }
      return { createdDefinition: metafieldDefinitionView(core, record), userErrors: [] };
    },
    metafieldDefinitionUpdate: ({ definition }: { definition: MetafieldDefinitionUpdateInput }) => {
      const record = core.metafieldDefinitions.find(
        core.metafields.canonicalNamespace(definition.namespace ?? ""),
        definition.key,
        definition.ownerType,
      );
      if (!record) {
        return {
          updatedDefinition: null,
          validationJob: null,
          userErrors: [
            {
              __typename: "MetafieldDefinitionUpdateUserError",
              field: ["definition"],
              message: "Definition not found.",
              code: "NOT_FOUND",
            },
          ],
        };
      }
      if (definition.name != null) record.name = definition.name;
      if (definition.description !== undefined) record.description = definition.description;
      const storefront = definition.access?.storefront;
      if (storefront === "NONE" || storefront === "PUBLIC_READ")
        record.storefrontAccess = storefront;
      if (definition.pin === true && record.pinnedPosition === null) {
        record.pinnedPosition = core.metafieldDefinitions.nextPinnedPosition(record.ownerType);
      }
      if (definition.pin === false) record.pinnedPosition = null;
      if (core.scopes.includes("read_content")) {
        void core.webhooks.send(
          "metafield_definitions/update",
          metafieldDefinitionPayload(record, core.shop.id),
        );
      }
      return {
        updatedDefinition: metafieldDefinitionView(core, record),
        validationJob: null,
        userErrors: [],
      };
    },
    metafieldsSet: ({ metafields }: { metafields: MetafieldsSetInput[] }) => {
      const result = core.metafields.set(
        metafields,
        (id) => core.ownerExists(id),
        core.iso(),
        (ownerId, namespace, key) =>
          core.metafieldDefinitions.find(namespace, key, ownerType(ownerId))?.type,
      );
      return {
        metafields: result.metafields?.map((record) => metafieldView(core, record)) ?? null,
        userErrors: result.userErrors.map((error) => ({
          __typename: "MetafieldsSetUserError",
          ...error,
        })),
      };
    },
  };
}
