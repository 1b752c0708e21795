/**
 * What a shopper would notice without a products/* webhook: purchases (inventory_levels/update
 * only), Online Store publication, collection renames and deletes, and `updated_at` searches.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  INVENTORY_ITEM_PRODUCTS_QUERY,
  productsChangedSinceBulkQuery,
  type InventoryItemProductsData,
} from "../../app/catalogue/queries";
import {
  API_SECRET,
  data,
  graphql,
  pollBulk,
  runBulk,
  startShopWithReceiver,
  validShopifyHmac,
  type FakeShopify,
  type Receiver,
} from "./helpers";

let shop: FakeShopify;
let receiver: Receiver;
let stop: () => Promise<void>;
let clock = Date.UTC(2026, 9, 1, 12);

beforeAll(async () => {
  ({
    shop,
    receiver,
    close: stop,
  } = await startShopWithReceiver({
    store: { generated: { products: 30, seed: 4 } },
    now: () => clock,
  }));
});
beforeEach(async () => {
  await shop.state.settled();
  receiver.received.length = 0;
  clock += 60_000;
});
afterAll(() => stop());

/** A product whose first variant is tracked, denies overselling and has `atLeast` in stock. */
function stockedProduct(atLeast = 2) {
  const found = shop.state.products().find((product) => {
    const variant = product.variants[0] as {
      inventoryQuantity: number;
      inventoryPolicy: string;
      inventoryItem: { tracked: boolean };
    };
    return (
      variant.inventoryItem.tracked &&
      variant.inventoryPolicy === "DENY" &&
      variant.inventoryQuantity >= atLeast &&
      product.status === "ACTIVE"
    );
  });
  if (!found) throw new Error("no stocked product");
  return found;
}

const ITEM_QUERY = `query Item($id: ID!) {
  inventoryItem(id: $id) {
    id tracked
    variant { id inventoryQuantity product { id } }
    inventoryLevel(locationId: "gid://shopify/Location/77000000001") {
      quantities(names: ["available"]) { name quantity }
    }
  }
}`;

describe("a purchase", () => {
  it("lowers stock, moves updatedAt and sends inventory_levels/update and products/update, signed", async () => {
    const product = stockedProduct();
    const variant = product.variants[0] as { id: string; inventoryQuantity: number };
    const before = variant.inventoryQuantity;
    const change = shop.state.purchase(variant.id, 1);
    const delivery = await change.delivery;
    expect(delivery?.status).toBe(200);

    // What Shopify's 2026-10 schema says an order fires: the level, and the product ("ordered").
    expect(receiver.received.map((webhook) => webhook.headers["x-shopify-topic"]).sort()).toEqual([
      "inventory_levels/update",
      "products/update",
    ]);
    const update = receiver.received.find(
      (w) => w.headers["x-shopify-topic"] === "products/update",
    )!;
    expect(validShopifyHmac(API_SECRET, update)).toBe(true);
    // Cut to the subscription's include_fields: no stock in it, the fields the app reads are.
    const body = JSON.parse(update.body) as Record<string, unknown>;
    expect(Object.keys(body)).toContain("title");
    expect(Object.keys(body)).not.toContain("variant_gids");
    for (const media of (body.media ?? []) as object[]) {
      expect(Object.keys(media).sort()).toEqual(
        ["media_content_type", "position", "preview_image"].sort(),
      );
    }
    expect(Object.keys((body.variants as object[])[0]!).sort()).toEqual(
      ["compare_at_price", "id", "option1", "option2", "option3", "price", "sku", "title"].sort(),
    );
    // Both carry the order's time, to the millisecond (Shopify's header has nanoseconds).
    const level = receiver.received.find(
      (w) => w.headers["x-shopify-topic"] === "inventory_levels/update",
    )!;
    expect(level.headers["x-shopify-triggered-at"]).toBe(update.headers["x-shopify-triggered-at"]);
    const webhook = level;
    expect(webhook!.path).toBe("/webhooks/inventory_levels/update");
    expect(validShopifyHmac(API_SECRET, webhook!)).toBe(true);
    const itemGid = shop.state.inventoryItemOf(variant.id);
    const itemNumber = Number(itemGid.split("/").pop());
    expect(JSON.parse(webhook!.body)).toEqual({
      inventory_item_id: itemNumber,
      location_id: 77000000001,
      available: before - 1,
      updated_at: new Date(clock).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
      admin_graphql_api_id: `gid://shopify/InventoryLevel/77000000001?inventory_item_id=${itemNumber}`,
    });
    const after = shop.state.product(product.id)!;
    expect((after.variants[0] as { inventoryQuantity: number }).inventoryQuantity).toBe(before - 1);
    expect(after.updatedAt).toBe(new Date(clock).toISOString().replace(/\.\d{3}Z$/, "Z"));
  });

  it("maps the inventory item to its variant and product through the Admin API", async () => {
    const product = stockedProduct();
    const variant = product.variants[0] as { id: string; inventoryQuantity: number };
    const itemGid = shop.state.inventoryItemOf(variant.id);
    const answer = await data<{
      inventoryItem: {
        id: string;
        tracked: boolean;
        variant: { id: string; inventoryQuantity: number; product: { id: string } };
        inventoryLevel: { quantities: { name: string; quantity: number }[] };
      };
    }>(shop, ITEM_QUERY, { id: itemGid });
    expect(answer.inventoryItem).toEqual({
      id: itemGid,
      tracked: true,
      variant: {
        id: variant.id,
        inventoryQuantity: variant.inventoryQuantity,
        product: { id: product.id },
      },
      inventoryLevel: { quantities: [{ name: "available", quantity: variant.inventoryQuantity }] },
    });
    // Many items at once, as the app maps them; an unknown item is null.
    const nodes = await data<InventoryItemProductsData>(shop, INVENTORY_ITEM_PRODUCTS_QUERY, {
      ids: [itemGid, "gid://shopify/InventoryItem/1"],
      variantsFirst: 10,
    });
    expect(nodes.nodes).toEqual([
      { id: itemGid, variants: { nodes: [{ product: { id: product.id } }] } },
      null,
    ]);
  });

  it("cannot sell what is not there, and a lost webhook leaves only the store changed", async () => {
    const product = stockedProduct();
    const variant = product.variants[0] as { id: string; inventoryQuantity: number };
    expect(() => shop.state.purchase(variant.id, variant.inventoryQuantity + 1)).toThrow(/left/);
    const change = shop.state.purchase(product.id, variant.inventoryQuantity, { webhook: false });
    expect(await change.delivery).toBeNull();
    expect(change.available).toBe(0);
    expect(receiver.received).toHaveLength(0);
    const after = shop.state.product(product.id)!;
    expect((after.variants[0] as { availableForSale: boolean }).availableForSale).toBe(false);
    // The payload it would have carried can be delivered late.
    const late = await shop.state.sendWebhook("inventory_levels/update", change.payload);
    expect(late.status).toBe(200);
  });

  it("is a control route too", async () => {
    const product = stockedProduct();
    const response = await fetch(`${shop.url}/__fake/purchases`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ productId: product.id, quantity: 1 }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { productId: string; delivery: { status: number } };
    expect(body.productId).toBe(product.id);
    expect(body.delivery.status).toBe(200);
  });
});

describe("updated_at searches", () => {
  it("products(query: updated_at:>…) returns only what changed since, in bulk exports too", async () => {
    const since = new Date(clock).toISOString();
    clock += 1_000;
    const product = stockedProduct();
    shop.state.purchase(product.id, 1, { webhook: false });
    const query = `updated_at:>'${since}'`;
    const page = await data<{ products: { nodes: { id: string }[] } }>(
      shop,
      `query($q: String) { products(first: 50, query: $q) { nodes { id } } }`,
      { q: query },
    );
    expect(page.products.nodes).toEqual([{ id: product.id }]);
    // The app's incremental export: only that product, as a bulk export.
    const started = await runBulk(shop, productsChangedSinceBulkQuery(new Date(since)));
    expect(started.userErrors).toEqual([]);
    const { final } = await pollBulk(shop, started.bulkOperation!.id);
    const lines = (await (await fetch(final.url!)).text()).trim().split("\n");
    const roots = lines.map((line) => JSON.parse(line) as { id: string; __parentId?: string });
    expect(roots.filter((line) => !line.__parentId).map((line) => line.id)).toEqual([product.id]);
    const all = await data<{ products: { nodes: { id: string }[] } }>(
      shop,
      `{ products(first: 50) { nodes { id } } }`,
    );
    expect(all.products.nodes.length).toBe(30);
  });
});

describe("publication", () => {
  it("a product taken off the Online Store loses its URL and products/update says published_at null", async () => {
    const product = stockedProduct(0);
    shop.state.setPublished(product.id, false);
    await shop.state.settled();
    const off = shop.state.product(product.id)!;
    expect(off.onlineStoreUrl).toBeNull();
    expect(off.publishedAt).toBeNull();
    expect(receiver.received.map((webhook) => webhook.headers["x-shopify-topic"])).toEqual([
      "products/update",
    ]);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ published_at: null });
    shop.state.setPublished(product.id, true);
    await shop.state.settled();
    expect(shop.state.product(product.id)!.onlineStoreUrl).toMatch(/^https:\/\//);
  });
});

describe("collections", () => {
  function collected() {
    const product = shop.state.products().find((candidate) => candidate.collections.length > 0);
    if (!product) throw new Error("no product in a collection");
    return { product, collection: product.collections[0] as { id: string; title: string } };
  }

  it("a rename reaches every product that holds it and sends collections/update", async () => {
    const { product, collection } = collected();
    const change = shop.state.updateCollection(collection.id, { title: "Renamed Shelf" });
    expect((await change.delivery)?.status).toBe(200);
    expect(change.productIds).toContain(product.id);
    for (const id of change.productIds) {
      const titles = shop.state.product(id)!.collections.map((c) => (c as { title: string }).title);
      expect(titles).toContain("Renamed Shelf");
    }
    const [webhook] = receiver.received;
    expect(webhook!.path).toBe("/webhooks/collections");
    expect(webhook!.headers["x-shopify-topic"]).toBe("collections/update");
    expect(JSON.parse(webhook!.body)).toMatchObject({
      id: Number(collection.id.split("/").pop()),
      title: "Renamed Shelf",
      admin_graphql_api_id: collection.id,
    });
    const members = await data<{ collection: { products: { nodes: { id: string }[] } } }>(
      shop,
      `query($id: ID!) { collection(id: $id) { products(first: 250) { nodes { id } } } }`,
      { id: collection.id },
    );
    expect(members.collection.products.nodes.map((node) => node.id).sort()).toEqual(
      [...change.productIds].sort(),
    );
  });

  it("taking a product out on the collection's page sends collections/update only, and moves the collection's updatedAt", async () => {
    const { product, collection } = collected();
    const before = new Date(clock - 1_000).toISOString();
    const productUpdatedAt = shop.state.product(product.id)!.updatedAt;
    const response = await fetch(
      `${shop.url}/__fake/collections/${encodeURIComponent(collection.id)}/products/${encodeURIComponent(product.id)}`,
      { method: "DELETE" },
    );
    expect(((await response.json()) as { productIds: string[] }).productIds).toEqual([product.id]);
    const after = shop.state.product(product.id)!;
    expect(after.collections.map((c) => (c as { id: string }).id)).not.toContain(collection.id);
    expect(after.updatedAt).toBe(productUpdatedAt);
    expect(receiver.received.map((webhook) => webhook.headers["x-shopify-topic"])).toEqual([
      "collections/update",
    ]);
    const changed = await data<{ collections: { nodes: { id: string; updatedAt: string }[] } }>(
      shop,
      `query($q: String!) { collections(first: 250, query: $q) { nodes { id updatedAt } } }`,
      { q: `updated_at:>'${before}'` },
    );
    const ids = changed.collections.nodes.map((node) => node.id);
    // Other products still hold it: the collection remains, changed since `before`; no other did.
    if (
      shop.state
        .products()
        .some((p) => p.collections.some((c) => (c as { id: string }).id === collection.id))
    ) {
      expect(ids).toEqual([collection.id]);
    } else {
      expect(ids).toEqual([]);
    }
  });

  it("a delete empties it from every product and sends collections/delete", async () => {
    const { collection } = collected();
    const response = await fetch(
      `${shop.url}/__fake/collections/${encodeURIComponent(collection.id)}`,
      { method: "DELETE" },
    );
    const body = (await response.json()) as { productIds: string[] };
    expect(body.productIds.length).toBeGreaterThan(0);
    for (const id of body.productIds) {
      expect(
        shop.state.product(id)!.collections.map((c) => (c as { id: string }).id),
      ).not.toContain(collection.id);
    }
    expect(receiver.received.map((webhook) => webhook.headers["x-shopify-topic"])).toEqual([
      "collections/delete",
    ]);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({
      id: Number(collection.id.split("/").pop()),
      published_scope: "web",
      admin_graphql_api_id: collection.id,
    });
    const gone = await graphql(
      shop,
      `
        query ($id: ID!) {
          collection(id: $id) {
            id
          }
        }
      `,
      {
        id: collection.id,
      },
    );
    expect(gone.body.data).toEqual({ collection: null });
  });
});
