import {
  contentHash,
  documentFingerprint,
  MAX_INDEXED_VARIANTS,
  numericId,
  PRODUCT_STOCK_BY_IDS_QUERY,
  PRODUCT_STOCK_MODEL_LEVELS_FIRST,
  PRODUCT_STOCK_MODEL_QUERY,
  PRODUCT_STOCK_MODEL_VARIANTS_FIRST,
  PRODUCT_STOCK_VARIANTS_MAX,
  productNotIndexableReason,
  productUrl,
  restockProduct,
  stocklessProduct,
  toGid,
  type IndexProduct,
  type ProductStockByIdsData,
  type ProductStockModelData,
  type ProductStockModelNode,
  type ProductStockNode,
  type ShopifyProduct,
  type VariantStock,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { indexedDocuments, type KeptDocument, type LedgerScope } from "../../models/ledger.server";
import {
  forgetProductModels,
  modelledProducts,
  replaceProductModel,
  type ModelVariant,
} from "../../models/stock-model.server";

export interface Restocked {
  /** Products sent again from their last document with their current stock, by id. */
  entries: Map<string, { item: IndexProduct; hash: string; collectionIds: string | null }>;
  /** Products that must be re-read whole (no kept document, gone, unlisted, moved, reshaped). */
  reread: string[];
}

/**
 * Products whose only known change is their stock (an inventory level changed): their stock is
 * put into the document the ledger kept of the last send; the result is what mapping the whole
 * product would give if nothing else changed. The stock comes from the stock model when it knows
 * every variant of the product (its levels, from the payloads: no Admin API point), else from one
 * read of the product's variants with their inventory items and levels, which fills the model
 * (`ProductStockModel`), else (more than 50 variants or 4 locations) from the stock read alone.
 * Any other change comes with its own webhook (products/update, a whole re-read), and a lost one
 * is found by the reconciliation, which compares the whole product with the ledger's hash. A
 * product is re-read whole instead when the ledger keeps no document for it (or one that is not
 * what its hash says), when Shopify no longer has it, when it is no longer indexable or has
 * another handle, when its variants are not those the document lists, or when it has more than
 * 250.
 */
export async function restockProducts(
  admin: AdminGraphql,
  scope: LedgerScope,
  changes: readonly { productId: string; changedAt: Date }[],
  primaryDomain: string,
  /** The ledger's kept documents of the batch (batchLedger), these products' among them. */
  documents: ReadonlyMap<string, KeptDocument>,
  /** The stock model of the batch's products, read with its ledger (batchLedger). */
  models: ReadonlyMap<string, readonly ModelVariant[]>,
): Promise<Restocked> {
  const result: Restocked = { entries: new Map(), reread: [] };
  if (changes.length === 0) return result;
  const productIds = changes.map((change) => change.productId);
  const changedAt = new Map(changes.map((change) => [change.productId, change.changedAt]));
  const known: Known[] = [];
  for (const id of productIds) {
    const kept = documents.get(id);
    const item = kept ? parseKept(kept.content, kept.contentHash) : null;
    // Its collections are those of the kept document: only the stock changes.
    if (item) known.push({ id, item, hash: kept!.contentHash, collectionIds: kept!.collectionIds });
    else result.reread.push(id);
  }
  const settle = (entry: Known, node: ProductStockNode | null) => {
    const restocked = node ? restockFrom(entry.item, node, primaryDomain) : null;
    if (restocked) keep(entry, restocked);
    else result.reread.push(entry.id);
  };
  const keep = (entry: Known, item: IndexProduct) => {
    result.entries.set(entry.id, {
      item,
      hash: contentHash(item),
      collectionIds: entry.collectionIds,
    });
  };
  const unmodelled: Known[] = [];
  for (const entry of known) {
    const model = models.get(entry.id);
    const variants = model ? variantStockFromModel(entry.item, model) : null;
    const restocked = variants && restockProduct(entry.item, variants, entry.item.updated_at);
    if (!restocked) unmodelled.push(entry);
    // Nothing the index holds changed (a repeated products/update, an order already applied):
    // the document stays, its time too, as a read of Shopify would leave it.
    else if (contentHash(restocked) === entry.hash) keep(entry, entry.item);
    else {
      const at = stampAfter(entry.item.updated_at, changedAt.get(entry.id));
      keep(entry, { ...restocked, updated_at: at });
    }
  }
  const many: Known[] = [];
  for (const entry of unmodelled) {
    // A document that lists more variants than the model reads: straight to the stock read.
    if ((entry.item.variants?.length ?? 0) > PRODUCT_STOCK_MODEL_VARIANTS_FIRST) {
      many.push(entry);
      continue;
    }
    const node = await readModel(admin, scope.shopDomain, entry.id);
    if (node === "unmodelled") many.push(entry);
    else settle(entry, node);
  }
  // More variants or locations than the model reads: the stock read, with up to 250 variants.
  for (const entry of many) {
    const [node] = await readStock(admin, [entry], PRODUCT_STOCK_VARIANTS_MAX);
    settle(entry, node ?? null);
  }
  return result;
}

interface Known {
  id: string;
  item: IndexProduct;
  /** The kept document's hash (parseKept checked it is the item's). */
  hash: string;
  collectionIds: string | null;
}

/**
 * The variants' stock as the model has it, the document's variants first in their order; null
 * when the model does not know each of them, or knows variants the document does not list (a
 * variant added: the whole re-read its products/update brings sorts it out).
 */
function variantStockFromModel(
  item: IndexProduct,
  model: readonly ModelVariant[],
): VariantStock[] | null {
  const listed = item.variants ?? [];
  const byId = new Map(model.map((variant) => [variant.variantId, variant]));
  if (listed.some((variant) => !byId.has(variant.id))) return null;
  if (listed.length < MAX_INDEXED_VARIANTS && model.length !== listed.length) return null;
  const ordered = [
    ...listed.map((variant) => byId.get(variant.id)!),
    ...model.filter((variant) => !listed.some((l) => l.id === variant.variantId)),
  ];
  return ordered.map((variant) => {
    // Shopify's inventoryQuantity is the sum of the item's levels (checked when it was read).
    const quantity = variant.levels.reduce((sum, level) => sum + level.available, 0);
    return {
      id: `gid://shopify/ProductVariant/${variant.variantId}`,
      inventoryQuantity: quantity,
      inventoryPolicy: variant.inventoryPolicy as VariantStock["inventoryPolicy"],
      availableForSale: !variant.tracked || quantity > 0 || variant.inventoryPolicy === "CONTINUE",
      inventoryItem: { tracked: variant.tracked },
    };
  });
}

/**
 * The product's `updatedAt` after a stock change the model computed: Shopify counts the
 * inventory adjustment as an update of the product, at the time the webhook says; written as the
 * document's own (with or without milliseconds).
 */
function stampAfter(kept: string, at: Date | undefined): string {
  const keptTime = Date.parse(kept);
  if (at === undefined || !(at.getTime() > keptTime)) return kept;
  const iso = at.toISOString();
  return /\.\d+Z$/.test(kept) ? iso : iso.replace(/\.\d{3}Z$/, "Z");
}

/**
 * One product's variants with their inventory items and levels: the stock node, after the model
 * took it (when each variant's levels add up to Shopify's quantity; otherwise the model forgets
 * the product). "unmodelled" when it has more variants or levels than the read covers.
 */
async function readModel(
  admin: AdminGraphql,
  shopDomain: string,
  productId: string,
): Promise<ProductStockNode | null | "unmodelled"> {
  const readAt = new Date();
  const data = await queryAdmin<ProductStockModelData>(admin, PRODUCT_STOCK_MODEL_QUERY, {
    ids: [toGid("Product", productId)],
    variantsFirst: PRODUCT_STOCK_MODEL_VARIANTS_FIRST,
    levelsFirst: PRODUCT_STOCK_MODEL_LEVELS_FIRST,
  });
  const found = data.nodes[0];
  if (found?.__typename !== "Product") return null;
  const node = found as ProductStockModelNode;
  const variants = node.variants.nodes;
  if (
    node.variants.pageInfo.hasNextPage ||
    variants.some((v) => !v.inventoryItem || v.inventoryItem.inventoryLevels.pageInfo.hasNextPage)
  ) {
    await forgetProductModels(shopDomain, [productId]);
    return "unmodelled";
  }
  const model: ModelVariant[] = variants.map((variant) => ({
    variantId: numericId(variant.id),
    inventoryItemId: numericId(variant.inventoryItem!.id),
    tracked: variant.inventoryItem!.tracked,
    inventoryPolicy: variant.inventoryPolicy,
    levels: variant.inventoryItem!.inventoryLevels.nodes.map((level) => ({
      locationId: numericId(level.location.id),
      available: level.quantities[0]?.quantity ?? 0,
    })),
  }));
  const consistent = model.every(
    (variant, index) =>
      variant.levels.reduce((sum, level) => sum + level.available, 0) ===
      (variants[index]!.inventoryQuantity ?? 0),
  );
  if (consistent) await replaceProductModel(shopDomain, productId, model, readAt);
  else await forgetProductModels(shopDomain, [productId]);
  return node as unknown as ProductStockNode;
}

/** The stock of these products, in their order; null for one Shopify does not have. */
async function readStock(
  admin: AdminGraphql,
  entries: readonly Known[],
  variantsFirst: number,
): Promise<(ProductStockNode | null)[]> {
  const data = await queryAdmin<ProductStockByIdsData>(admin, PRODUCT_STOCK_BY_IDS_QUERY, {
    ids: entries.map(({ id }) => toGid("Product", id)),
    variantsFirst,
  });
  return entries.map((_, index) => {
    const node = data.nodes[index];
    return node?.__typename === "Product" ? (node as ProductStockNode) : null;
  });
}

export function parseKept(content: string, hash: string): IndexProduct | null {
  try {
    const item = JSON.parse(content) as IndexProduct;
    return contentHash(item) === hash ? item : null;
  } catch {
    return null;
  }
}

function restockFrom(
  item: IndexProduct,
  node: ProductStockNode,
  primaryDomain: string,
): IndexProduct | null {
  if (productNotIndexableReason(node) !== null) return null;
  if (productUrl(primaryDomain, node.handle) !== item.url) return null;
  if (node.variants.pageInfo.hasNextPage) return null;
  return restockProduct(item, node.variants.nodes, node.updatedAt);
}

/**
 * Of these exported products, the ids whose document differs from the one the ledger kept in
 * stock alone (`stocklessProduct`): the hourly check queues them as stock changes, so a check
 * that runs during a sale does not re-read whole what a stock read settles. The stock model
 * forgets those whose stock it computes otherwise than the export, unless a payload newer than
 * the export explains it: a level it missed (a lost webhook) is read again with their stock
 * change, while a product a sale's payloads keep current (the index behind them by the outbox's
 * few seconds) is not read again.
 */
export async function differingInStockAlone(
  scope: LedgerScope,
  exported: readonly IndexProduct[],
  /** When the export began: a level written since is newer than what the export saw. */
  exportedAt: Date,
): Promise<Set<string>> {
  const documents = await indexedDocuments(
    scope,
    "product",
    exported.map((item) => item.id),
  );
  const ids = new Set<string>();
  const alike: { item: IndexProduct; previous: IndexProduct }[] = [];
  for (const item of exported) {
    const kept = documents.get(item.id);
    const previous = kept ? parseKept(kept.content, kept.contentHash) : null;
    if (
      previous &&
      contentHash(stocklessProduct(previous)) === contentHash(stocklessProduct(item))
    ) {
      ids.add(item.id);
      alike.push({ item, previous });
    }
  }
  const models = await modelledProducts(scope.shopDomain, [...ids]);
  const stale = alike.flatMap(({ item, previous }) => {
    const model = models.get(item.id);
    if (!model) return [];
    const newer = model.some((variant) =>
      variant.levels.some((level) => level.changedAt && level.changedAt >= exportedAt),
    );
    if (newer) return [];
    const variants = variantStockFromModel(previous, model);
    const computed = variants && restockProduct(previous, variants, item.updated_at);
    return computed && contentHash(computed) === contentHash(item) ? [] : [item.id];
  });
  await forgetProductModels(scope.shopDomain, stale);
  return ids;
}

/**
 * After whole re-reads: the model forgets a product whose read disagrees with it (a variant
 * added or removed, tracking or policy switched, a level changed without its webhook) or that
 * Shopify no longer has; its next stock change reads it again.
 */
export async function forgetModelsUnlike(
  shopDomain: string,
  read: readonly ShopifyProduct[],
  missing: readonly string[],
  /**
   * The models read with the batch's ledger (batchLedger), and the products whose model may have
   * been written since (restockProducts reads and writes the models of the stock changes it
   * could not settle from them): those are read again.
   */
  known?: { models: ReadonlyMap<string, readonly ModelVariant[]>; since: ReadonlySet<string> },
): Promise<void> {
  const ids = read.map((product) => numericId(product.id));
  const stale = known ? ids.filter((id) => known.since.has(id)) : ids;
  const models = new Map(known?.models);
  for (const [id, model] of await modelledProducts(shopDomain, stale)) models.set(id, model);
  let unlike = read.filter((product) => !agrees(product, models.get(numericId(product.id))));
  // A model read before the re-read may only be behind it: the intake writes levels as payloads
  // come (a sale's purchases). Those it disagrees with are read again and forgotten only if they
  // still disagree, so a purchase during the re-read is not taken for a lost webhook.
  const early = unlike.filter((product) => !stale.includes(numericId(product.id)));
  if (known && early.length > 0) {
    const now = await modelledProducts(
      shopDomain,
      early.map((product) => numericId(product.id)),
    );
    unlike = unlike.filter(
      (product) => !early.includes(product) || !agrees(product, now.get(numericId(product.id))),
    );
  }
  await forgetProductModels(shopDomain, [
    ...missing,
    ...unlike.map((product) => numericId(product.id)),
  ]);
}

/** Whether the model (none: nothing to disagree with) has the read's variants and stock. */
function agrees(product: ShopifyProduct, model: readonly ModelVariant[] | undefined): boolean {
  if (!model) return true;
  const byId = new Map(model.map((variant) => [variant.variantId, variant]));
  const variants = product.variants ?? [];
  return (
    variants.length === model.length &&
    variants.every((variant) => {
      const kept = byId.get(numericId(variant.id));
      return (
        kept !== undefined &&
        kept.tracked === (variant.inventoryItem?.tracked ?? false) &&
        kept.inventoryPolicy === variant.inventoryPolicy &&
        kept.levels.reduce((sum, level) => sum + level.available, 0) ===
          (variant.inventoryQuantity ?? 0)
      );
    })
  );
}

/**
 * Of these products/update changes, the products whose payload says nothing the index holds
 * changed (its fingerprint is the kept document's): an order's products/update, which the
 * worker then treats as the stock change it is, instead of re-reading the product whole.
 */
export function unchangedBesideStock(
  /** The ledger's kept documents of the batch (batchLedger). */
  documents: ReadonlyMap<string, KeptDocument>,
  changes: readonly { productId: string; fingerprint: string | null }[],
): Set<string> {
  const withPayload = changes.filter((change) => change.fingerprint !== null);
  const ids = new Set<string>();
  for (const change of withPayload) {
    const kept = documents.get(change.productId);
    const item = kept ? parseKept(kept.content, kept.contentHash) : null;
    if (item && documentFingerprint(item) === change.fingerprint) ids.add(change.productId);
  }
  return ids;
}
