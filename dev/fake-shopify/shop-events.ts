/**
 * Changes a shopper would notice that are not product edits: a purchase that lowers stock
 * (inventory_levels/update, and products/update as for any order), a collection renamed or deleted
 * (collections/update, collections/delete). Publication changes are product changes
 * (products/update with the new `published_at`; see docs/live-updates.md for why).
 */
import { isoSeconds } from "./clock";
import type { FakeShopifyCore } from "./core";
import { gidType, numericPart, toGid } from "./gid";
import { inventoryItemGidOf, inventoryLevelPayload, restTime, variantGidOfItem } from "./inventory";
import { productPayload } from "./rest-payloads";
import { updateDerived, type Json, type ProductRecord } from "./store";
import type { WebhookDelivery } from "./webhooks";

export interface EventOptions {
  /** Send the webhook Shopify sends (default true); false: the webhook is lost. */
  webhook?: boolean;
}

export interface StockChange {
  productId: string;
  variantId: string;
  inventoryItemId: string;
  available: number;
  /** The body inventory_levels/update carries (also when it was not sent: to send it late). */
  payload: Json;
  /** The body the order's products/update carries (before the subscription's include_fields). */
  productPayload: Json;
  /** Resolves when the webhook was answered (null when none was sent). */
  delivery: Promise<WebhookDelivery | null>;
}

export interface CollectionChange {
  collectionId: string;
  /** Products that hold (or held) the collection. */
  productIds: string[];
  payload: Json;
  delivery: Promise<WebhookDelivery | null>;
}

function variantOf(
  core: FakeShopifyCore,
  idOrGid: string | number,
): { record: ProductRecord; variant: Json } {
  const asString = String(idOrGid);
  const type = gidType(asString);
  if (type === "InventoryItem") {
    const variantGid = variantGidOfItem(asString);
    if (variantGid) return variantOf(core, variantGid);
  }
  if (type === "Product" || (type === null && core.store.product(asString))) {
    const record = core.store.product(asString);
    const variant = record?.variants[0];
    if (record && variant) return { record, variant };
  }
  const found = core.store.productChild(toGid("ProductVariant", asString));
  if (found && gidType(found.node.id) === "ProductVariant") {
    return { record: found.record, variant: found.node };
  }
  throw new Error(`No variant ${asString}`);
}

/**
 * A shopper buys `quantity` of a variant (a product id buys its first variant): its stock falls
 * (a tracked variant that denies overselling cannot go below 0), the product's `updatedAt` moves
 * (Shopify counts the inventory adjustment as an update), and what Shopify's 2026-10 schema says
 * an order fires is sent: inventory_levels/update (a tracked item's level changed) and
 * products/update ("occurs whenever a product is updated, ordered, …"), both stamped with the
 * order's time.
 */
export function purchase(
  core: FakeShopifyCore,
  idOrGid: string | number,
  quantity = 1,
  options: EventOptions = {},
): StockChange {
  const { record, variant } = variantOf(core, idOrGid);
  const tracked = (variant.inventoryItem as { tracked?: boolean } | null)?.tracked ?? false;
  const current = typeof variant.inventoryQuantity === "number" ? variant.inventoryQuantity : 0;
  if (tracked && variant.inventoryPolicy !== "CONTINUE" && current < quantity) {
    throw new Error(`Only ${current} of ${String(variant.id)} left; ${quantity} cannot be bought`);
  }
  const at = core.eventTime();
  const triggeredAt = new Date(at).toISOString();
  const now = isoSeconds(at);
  if (tracked) variant.inventoryQuantity = current - quantity;
  updateDerived(record, core.shop.primaryDomain);
  record.product.updatedAt = now;
  const itemGid = inventoryItemGidOf(String(variant.id));
  const available = typeof variant.inventoryQuantity === "number" ? variant.inventoryQuantity : 0;
  const payload = inventoryLevelPayload(itemGid, available, now);
  const send = options.webhook !== false;
  // An untracked item has no level to change: no inventory_levels/update for it.
  const level =
    send && tracked
      ? core.webhooks.send("inventory_levels/update", payload, { triggeredAt })
      : Promise.resolve(null);
  const update = send
    ? core.webhooks.send("products/update", productPayload(record), { triggeredAt })
    : Promise.resolve(null);
  return {
    productId: String(record.product.id),
    variantId: String(variant.id),
    inventoryItemId: itemGid,
    available,
    payload,
    productPayload: productPayload(record),
    delivery: Promise.all([level, update]).then(([first, second]) => first ?? second),
  };
}

function collectionHolders(core: FakeShopifyCore, collectionGid: string): ProductRecord[] {
  return core.store
    .productList()
    .filter((record) => record.collections.some((collection) => collection.id === collectionGid));
}

/** The REST Collection resource, as collections/update carries it. */
export function collectionPayload(collection: Json, updatedAt: string): Json {
  const id = Number(numericPart(String(collection.id)));
  return {
    id,
    handle: collection.handle,
    title: collection.title,
    updated_at: restTime(updatedAt),
    body_html: null,
    published_at: restTime(updatedAt),
    sort_order: "best-selling",
    template_suffix: null,
    published_scope: "web",
    admin_graphql_api_id: collection.id,
  };
}

/**
 * Renames a collection (and its handle, when given) in every product that holds it and sends
 * collections/update. The products' own `updatedAt` does not move: on Shopify a collection's
 * change is not the product's.
 */
export function updateCollection(
  core: FakeShopifyCore,
  idOrGid: string | number,
  changes: { title?: string; handle?: string },
  options: EventOptions = {},
): CollectionChange {
  const collectionGid = toGid("Collection", idOrGid);
  const holders = collectionHolders(core, collectionGid);
  let latest: Json | null = null;
  for (const record of holders) {
    for (const collection of record.collections) {
      if (collection.id !== collectionGid) continue;
      if (changes.title !== undefined) collection.title = changes.title;
      if (changes.handle !== undefined) collection.handle = changes.handle;
      collection.updatedAt = core.iso();
      latest = collection;
    }
  }
  const payload = collectionPayload(
    latest ?? { id: collectionGid, title: changes.title ?? "", handle: changes.handle ?? "" },
    core.iso(),
  );
  return {
    collectionId: collectionGid,
    productIds: holders.map((record) => String(record.product.id)),
    payload,
    delivery:
      options.webhook === false
        ? Promise.resolve(null)
        : core.webhooks.send("collections/update", payload),
  };
}

/**
 * Takes a product out of a collection on the collection's page: Shopify sends collections/update
 * (the collection's `updatedAt` moves), not products/update (the product's does not).
 */
export function removeFromCollection(
  core: FakeShopifyCore,
  collectionIdOrGid: string | number,
  productIdOrGid: string | number,
  options: EventOptions = {},
): CollectionChange {
  const collectionGid = toGid("Collection", collectionIdOrGid);
  const record = core.store.product(productIdOrGid);
  const removed = record?.collections.find((collection) => collection.id === collectionGid);
  if (!record || !removed) {
    throw new Error(`Product ${productIdOrGid} is not in collection ${collectionIdOrGid}`);
  }
  record.collections = record.collections.filter((collection) => collection !== removed);
  const now = core.iso();
  for (const holder of collectionHolders(core, collectionGid)) {
    for (const collection of holder.collections) {
      if (collection.id === collectionGid) collection.updatedAt = now;
    }
  }
  const payload = collectionPayload(removed, now);
  return {
    collectionId: collectionGid,
    productIds: [String(record.product.id)],
    payload,
    delivery:
      options.webhook === false
        ? Promise.resolve(null)
        : core.webhooks.send("collections/update", payload),
  };
}

/** Deletes a collection (products leave it) and sends collections/delete. */
export function deleteCollection(
  core: FakeShopifyCore,
  idOrGid: string | number,
  options: EventOptions = {},
): CollectionChange {
  const collectionGid = toGid("Collection", idOrGid);
  const holders = collectionHolders(core, collectionGid);
  for (const record of holders) {
    record.collections = record.collections.filter((collection) => collection.id !== collectionGid);
  }
  const payload = {
    id: Number(numericPart(collectionGid)),
    published_scope: "web",
    admin_graphql_api_id: collectionGid,
  };
  return {
    collectionId: collectionGid,
    productIds: holders.map((record) => String(record.product.id)),
    payload,
    delivery:
      options.webhook === false
        ? Promise.resolve(null)
        : core.webhooks.send("collections/delete", payload),
  };
}
