/** The fake shop's whole state, shared by the Admin API, the result downloads and the control API. */
import { ThemeStore } from "./themes";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execute, type DocumentNode } from "graphql";
import { BulkOperations, type BulkOperationRecord } from "./bulk-operations";
import type { Slice } from "./connection";
import { isoSeconds } from "./clock";
import { gid, gidType } from "./gid";
import { MetafieldStore } from "./metafields";
import { MetafieldDefinitionStore } from "./metafield-definitions";
import { MetaobjectStore } from "./metaobjects";
import {
  SAMPLE_COLOR_PATTERNS,
  SAMPLE_PAIRS_WELL_WITH,
  SAMPLE_SIZE_CHART_REFERENCES,
} from "../sample-store/metaobjects";
import {
  SAMPLE_PRODUCT_DEFINITIONS,
  SAMPLE_PRODUCT_SPECS,
  SAMPLE_VARIANT_DEFINITIONS,
  SAMPLE_VARIANT_SPECS,
} from "../sample-store/product-specs";
import { PolicyStore, type ShopPolicyType } from "./policies";
import { MarketPricingStore } from "./market-pricing";
import { PresenceStore } from "./presences";
import { TranslationStore, type TranslatableType } from "./translations";
import { optionResource, optionResources } from "./product-options";
import {
  FRENCH_OPTIONS,
  FRENCH_OPTION_VALUES,
  FRENCH_ENTRIES,
  FRENCH_METAFIELD_VALUES,
  FRENCH_POLICIES,
  frenchArticle,
  FRENCH_BLOGS,
  frenchPage,
  frenchProduct,
  germanProduct,
} from "../sample-store/translations";
import { sampleFrancePricing } from "../sample-store/market-pricing";
import {
  fieldResolver,
  nodeById,
  queryRoot,
  typeResolver,
  type ResolverContext,
} from "./resolvers";
import type { ShopInfo } from "./rest-payloads";
import { adminSchema } from "./schema";
import { CatalogueStore, type Json } from "./store";
import { CostBucket } from "./throttle";
import { DEFAULT_INCLUDE_FIELDS, DEFAULT_WEBHOOK_PATHS, WebhookSender } from "./webhooks";

export interface FakeShopifyOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  shopDomain?: string;
  /** shop.primaryDomain.host; also the host of generated products' onlineStoreUrl. */
  primaryDomain?: string;
  currencyCode?: string;
  /** The X-Shopify-Access-Token the Admin API requires. */
  accessToken?: string;
  /**
   * A second token that acts as the merchant (every scope): the changes a merchant makes in the
   * Shopify admin, sent as the same mutations (default `shpat_fake_merchant`).
   */
  merchantAccessToken?: string;
  store?: {
    /** Bulk-format JSONL files to load (e.g. dev/sample-store/shopify-docs-shop.jsonl). */
    files?: string[];
    /** A catalogue from dev/sample-store's generator. */
    generated?: { products: number; pages?: number; articles?: number; seed?: number };
    /** The shop's policies' bodies by type (default: every type, dev/sample-store/shop-policies.ts). */
    policies?: Partial<Record<ShopPolicyType, string>>;
    /**
     * The sample "specs" product metafield definitions, with values on the products of those
     * handles that are loaded (dev/sample-store/product-specs.ts). Default: none.
     */
    productSpecs?: boolean;
    /**
     * Where the shop sells (presences.ts): "sample" (the default) the primary domain in English
     * with German at `/de` and a French market on a domain of its own in EUR; "primary-only" one
     * web presence, the primary domain in English.
     */
    presences?: "sample" | "primary-only";
    /**
     * The sample metaobject definitions and entries (an FAQ, size charts;
     * dev/sample-store/metaobjects.ts); with `productSpecs`, also a `specs.size_chart`
     * metaobject reference on snowboards. Default: none.
     */
    metaobjects?: boolean;
  };
  /** Where webhooks go (the app's base URL); settable later. */
  appUrl?: string;
  /** The app's client secret: signs webhooks. */
  apiSecret?: string;
  /** How long a bulk operation takes at least (default 200 ms). */
  bulkDelayMs?: number;
  /**
   * The first bulk operation's number (default 1). Shopify's operation ids are unique across
   * shops; several fakes behind one app need different ranges.
   */
  firstBulkOperationNumber?: number;
  /** Cost throttling (default 2000 points, 100 restored per second). */
  bucket?: { maximumAvailable: number; restoreRate: number };
  /** Clock for timestamps and the cost bucket (default Date.now); bulk timers use real time. */
  now?: () => number;
  /** Topic → path on appUrl (default: the app's shopify.app.toml subscriptions). */
  webhookPaths?: Record<string, string>;
  /** Topic → include_fields of the app's subscription (default: shopify.app.toml's). */
  includeFields?: Record<string, readonly string[]>;
  /** Every n-th top-level object of a bulk export sends its last child line late (default 5). */
  bulkLateChildEvery?: number;
  /** The app's access scopes (currentAppInstallation.accessScopes). */
  scopes?: string[];
  /** How long the app may take to answer a webhook (default 5000 ms, as Shopify). */
  webhookTimeoutMs?: number;
}

export interface RequestLogEntry {
  at: string;
  operationName: string | null;
  /** Top-level fields of the operation that ran (or would have). */
  rootFields: string[];
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttled: boolean;
  status: number;
  /** Error codes (or messages when there is no code) of the answer. */
  errors: string[];
}

export const DEFAULT_ACCESS_TOKEN = "shpat_fake_token";
export const DEFAULT_MERCHANT_ACCESS_TOKEN = "shpat_fake_merchant";

/** What the merchant's token may do: whatever the fake checks. */
export const MERCHANT_SCOPES: readonly string[] = [
  "read_products",
  "read_online_store_pages",
  "read_inventory",
  "read_themes",
  "write_themes",
  "read_legal_policies",
  "write_legal_policies",
  "read_markets",
  "write_markets",
  "read_locales",
  "write_locales",
  "read_translations",
  "write_translations",
];

export class FakeShopifyCore {
  readonly schema = adminSchema();
  readonly store = new CatalogueStore();
  readonly appId = "7700000001";
  readonly appInstallationId = gid("AppInstallation", 7700000101);
  readonly metafields = new MetafieldStore(this.appId);
  readonly metafieldDefinitions = new MetafieldDefinitionStore();
  readonly metaobjects = new MetaobjectStore();
  readonly themes: ThemeStore;
  readonly policies: PolicyStore;
  readonly shop: ShopInfo;
  readonly accessToken: string;
  readonly merchantAccessToken: string;
  readonly scopes: string[];
  readonly presences: PresenceStore;
  readonly translations: TranslationStore;
  readonly pricing: MarketPricingStore;
  readonly bucket: CostBucket;
  readonly webhooks: WebhookSender;
  readonly bulk: BulkOperations;
  readonly dir = mkdtempSync(join(tmpdir(), "fake-shopify-"));
  appUrl: string | null;
  apiSecret: string | null;
  requests: RequestLogEntry[] = [];
  /** The next n Admin API requests are answered THROTTLED. */
  throttleNext = 0;
  /** Operation name → how many of its next requests get Shopify's internal error. */
  internalErrorsNext = new Map<string, number>();
  baseUrl = "";

  constructor(readonly options: FakeShopifyOptions) {
    const now = this.iso();
    this.shop = {
      id: 60_000_000_001,
      name: "Demo Store",
      email: "owner@demo-store.example.com",
      myshopifyDomain: options.shopDomain ?? "demo-store.myshopify.com",
      primaryDomain: options.primaryDomain ?? "demo-store.example.com",
      currencyCode: options.currencyCode ?? "EUR",
      createdAt: now,
      updatedAt: now,
    };
    this.accessToken = options.accessToken ?? DEFAULT_ACCESS_TOKEN;
    this.merchantAccessToken = options.merchantAccessToken ?? DEFAULT_MERCHANT_ACCESS_TOKEN;
    this.scopes = options.scopes ?? [
      "read_products",
      "read_online_store_pages",
      "read_inventory",
      "read_themes",
      "read_markets",
      "read_locales",
      "read_metaobject_definitions",
      "read_metaobjects",
      "read_content",
      "read_translations",
    ];
    this.pricing = new MarketPricingStore({
      markets: () => this.presences.markets,
      shopCurrency: () => this.shop.currencyCode,
      hasVariant: (id) => this.store.productChild(id) !== undefined,
      product: (id) => {
        const record = this.store.products.get(id);
        if (!record) return undefined;
        const { status, onlineStoreUrl } = record.product;
        return { onlineStore: status === "ACTIVE" && typeof onlineStoreUrl === "string" };
      },
      productIds: () => this.store.productList().map((record) => String(record.product.id)),
    });
    this.presences = new PresenceStore({
      primaryDomainId: this.shop.id,
      primaryHost: () => this.shop.primaryDomain,
      shopCurrency: this.shop.currencyCode,
      sample: (options.store?.presences ?? "sample") === "sample",
      catalogsOf: (marketId) => this.pricing.marketCatalogs(marketId),
    });
    for (const market of this.presences.markets) this.pricing.addCatalog(market.id);
    this.translations = new TranslationStore({
      resource: (id) =>
        this.store.products.get(id)?.product ??
        this.store.pages.get(id) ??
        this.store.articles.get(id) ??
        this.translatableOther(id),
      ofType: (type) => {
        switch (type) {
          case "Product":
            return this.store.productList().map((record) => record.product);
          case "Page":
            return [...this.store.pages.values()];
          case "Article":
            return [...this.store.articles.values()];
          default:
            return this.translatableOfType(type);
        }
      },
      locales: () => this.presences.locales,
      now: () => this.iso(),
    });
    this.themes = new ThemeStore(now);
    this.policies = new PolicyStore(now, options.store?.policies);
    this.appUrl = options.appUrl ?? null;
    this.apiSecret = options.apiSecret ?? null;
    const bucket = options.bucket ?? { maximumAvailable: 2000, restoreRate: 100 };
    this.bucket = new CostBucket(bucket.maximumAvailable, bucket.restoreRate, () => this.now());
    this.webhooks = new WebhookSender({
      shopDomain: () => this.shop.myshopifyDomain,
      appUrl: () => this.appUrl,
      apiSecret: () => this.apiSecret,
      now: () => this.now(),
      paths: { ...DEFAULT_WEBHOOK_PATHS, ...options.webhookPaths },
      includeFields: options.includeFields ?? DEFAULT_INCLUDE_FIELDS,
      timeoutMs: options.webhookTimeoutMs ?? 5000,
    });
    this.bulk = new BulkOperations({
      schema: this.schema,
      dir: this.dir,
      delayMs: options.bulkDelayMs ?? 200,
      lateChildEvery: options.bulkLateChildEvery ?? 5,
      now: () => this.iso(),
      baseUrl: () => this.baseUrl,
      execute: (plan, slice) => this.executeQuery(plan.document, slice),
      notify: (operation) => this.webhooks.send("bulk_operations/finish", finishPayload(operation)),
      firstNumber: options.firstBulkOperationNumber,
    });
  }

  async load(): Promise<void> {
    for (const file of this.options.store?.files ?? []) await this.store.loadFile(file);
    const generated = this.options.store?.generated;
    if (generated) this.store.loadGenerated({ ...generated, domain: this.shop.primaryDomain });
    if (this.options.store?.metaobjects) this.metaobjects.loadSample(this.iso());
    if (this.options.store?.productSpecs) this.addProductSpecs();
    if (this.options.store?.productSpecs && this.options.store.metaobjects) {
      this.addSizeChartReferences();
      this.addColorPatterns();
      this.addProductReferences();
    }
    if ((this.options.store?.presences ?? "sample") === "sample") {
      this.addSampleTranslations();
      this.addSampleMarketPricing();
    }
  }

  /**
   * The France market's catalog (sample-store/market-pricing.ts): fixed euro prices for some
   * variants, and one product its shoppers cannot see.
   */
  addSampleMarketPricing(): void {
    const france = this.presences.markets.find((market) => market.handle === "fr");
    const catalog = france && this.pricing.catalogOf(france.id);
    if (!catalog) return;
    const products = this.store.productList();
    const { fixed, unpublished } = sampleFrancePricing(
      products.map((record) => ({
        id: String(record.product.id),
        handle: String(record.product.handle),
        variants: record.variants.map((v) => ({
          id: String(v.id),
          price: String(v.price),
          compareAtPrice: typeof v.compareAtPrice === "string" ? v.compareAtPrice : null,
        })),
      })),
    );
    for (const [variantId, price] of fixed) catalog.fixedPrices.set(variantId, price);
    for (const productId of unpublished) catalog.unpublished.add(productId);
  }

  /** A policy, metafield or metaobject entry as the translations see it (translations.ts). */
  translatableOther(id: string): Json | undefined {
    switch (gidType(id)) {
      case "ShopPolicy": {
        const policy = this.policies.list().find((record) => record.id === id);
        return policy && { id, body: policy.body };
      }
      case "Metafield": {
        const metafield = this.metafields.byId(id);
        return metafield && { id, type: metafield.type, value: metafield.value };
      }
      case "Metaobject": {
        const entry = this.metaobjects.byId(id);
        const definition = entry && this.metaobjects.definitionOf(entry.type);
        if (!entry || !definition) return undefined;
        return {
          id,
          translatable: definition.translatable === true,
          fields: definition.fields.map((field) => ({
            key: field.key,
            type: field.type,
            value: entry.fields[field.key] ?? null,
          })),
        };
      }
      case "ProductOption":
      case "ProductOptionValue":
        return optionResource(id, (productId) => this.store.products.get(productId)?.product);
      case "Blog":
        return this.blogs().find((blog) => blog.id === id);
      default:
        return undefined;
    }
  }

  /** The store's blogs, as its articles name them (`{id, handle, title}`), each once. */
  blogs(): Json[] {
    const byId = new Map<string, Json>();
    for (const article of this.store.articles.values()) {
      const blog = article.blog as Json | null | undefined;
      if (blog && typeof blog.id === "string" && !byId.has(blog.id)) byId.set(blog.id, blog);
    }
    return [...byId.values()];
  }

  translatableOfType(type: Exclude<TranslatableType, "Product" | "Page" | "Article">): Json[] {
    if (type === "Blog") return this.blogs();
    if (type === "ProductOption" || type === "ProductOptionValue") {
      return optionResources(
        this.store.productList().map((record) => record.product),
        type,
      );
    }
    const ids =
      type === "ShopPolicy"
        ? this.policies.list().map((record) => record.id)
        : type === "Metafield"
          ? this.metafields.list().map((record) => record.id)
          : this.metaobjects.entries.map((record) => record.id);
    return ids.flatMap((id) => {
      const resource = this.translatableOther(id);
      return resource ? [resource] : [];
    });
  }

  /** French for the French storefront, German titles for the `/de` subfolder (sample-store/translations.ts). */
  addSampleTranslations(): void {
    for (const { product } of this.store.productList()) {
      const source = { title: String(product.title), handle: String(product.handle) };
      const french = frenchProduct(source);
      if (french) this.translations.seed(String(product.id), "fr", french);
      const german = germanProduct(source);
      if (german) this.translations.seed(String(product.id), "de", german);
    }
    const products = this.store.productList().map((record) => record.product);
    for (const option of optionResources(products, "ProductOption")) {
      const name = FRENCH_OPTIONS[String(option.name)];
      if (name) this.translations.seed(String(option.id), "fr", { name });
    }
    for (const value of optionResources(products, "ProductOptionValue")) {
      const name = FRENCH_OPTION_VALUES[String(value.name)];
      if (name) this.translations.seed(String(value.id), "fr", { name });
    }
    for (const page of this.store.pages.values()) {
      const french = frenchPage({ title: String(page.title), handle: String(page.handle) });
      if (french) this.translations.seed(String(page.id), "fr", french);
    }
    for (const article of this.store.articles.values()) {
      const french = frenchArticle({
        title: String(article.title),
        handle: String(article.handle),
      });
      if (french) this.translations.seed(String(article.id), "fr", french);
    }
    for (const blog of this.blogs()) {
      const french = FRENCH_BLOGS[String(blog.title)];
      if (french) this.translations.seed(String(blog.id), "fr", french);
    }
    for (const policy of this.policies.list()) {
      const body = FRENCH_POLICIES[policy.type];
      if (body) this.translations.seed(policy.id, "fr", { body });
    }
    for (const entry of this.metaobjects.entries) {
      const french = FRENCH_ENTRIES[entry.handle];
      if (french) this.translations.seed(entry.id, "fr", french);
    }
    for (const metafield of this.metafields.list()) {
      const french = FRENCH_METAFIELD_VALUES[metafield.value];
      if (french) this.translations.seed(metafield.id, "fr", { value: french });
    }
  }

  /** A "Size chart" product metafield referencing a size chart entry, on the snowboards. */
  addSizeChartReferences(): void {
    this.metafieldDefinitions.create({
      name: "Size chart",
      namespace: "specs",
      key: "size_chart",
      type: "metaobject_reference",
      ownerType: "PRODUCT",
      description: null,
      storefrontAccess: "PUBLIC_READ",
      pinnedPosition: null,
    });
    for (const record of this.store.productList()) {
      const chart = SAMPLE_SIZE_CHART_REFERENCES[String(record.product.handle)];
      const entry = chart
        ? this.metaobjects.ofType("size_chart").find((candidate) => candidate.handle === chart)
        : undefined;
      if (!entry) continue;
      const input = {
        ownerId: String(record.product.id),
        namespace: "specs",
        key: "size_chart",
        value: entry.id,
        type: "metaobject_reference",
      };
      const result = this.metafields.set([input], () => true, this.iso());
      if (result.userErrors.length > 0) throw new Error(JSON.stringify(result.userErrors));
    }
  }

  /**
   * A "Pairs well with" product reference (`custom.pairs_well_with`, SAMPLE_PAIRS_WELL_WITH) and
   * a "Featured in" collection reference (`custom.featured_in`: the product's first collection).
   */
  addProductReferences(): void {
    const definitions = [
      { name: "Pairs well with", key: "pairs_well_with", type: "product_reference" },
      { name: "Featured in", key: "featured_in", type: "collection_reference" },
    ];
    for (const { name, key, type } of definitions) {
      this.metafieldDefinitions.create({
        name,
        namespace: "custom",
        key,
        type,
        ownerType: "PRODUCT",
        description: null,
        storefrontAccess: "PUBLIC_READ",
        pinnedPosition: null,
      });
    }
    const byHandle = new Map(
      this.store.productList().map((record) => [String(record.product.handle), record]),
    );
    for (const record of this.store.productList()) {
      const paired = byHandle.get(SAMPLE_PAIRS_WELL_WITH[String(record.product.handle)] ?? "");
      const collection = record.collections[0] as { id?: string } | undefined;
      const inputs = [
        ...(paired
          ? [
              {
                key: "pairs_well_with",
                value: String(paired.product.id),
                type: "product_reference",
              },
            ]
          : []),
        ...(paired && collection?.id
          ? [{ key: "featured_in", value: collection.id, type: "collection_reference" }]
          : []),
      ].map((input) => ({ ...input, ownerId: String(record.product.id), namespace: "custom" }));
      if (inputs.length === 0) continue;
      const result = this.metafields.set(inputs, () => true, this.iso());
      if (result.userErrors.length > 0) throw new Error(JSON.stringify(result.userErrors));
    }
  }

  /** The standard "Color" category metafield, listing standard color entries (SAMPLE_COLOR_PATTERNS). */
  addColorPatterns(): void {
    const definition = this.metaobjects.definitionOf("shopify--color-pattern");
    if (!definition) return;
    this.metafieldDefinitions.create({
      name: "Color",
      namespace: "shopify",
      key: "color-pattern",
      type: "list.metaobject_reference",
      ownerType: "PRODUCT",
      description: "Defines the primary color or pattern, such as blue or striped",
      storefrontAccess: "PUBLIC_READ",
      pinnedPosition: null,
      validations: [{ name: "metaobject_definition_id", value: definition.id }],
    });
    const entries = this.metaobjects.ofType("shopify--color-pattern");
    for (const record of this.store.productList()) {
      const handles = SAMPLE_COLOR_PATTERNS[String(record.product.handle)];
      if (!handles) continue;
      const ids = handles.map((handle) => entries.find((entry) => entry.handle === handle)!.id);
      const input = {
        ownerId: String(record.product.id),
        namespace: "shopify",
        key: "color-pattern",
        value: JSON.stringify(ids),
        type: "list.metaobject_reference",
      };
      const result = this.metafields.set([input], () => true, this.iso());
      if (result.userErrors.length > 0) throw new Error(JSON.stringify(result.userErrors));
    }
  }

  addProductSpecs(): void {
    const owned = [
      ...SAMPLE_PRODUCT_DEFINITIONS.map((definition) => ({ definition, ownerType: "PRODUCT" })),
      ...SAMPLE_VARIANT_DEFINITIONS.map((definition) => ({
        definition,
        ownerType: "PRODUCTVARIANT",
      })),
    ];
    for (const { definition, ownerType } of owned) {
      this.metafieldDefinitions.create({
        ...definition,
        namespace: this.metafields.canonicalNamespace(definition.namespace),
        ownerType,
        description: definition.description ?? null,
        storefrontAccess: definition.storefrontAccess ?? "PUBLIC_READ",
        pinnedPosition: definition.pinnedPosition ?? null,
      });
    }
    this.addVariantSpecs();
    const types = new Map<string, string>(
      SAMPLE_PRODUCT_DEFINITIONS.map((d) => [`${d.namespace}.${d.key}`, d.type]),
    );
    for (const record of this.store.productList()) {
      const values = SAMPLE_PRODUCT_SPECS[String(record.product.handle)];
      if (values) this.setSampleValues(String(record.product.id), values, types);
    }
  }

  /** Sample values (`namespace.key` → stored value) on one owner, typed by their definitions. */
  setSampleValues(
    ownerId: string,
    values: Readonly<Record<string, string>>,
    types: ReadonlyMap<string, string>,
  ): void {
    const inputs = Object.entries(values).map(([full, value]) => {
      const dot = full.lastIndexOf(".");
      return {
        ownerId,
        namespace: full.slice(0, dot),
        key: full.slice(dot + 1),
        value,
        type: types.get(full) ?? null,
      };
    });
    const result = this.metafields.set(inputs, () => true, this.iso());
    if (result.userErrors.length > 0) throw new Error(JSON.stringify(result.userErrors));
  }

  /** SAMPLE_VARIANT_SPECS on the variants of those titles. */
  addVariantSpecs(): void {
    const types = new Map<string, string>(
      SAMPLE_VARIANT_DEFINITIONS.map((d) => [`${d.namespace}.${d.key}`, d.type]),
    );
    for (const record of this.store.productList()) {
      const byTitle = SAMPLE_VARIANT_SPECS[String(record.product.handle)];
      if (!byTitle) continue;
      for (const variant of record.variants) {
        const options = variant.selectedOptions as { value: string }[] | undefined;
        const values = byTitle[(options ?? []).map((option) => option.value).join(" / ")];
        if (values) this.setSampleValues(String(variant.id), values, types);
      }
    }
  }

  now(): number {
    return (this.options.now ?? Date.now)();
  }

  iso(): string {
    return isoSeconds(this.now());
  }

  #lastEvent = 0;

  /**
   * The time of an event (an order) as X-Shopify-Triggered-At gives it: Shopify's header has
   * sub-second precision (nanoseconds), so two orders never share it; here, milliseconds, each
   * event at least one after the last.
   */
  eventTime(): number {
    this.#lastEvent = Math.max(this.now(), this.#lastEvent + 1);
    return this.#lastEvent;
  }

  ownerExists(id: string): boolean {
    try {
      return nodeById(this, id) !== null;
    } catch {
      return false;
    }
  }

  /** Runs a query document over the store (a bulk export passes the slice it reads). */
  async executeQuery(document: DocumentNode, slice?: Slice) {
    const context: ResolverContext = { core: this, ...(slice ? { slice } : {}) };
    return execute({
      schema: this.schema,
      document,
      rootValue: queryRoot(this),
      contextValue: context,
      fieldResolver,
      typeResolver,
    });
  }

  logRequest(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > 10_000) this.requests.splice(0, this.requests.length - 10_000);
  }

  async close(): Promise<void> {
    this.bulk.close();
    await this.webhooks.idle();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The bulk_operations/finish body: the docs' sample shape, values lower-case. */
export function finishPayload(operation: BulkOperationRecord) {
  return {
    admin_graphql_api_id: operation.id,
    completed_at: operation.completedAt,
    created_at: operation.createdAt,
    error_code: operation.errorCode?.toLowerCase() ?? null,
    status: operation.status.toLowerCase(),
    type: operation.type.toLowerCase(),
  };
}
