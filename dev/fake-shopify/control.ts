/**
 * Inspection and control of the fake shop: what `startFakeShopify()` returns as `state`, and what
 * the `/__fake/` HTTP routes expose. Shopify has nothing like it; tests use it to change the store,
 * send webhooks and inject faults.
 */
import type { BulkErrorCode, BulkOperationRecord } from "./bulk-operations";
import { finishPayload, type FakeShopifyCore, type RequestLogEntry } from "./core";
import { toGid } from "./gid";
import { inventoryItemGidOf } from "./inventory";
import type { MetafieldRecord } from "./metafields";
import { metaobjectView } from "./metaobjects";
import { policyView, type ShopPolicyType } from "./policies";
import { domainPayload } from "./presences";
import { productDeletePayload, productPayload, shopPayload, type ShopInfo } from "./rest-payloads";
import type { Json, NewProduct, ProductChanges, ProductSnapshot } from "./store";
import {
  deleteCollection,
  removeFromCollection,
  purchase,
  updateCollection,
  type CollectionChange,
  type EventOptions,
  type StockChange,
} from "./shop-events";
import type { ThemeFileBodies } from "./themes";
import type { ThrottleStatus } from "./throttle";
import type { SendWebhookOptions, WebhookDelivery } from "./webhooks";

export interface ChangeOptions {
  /** Also send the matching products/* webhook (not awaited: see `settled()`). */
  webhook?: boolean;
}

const PRODUCT_TOPICS = new Set(["products/create", "products/update", "products/delete"]);

export class FakeShopifyControl {
  #lastChanged: string | null = null;

  constructor(private readonly core: FakeShopifyCore) {}

  // ——— Shop and app ———

  shop(): ShopInfo & { appInstallationId: string; appUrl: string | null } {
    return {
      ...this.core.shop,
      appInstallationId: this.core.appInstallationId,
      appUrl: this.core.appUrl,
    };
  }

  get appInstallationId(): string {
    return this.core.appInstallationId;
  }

  /** Where webhooks go and the secret that signs them. */
  setApp(app: { appUrl?: string | null; apiSecret?: string | null }): void {
    if (app.appUrl !== undefined) this.core.appUrl = app.appUrl;
    if (app.apiSecret !== undefined) this.core.apiSecret = app.apiSecret;
  }

  /**
   * Changes the shop's primary domain (storefront URLs follow) and, unless `webhook: false`,
   * sends shop/update.
   */
  async setPrimaryDomain(
    host: string,
    options: { webhook?: boolean } = {},
  ): Promise<WebhookDelivery | null> {
    const shop = this.core.shop;
    this.core.store.replaceDomain(shop.primaryDomain, host);
    shop.primaryDomain = host;
    shop.updatedAt = this.core.iso();
    if (options.webhook === false) return null;
    return this.core.webhooks.send("shop/update", shopPayload(shop));
  }

  // ——— Markets, languages, domains (presences.ts; changes go through the mutations) ———

  /**
   * Where the shop sells: each web presence with its URLs per locale and its markets, and the
   * shop's locales. The merchant's changes are the Admin API's own mutations, sent with
   * `merchantAccessToken` (see docs/fake-shopify.md).
   */
  presences() {
    const store = this.core.presences;
    return {
      locales: store.locales.map((record) => ({ ...record })),
      webPresences: store.presences.map((presence) => ({
        id: `gid://shopify/MarketWebPresence/${presence.id}`,
        host: store.domainHost(presence.domainId ?? this.core.shop.id) ?? null,
        subfolderSuffix: presence.subfolderSuffix,
        defaultLocale: presence.defaultLocale,
        alternateLocales: [...presence.alternateLocales],
        rootUrls: store.rootUrls(presence),
        markets: store.markets
          .filter((market) => presence.marketIds.includes(market.id))
          .map((market) => ({ ...market, id: `gid://shopify/Market/${market.id}` })),
      })),
      domains: [
        { id: `gid://shopify/Domain/${this.core.shop.id}`, host: this.core.shop.primaryDomain },
        ...store.domains.map((domain) => ({
          id: `gid://shopify/Domain/${domain.id}`,
          host: domain.host,
        })),
      ],
    };
  }

  /**
   * Each market's catalog (market-pricing.ts): its price list's and publication's gids, the
   * fixed prices and the products taken out of it. Changes go through the mutations
   * (`priceListFixedPricesAdd|Delete`, `publishablePublish|Unpublish`).
   */
  marketCatalogs() {
    return this.core.pricing.catalogs.map((catalog) => ({
      marketId: `gid://shopify/Market/${catalog.marketId}`,
      priceListId: `gid://shopify/PriceList/${catalog.priceListId}`,
      publicationId: `gid://shopify/Publication/${catalog.publicationId}`,
      fixedPrices: Object.fromEntries(catalog.fixedPrices),
      unpublished: [...catalog.unpublished],
    }));
  }

  get merchantAccessToken(): string {
    return this.core.merchantAccessToken;
  }

  /**
   * The merchant connects a domain (Settings → Domains) and Shopify sends domains/create; a web
   * presence can then use it (webPresenceCreate with its domainId).
   */
  addDomain(
    host: string,
    options: { webhook?: boolean } = {},
  ): { id: string; delivery: Promise<WebhookDelivery | null> } {
    const domain = this.core.presences.addDomain(host);
    const delivery =
      options.webhook === false
        ? Promise.resolve(null)
        : this.core.webhooks.send("domains/create", domainPayload(domain));
    return { id: `gid://shopify/Domain/${domain.id}`, delivery };
  }

  // ——— Policies ———

  /** The shop's policies as the Admin API lists them (title, URL, body). */
  policies(): Json[] {
    return this.core.policies
      .list()
      .map((record) => policyView(record, this.core.shop.primaryDomain));
  }

  /**
   * A merchant edits a policy in Settings → Policies (an empty body removes it). Shopify sends no
   * webhook for it: the app must notice by reading the policies again.
   */
  updatePolicy(type: ShopPolicyType, body: string): Json | null {
    const { policy, userErrors } = this.core.policies.update(type, body, this.core.iso());
    if (userErrors.length > 0) throw new Error(userErrors.map((error) => error.message).join("; "));
    return policy ? policyView(policy, this.core.shop.primaryDomain) : null;
  }

  removePolicy(type: ShopPolicyType): void {
    this.core.policies.update(type, "", this.core.iso());
  }

  // ——— Metaobjects ———

  /** The metaobject entries (of one definition's type, or all) as the Admin API shows them. */
  metaobjects(type?: string): Json[] {
    const { metaobjects } = this.core;
    return (type ? metaobjects.ofType(type) : metaobjects.entries).map((entry) =>
      metaobjectView(metaobjects, entry),
    );
  }

  /**
   * A merchant edits an entry in Content → Metaobjects (`fields`: key → value; "" clears one;
   * `status` publishes or unpublishes it). No webhook: Shopify sends `metaobjects/update` only to
   * subscriptions filtered by type, which the app does not make.
   */
  updateMetaobject(
    id: string,
    changes: { fields?: Record<string, string>; status?: "ACTIVE" | "DRAFT" },
  ): Json {
    const { entry, userErrors } = this.core.metaobjects.update(id, changes, this.core.iso());
    if (!entry) throw new Error(userErrors.map((error) => error.message).join("; "));
    return metaobjectView(this.core.metaobjects, entry);
  }

  /** A merchant adds an entry in Content → Metaobjects (`fields`: key → value). */
  createMetaobject(input: {
    type: string;
    handle?: string;
    fields: Record<string, string>;
    status?: "ACTIVE" | "DRAFT";
  }): Json {
    const { entry, userErrors } = this.core.metaobjects.create(input, this.core.iso());
    if (!entry) throw new Error(userErrors.map((error) => error.message).join("; "));
    return metaobjectView(this.core.metaobjects, entry);
  }

  deleteMetaobject(id: string): void {
    if (!this.core.metaobjects.delete(id)) throw new Error(`No metaobject ${id}`);
  }

  // ——— Theme ———

  /** The theme editor's App embeds toggle for the chat, on the published theme. */
  setChatEmbed(enabled: boolean): void {
    this.core.themes.setChatEmbed(enabled, this.core.iso());
  }

  chatEmbedEnabled(): boolean {
    return this.core.themes.chatEmbedEnabled();
  }

  /** How theme files' bodies come: as text, as a short-lived URL, or left out of `files`. */
  setThemeFileBodies(bodies: ThemeFileBodies): void {
    this.core.themes.fileBodies = bodies;
  }

  // ——— Catalogue ———

  products(): ProductSnapshot[] {
    return this.core.store.productList().map((record) => this.core.store.snapshot(record));
  }

  product(idOrGid: string | number): ProductSnapshot | undefined {
    const record = this.core.store.product(idOrGid);
    return record ? this.core.store.snapshot(record) : undefined;
  }

  /**
   * A product's, page's, article's, policy's, metaobject entry's or metafield's translations, each
   * with whether its source changed since (translations.ts); a merchant changes them with
   * translationsRegister / translationsRemove, or `translate` here.
   */
  translations(
    resourceId: string,
    locale?: string,
  ): { key: string; locale: string; value: string; outdated: boolean }[] {
    const store = this.core.translations;
    return store.of(resourceId, locale).map((record) => ({
      key: record.key,
      locale: record.locale,
      value: record.value,
      outdated: store.outdated(resourceId, record),
    }));
  }

  /**
   * A merchant (or a translation app) translates a resource's fields (key → text) into `locale`,
   * against its source as it is now: translationsRegister with the current digests. No webhook.
   */
  translate(resourceId: string, locale: string, values: Record<string, string>): void {
    const errors = this.core.translations.seed(resourceId, locale, values);
    if (errors.length > 0) throw new Error(errors.map((error) => String(error.message)).join("; "));
  }

  pages(): Json[] {
    return structuredClone([...this.core.store.pages.values()]);
  }

  articles(): Json[] {
    return structuredClone([...this.core.store.articles.values()]);
  }

  /**
   * Edits an online store page as a merchant would in the Shopify admin (bumping updatedAt). Shopify
   * sends the app no webhook for pages: only a full export sees the change.
   */
  updatePage(idOrGid: string | number, changes: { title?: string; body?: string }): Json {
    const page = this.core.store.pages.get(toGid("Page", idOrGid));
    if (!page) throw new Error(`No page ${idOrGid}`);
    Object.assign(page, changes, { updatedAt: this.core.iso() });
    return structuredClone(page);
  }

  createProduct(input: NewProduct, options: ChangeOptions = {}): ProductSnapshot {
    const record = this.core.store.createProduct(input, this.#changeContext());
    this.#lastChanged = String(record.product.id);
    if (options.webhook) void this.sendWebhook("products/create", record.product.id);
    return this.core.store.snapshot(record);
  }

  /** Changes a product (bumping updatedAt); throws for an unknown product or variant. */
  updateProduct(
    idOrGid: string | number,
    changes: ProductChanges,
    options: ChangeOptions = {},
  ): ProductSnapshot {
    const record = this.core.store.updateProduct(idOrGid, changes, this.#changeContext());
    this.#lastChanged = String(record.product.id);
    if (options.webhook) void this.sendWebhook("products/update", record.product.id);
    return this.core.store.snapshot(record);
  }

  deleteProduct(idOrGid: string | number, options: ChangeOptions = {}): boolean {
    const deleted = this.core.store.deleteProduct(idOrGid);
    if (deleted && options.webhook) {
      void this.sendWebhook("products/delete", productDeletePayload(toGid("Product", idOrGid)));
    }
    return deleted;
  }

  // ——— Stock, publication, collections (see shop-events.ts) ———

  /**
   * A shopper buys `quantity` of a variant (a product id: its first variant); only
   * inventory_levels/update is sent (`webhook: false`: it is lost; `payload` can be sent later).
   */
  purchase(idOrGid: string | number, quantity = 1, options: EventOptions = {}): StockChange {
    return purchase(this.core, idOrGid, quantity, options);
  }

  /** The inventory item gid of a variant. */
  inventoryItemOf(variantIdOrGid: string | number): string {
    return inventoryItemGidOf(toGid("ProductVariant", variantIdOrGid));
  }

  /**
   * Takes a product off (or puts it back on) the Online Store and sends products/update, whose
   * `published_at` says so (unless `webhook: false`).
   */
  setPublished(
    idOrGid: string | number,
    published: boolean,
    options: EventOptions = {},
  ): ProductSnapshot {
    return this.updateProduct(idOrGid, { published }, { webhook: options.webhook !== false });
  }

  updateCollection(
    idOrGid: string | number,
    changes: { title?: string; handle?: string },
    options: EventOptions = {},
  ): CollectionChange {
    return updateCollection(this.core, idOrGid, changes, options);
  }

  deleteCollection(idOrGid: string | number, options: EventOptions = {}): CollectionChange {
    return deleteCollection(this.core, idOrGid, options);
  }

  /** Takes a product out of a collection on the collection's page: only collections/update. */
  removeFromCollection(
    collectionIdOrGid: string | number,
    productIdOrGid: string | number,
    options: EventOptions = {},
  ): CollectionChange {
    return removeFromCollection(this.core, collectionIdOrGid, productIdOrGid, options);
  }

  #changeContext() {
    return { domain: this.core.shop.primaryDomain, now: this.core.iso() };
  }

  /** The REST Product payload products/create and products/update would carry now. */
  productWebhookPayload(idOrGid: string | number): Json {
    const record = this.core.store.product(idOrGid);
    if (!record) throw new Error(`No product ${idOrGid}`);
    return productPayload(record);
  }

  // ——— Webhooks ———

  /**
   * Sends a signed webhook to the app. `payload` is sent as given; for products/* it may be a
   * product id or gid (the REST payload is built), and when omitted a sensible default is used:
   * the last changed (or first) product for products/create|update, the last deleted product for
   * products/delete, the REST shop for shop/update and app/uninstalled, the latest bulk operation
   * for bulk_operations/finish, `{}` otherwise.
   */
  sendWebhook(
    topic: string,
    payload?: unknown,
    options: SendWebhookOptions = {},
  ): Promise<WebhookDelivery> {
    return this.core.webhooks.send(topic, this.#payload(topic, payload), options);
  }

  #payload(topic: string, payload: unknown): unknown {
    const isId = typeof payload === "number" || typeof payload === "string";
    if (PRODUCT_TOPICS.has(topic) && (isId || payload === undefined)) {
      if (topic === "products/delete") {
        const id = isId ? toGid("Product", payload) : this.core.store.deletedProducts.at(-1);
        return productDeletePayload(id ?? "gid://shopify/Product/0");
      }
      const id = isId
        ? payload
        : (this.#lastChanged ?? this.core.store.productList()[0]?.product.id);
      if (id === undefined) throw new Error("The store has no product to send");
      return this.productWebhookPayload(id as string | number);
    }
    if (payload !== undefined) return payload;
    if (topic === "shop/update" || topic === "app/uninstalled") return shopPayload(this.core.shop);
    const latest = this.core.bulk.current();
    if (topic === "bulk_operations/finish" && latest) return finishPayload(latest);
    return {};
  }

  /** The merchant has not approved this scope (yet): Shopify's topics that need it are not sent. */
  withdrawScope(scope: string): void {
    const at = this.core.scopes.indexOf(scope);
    if (at >= 0) this.core.scopes.splice(at, 1);
  }

  webhookDeliveries(topic?: string): WebhookDelivery[] {
    return this.core.webhooks.deliveries
      .filter((delivery) => topic === undefined || delivery.topic === topic)
      .map((delivery) => ({ ...delivery }));
  }

  clearWebhookDeliveries(): void {
    this.core.webhooks.deliveries = [];
  }

  // ——— Admin API requests and throttling ———

  requests(): RequestLogEntry[] {
    return this.core.requests.map((entry) => ({ ...entry }));
  }

  clearRequests(): void {
    this.core.requests = [];
  }

  throttleStatus(): ThrottleStatus {
    return this.core.bucket.status();
  }

  /** Sets the points left in the bucket (it refills from there). */
  setAvailablePoints(points: number): ThrottleStatus {
    this.core.bucket.set(points);
    return this.core.bucket.status();
  }

  /** The next `count` Admin API requests are THROTTLED whatever the bucket holds. */
  throttleNextRequests(count = 1): void {
    this.core.throttleNext += count;
  }

  /**
   * The next `count` requests of the operation named `operationName` get Shopify's internal
   * error (HTTP 200, `INTERNAL_SERVER_ERROR`, no data), whatever they ask.
   */
  failNextOperation(operationName: string, count = 1): void {
    this.core.internalErrorsNext.set(
      operationName,
      (this.core.internalErrorsNext.get(operationName) ?? 0) + count,
    );
  }

  // ——— Bulk operations ———

  bulkOperations(): BulkOperationRecord[] {
    return this.core.bulk.records.map((record) => ({ ...record }));
  }

  bulkOperation(idOrGid: string | number): BulkOperationRecord | undefined {
    const record = this.core.bulk.get(toGid("BulkOperation", idOrGid));
    return record ? { ...record } : undefined;
  }

  /** The next bulk operation ends FAILED with `errorCode` (partial data: its first 2 objects). */
  failNextBulkOperation(errorCode: BulkErrorCode, options: { partialData?: boolean } = {}): void {
    this.core.bulk.failNext({
      status: "FAILED",
      errorCode,
      partialData: options.partialData ?? false,
    });
  }

  /** The next bulk operation ends EXPIRED (url null). */
  expireNextBulkOperation(): void {
    this.core.bulk.failNext({ status: "EXPIRED" });
  }

  /** The operation's result URL expires now (status EXPIRED; the URL answers 403). */
  expireBulkOperation(idOrGid: string | number): BulkOperationRecord | undefined {
    const record = this.core.bulk.expire(toGid("BulkOperation", idOrGid));
    return record ? { ...record } : undefined;
  }

  /** The next `count` bulk_operations/finish webhooks are never sent. */
  dropFinishWebhooks(count = 1): void {
    for (let i = 0; i < count; i++) this.core.bulk.failNextWebhook({ drop: true });
  }

  /**
   * The next bulk query whose text holds `text` is refused before it starts
   * (OPERATION_IN_PROGRESS, as while five of the app's run).
   */
  refuseNextBulkQuery(text: string): void {
    this.core.bulk.refuseNext(text);
  }

  /** The next `count` bulk_operations/finish webhooks are sent `delayMs` late. */
  delayFinishWebhooks(delayMs: number, count = 1): void {
    for (let i = 0; i < count; i++) this.core.bulk.failNextWebhook({ delayMs });
  }

  /**
   * bulk_operations/finish webhooks wait until releaseFinishWebhooks(): the operations end as
   * usual, their notices come when the test says.
   */
  holdFinishWebhooks(): void {
    this.core.bulk.holdWebhooks();
  }

  /** The held bulk_operations/finish webhooks are sent, and the next ones are not held. */
  releaseFinishWebhooks(): void {
    this.core.bulk.releaseWebhooks();
  }

  // ——— Metafields ———

  metafields(): (MetafieldRecord & { publicNamespace: string })[] {
    return this.core.metafields.list().map((record) => ({
      ...record,
      publicNamespace: this.core.metafields.publicNamespace(record.namespace),
    }));
  }

  /**
   * Overwrites a stored value with one that fails its own type (text in a `rating`, broken rich
   * text JSON), unchecked: metafieldsSet refuses such values, but Shopify keeps ones stored before
   * their definition's type or validations changed (its `validationStatus` is then SOME_INVALID).
   */
  storeInvalidMetafieldValue(ownerId: string, namespace: string, key: string, value: string): void {
    const record = this.core.metafields.get(ownerId, namespace, key);
    if (!record) throw new Error(`No metafield ${namespace}.${key} on ${ownerId}`);
    record.value = value;
  }

  // ——— Faults, waiting, everything ———

  faults() {
    return {
      throttleNext: this.core.throttleNext,
      internalErrorsNext: Object.fromEntries(this.core.internalErrorsNext),
      ...this.core.bulk.pendingFaults(),
    };
  }

  clearFaults(): void {
    this.core.throttleNext = 0;
    this.core.internalErrorsNext.clear();
    this.core.bulk.clearFaults();
  }

  /** Resolves when no bulk operation is running and no webhook is being delivered. */
  async settled(): Promise<void> {
    await this.core.bulk.settled();
    await this.core.webhooks.idle();
  }

  snapshot() {
    const { store } = this.core;
    return {
      shop: this.shop(),
      counts: {
        products: store.products.size,
        variants: store.productList().reduce((sum, record) => sum + record.variants.length, 0),
        pages: store.pages.size,
        articles: store.articles.size,
      },
      throttle: this.throttleStatus(),
      faults: this.faults(),
      bulkOperations: this.bulkOperations(),
      webhookDeliveries: this.webhookDeliveries(),
      metafields: this.metafields(),
      requests: this.requests().slice(-100),
    };
  }
}
