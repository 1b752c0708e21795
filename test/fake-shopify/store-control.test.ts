/** Changing the store and sending webhooks through `state` and the /__fake/ routes. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  productsFromNodesResponse,
  type ProductsByIdsData,
} from "../../app/catalogue/product-nodes";
import {
  PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  PRODUCTS_BY_IDS_QUERY,
  SHOP_QUERY,
  type ShopDomainsData,
} from "../../app/catalogue/queries";
import {
  API_SECRET,
  data,
  graphql,
  startReceiver,
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
    store: { generated: { products: 12, seed: 9 } },
    now: () => clock,
  }));
});
beforeEach(() => {
  receiver.received.length = 0;
});
afterAll(() => stop());

async function reread(ids: string[]) {
  const response = await data<ProductsByIdsData>(shop, PRODUCTS_BY_IDS_QUERY, {
    ids,
    ...PRODUCT_NODES_DEFAULT_PAGE_SIZES,
  });
  return productsFromNodesResponse(ids, response);
}

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${shop.url}/__fake${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("products", () => {
  it("updates fields, prices and inventory, bumping updatedAt, as the Admin API then reads them", async () => {
    const product = shop.state
      .products()
      .find((candidate) => candidate.variants.length >= 2 && candidate.variants.length <= 50)!;
    clock += 60_000;
    const updated = shop.state.updateProduct(product.id, {
      title: "Renamed",
      variants: [
        { index: 0, price: 12.5, inventoryQuantity: 7, tracked: true },
        { id: String(product.variants[1]!.id), compareAtPrice: "99.00" },
      ],
    });
    expect(updated.updatedAt).toBe("2026-10-01T12:01:00Z");
    const { products } = await reread([product.id]);
    expect(products[0]).toMatchObject({
      title: "Renamed",
      updatedAt: "2026-10-01T12:01:00Z",
      variants: [
        expect.objectContaining({ price: "12.50", inventoryQuantity: 7, availableForSale: true }),
        expect.objectContaining({ compareAtPrice: "99.00" }),
        ...product.variants.slice(2).map(() => expect.anything()),
      ],
    });
  });

  it("takes a product off the Online Store with its status", async () => {
    const product = shop.state.products().find((candidate) => candidate.status === "ACTIVE")!;
    shop.state.updateProduct(product.id, { status: "DRAFT" });
    expect((await reread([product.id])).products[0]).toMatchObject({
      status: "DRAFT",
      onlineStoreUrl: null,
    });
  });

  it("creates and deletes products (a deleted one is missing from nodes)", async () => {
    const created = shop.state.createProduct({
      title: "Wool socks",
      variants: [{ price: 9, inventoryQuantity: 3 }],
      media: [{ url: "https://cdn.example/socks.jpg", alt: "Socks" }],
      collections: [{ title: "Winter" }],
    });
    expect(created.onlineStoreUrl).toMatch(
      /^https:\/\/demo-store\.example\.com\/products\/wool-socks/,
    );
    const read = await reread([created.id]);
    expect(read.products[0]).toMatchObject({
      title: "Wool socks",
      totalInventory: 3,
      featuredMedia: {
        mediaContentType: "IMAGE",
        preview: { image: { url: "https://cdn.example/socks.jpg" } },
      },
      collections: [{ id: expect.any(String), title: "Winter", handle: "winter" }],
    });
    expect(shop.state.deleteProduct(created.id)).toBe(true);
    expect((await reread([created.id])).missing).toEqual([created.id]);
  });
});

describe("webhooks to the app", () => {
  it("sends products/update in the REST shape, signed", async () => {
    const product = shop.state.products()[3]!;
    clock += 1000;
    shop.state.updateProduct(product.id, { title: "Changed again" }, { webhook: true });
    await shop.state.settled();
    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(webhook!.path).toBe("/webhooks/products");
    expect(webhook!.headers["x-shopify-topic"]).toBe("products/update");
    expect(validShopifyHmac(API_SECRET, webhook!)).toBe(true);
    const body = JSON.parse(webhook!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: Number(product.id.split("/").pop()),
      admin_graphql_api_id: product.id,
      title: "Changed again",
      status: String(product.status).toLowerCase(),
      updated_at: "2026-10-01T12:01:01Z",
      tags: (product.tags as string[]).join(", "),
    });
    expect((body.variants as unknown[]).length).toBe(product.variants.length);
  });

  it("sends any topic with any payload and the given delivery headers", async () => {
    const delivery = await shop.state.sendWebhook(
      "app/uninstalled",
      { id: 1, name: "Demo" },
      { webhookId: "same-delivery-id", triggeredAt: "2026-10-01T10:00:00.000Z" },
    );
    expect(delivery).toMatchObject({ status: 200, topic: "app/uninstalled" });
    expect(receiver.received[0]!.path).toBe("/webhooks/app/uninstalled");
    expect(receiver.received[0]!.headers).toMatchObject({
      "x-shopify-webhook-id": "same-delivery-id",
      "x-shopify-triggered-at": "2026-10-01T10:00:00.000Z",
    });
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ id: 1, name: "Demo" });
  });

  it("sends products/delete with the id only, and a forged signature when asked", async () => {
    const product = shop.state.products()[4]!;
    shop.state.deleteProduct(product.id);
    await shop.state.sendWebhook("products/delete", undefined, { hmac: "Zm9yZ2Vk" });
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({
      id: Number(product.id.split("/").pop()),
    });
    expect(validShopifyHmac(API_SECRET, receiver.received[0]!)).toBe(false);
  });

  it("records what the app answered", async () => {
    const failing = await startReceiver(500);
    try {
      shop.state.setApp({ appUrl: failing.url });
      const delivery = await shop.state.sendWebhook("products/update");
      expect(delivery.status).toBe(500);
      shop.state.setApp({ appUrl: null });
      expect((await shop.state.sendWebhook("products/update")).error).toBe("No appUrl is set");
    } finally {
      shop.state.setApp({ appUrl: receiver.url });
      await failing.close();
    }
  });

  it("changes the primary domain, storefront URLs follow, and sends shop/update", async () => {
    const delivery = await shop.state.setPrimaryDomain("shop.new-domain.example");
    expect(delivery?.status).toBe(200);
    expect(receiver.received[0]!.path).toBe("/webhooks/shop/update");
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      domain: "shop.new-domain.example",
      myshopify_domain: "demo-store.myshopify.com",
    });
    const answer = await graphql<ShopDomainsData>(shop, SHOP_QUERY);
    expect(answer.body.data?.shop.primaryDomain).toEqual({
      host: "shop.new-domain.example",
      url: "https://shop.new-domain.example",
    });
    const published = shop.state.products().filter((product) => product.onlineStoreUrl !== null);
    expect(published.length).toBeGreaterThan(0);
    for (const product of published) {
      expect(product.onlineStoreUrl).toMatch(/^https:\/\/shop\.new-domain\.example\/products\//);
    }
  });
});

describe("the /__fake/ routes", () => {
  it("list, read and change products", async () => {
    const list = await fetch(`${shop.url}/__fake/products`);
    const products = (await list.json()) as { id: string }[];
    expect(products.length).toBe(shop.state.products().length);
    const id = products[0]!.id;
    const patched = await control("PATCH", `/products/${encodeURIComponent(id)}`, {
      title: "Via HTTP",
    });
    expect(patched).toMatchObject({ status: 200, body: { title: "Via HTTP" } });
    const numeric = id.split("/").pop()!;
    expect((await control("GET", `/products/${numeric}`)).body.title).toBe("Via HTTP");
    expect((await control("GET", "/products/1")).status).toBe(404);
  });

  it("send webhooks, inject faults and show the requests seen", async () => {
    const sent = await control("POST", "/webhooks", { topic: "shop/update" });
    expect(sent.body).toMatchObject({ topic: "shop/update", status: 200 });
    await control("POST", "/faults/throttle", { count: 1 });
    expect((await graphql(shop, SHOP_QUERY)).body.errors).toEqual([
      expect.objectContaining({ message: "Throttled" }),
    ]);
    const requests = await fetch(`${shop.url}/__fake/requests`);
    const log = (await requests.json()) as { operationName: string; throttled: boolean }[];
    expect(log[log.length - 1]).toMatchObject({ operationName: "ShopDomains", throttled: true });
    const state = await control("GET", "/state");
    expect(state.body).toMatchObject({ counts: { products: shop.state.products().length } });
  });
});
