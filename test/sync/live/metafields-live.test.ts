/**
 * A shop's chosen product metafields survive live updates (issue 25, item 2): a product that
 * changes is read again with them, and an order's products/update, whose payload carries no
 * metafields, cannot pass for "stock only" when a metafield changed meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexedItem,
  installShop,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  variantsOf,
  waitFor,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { saveChosenMetafields } from "../../../app/models/shops.server";
import { data } from "../../fake-shopify/helpers";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 10, seed: 3 });
  await installShop(env);
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

const SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { userErrors { field message } }
}`;

const attributes = (gid: string) =>
  (indexedItem(env, gid)?.attributes ?? {}) as Record<string, unknown>;

describe("chosen metafields in live updates", () => {
  it("a metafield set in Shopify reaches the index with the product's next change, an order", async () => {
    await saveChosenMetafields(SHOP, [
      {
        namespace: "specs",
        key: "material",
        name: "Shell material",
        type: "single_line_text_field",
      },
    ]);
    const product = sellableProducts(env).find((p) =>
      variantsOf(p).some((v) => v.inventoryQuantity > 1),
    )!;
    const set = await data<{ metafieldsSet: { userErrors: unknown[] } }>(env.shopify, SET, {
      metafields: [
        {
          ownerId: product.id,
          namespace: "specs",
          key: "material",
          type: "single_line_text_field",
          value: "Recycled nylon",
        },
      ],
    });
    expect(set.metafieldsSet.userErrors).toEqual([]);
    expect(attributes(product.id)).not.toHaveProperty("Shell material");

    const variant = variantsOf(product).find((v) => v.inventoryQuantity > 1)!;
    await env.shopify.state.purchase(variant.id, 1).delivery;
    await waitFor(
      "the metafield in the index",
      () => JSON.stringify(attributes(product.id)["Shell material"]) === '["Recycled nylon"]',
    );
  });
});
