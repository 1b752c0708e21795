/**
 * A shop's chosen product metafields survive live updates (issue 25, item 2): a product that
 * changes is read again with them, and an order's products/update, whose payload carries no
 * metafields, cannot pass for "stock only" when a metafield changed meanwhile. A chosen variant
 * metafield (docs/decisions/0033) is read again with its variant the same way, and the hourly
 * check, whose export carries it too, sees no difference where there is none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexedItem,
  installShop,
  numericId,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  variantsOf,
  waitFor,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { saveChosenMetafields } from "../../../app/models/shops.server";
import { checkChangedProducts } from "../../../app/sync/live/changed-products-check.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
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

  it("a variant metafield set in Shopify reaches that variant in the index with the next order, and the hourly check finds nothing to repair", async () => {
    await saveChosenMetafields(SHOP, [
      {
        namespace: "specs",
        key: "material",
        name: "Shell material",
        type: "single_line_text_field",
      },
      {
        namespace: "specs",
        key: "inseam",
        name: "Inseam",
        type: "dimension",
        owner: "PRODUCTVARIANT",
      },
    ]);
    const product = sellableProducts(env).find(
      (p) => variantsOf(p).length > 1 && variantsOf(p).some((v) => v.inventoryQuantity > 1),
    )!;
    const [measured, other] = variantsOf(product);
    const set = await data<{ metafieldsSet: { userErrors: unknown[] } }>(env.shopify, SET, {
      metafields: [
        {
          ownerId: measured!.id,
          namespace: "specs",
          key: "inseam",
          type: "dimension",
          value: JSON.stringify({ value: 81, unit: "cm" }),
        },
      ],
    });
    expect(set.metafieldsSet.userErrors).toEqual([]);
    const variantsInIndex = () =>
      (indexedItem(env, product.id)?.variants ?? []) as {
        id: string;
        attributes?: Record<string, string[]>;
      }[];
    expect(variantsInIndex().some((v) => v.attributes)).toBe(false);

    const sold = variantsOf(product).find((v) => v.inventoryQuantity > 1)!;
    await env.shopify.state.purchase(sold.id, 1).delivery;
    await waitFor(
      "the variant's metafield in the index",
      () =>
        JSON.stringify(
          variantsInIndex().find((v) => v.id === numericId(measured!.id))?.attributes,
        ) === JSON.stringify({ Inseam: ["81 cm"] }),
    );
    expect(
      variantsInIndex().find((v) => v.id === numericId(other!.id))?.attributes,
    ).toBeUndefined();
    expect(attributes(product.id).Inseam).toEqual([expect.stringMatching(/: 81 cm$/)]);

    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 20,
    });
    expect(check).toMatchObject({ repaired: 0, error: null });
  });

  it("a list of product references and a variant's reference reach the index as the names of what they reference, and the hourly check finds nothing to repair", async () => {
    await saveChosenMetafields(SHOP, [
      { namespace: "custom", key: "related", name: "Related", type: "list.product_reference" },
      {
        namespace: "custom",
        key: "spare",
        name: "Spare part",
        type: "variant_reference",
        owner: "PRODUCTVARIANT",
      },
    ]);
    const sellable = sellableProducts(env);
    const product = sellable.find((p) => variantsOf(p).some((v) => v.inventoryQuantity > 1))!;
    const [first, second] = sellable.filter((p) => p.id !== product.id);
    const spare = variantsOf(second!)[0]!;
    const set = await data<{ metafieldsSet: { userErrors: unknown[] } }>(env.shopify, SET, {
      metafields: [
        {
          ownerId: product.id,
          namespace: "custom",
          key: "related",
          type: "list.product_reference",
          value: JSON.stringify([first!.id, second!.id]),
        },
        {
          ownerId: variantsOf(product)[0]!.id,
          namespace: "custom",
          key: "spare",
          type: "variant_reference",
          value: spare.id,
        },
      ],
    });
    expect(set.metafieldsSet.userErrors).toEqual([]);
    expect(attributes(product.id)).not.toHaveProperty("Related");

    const sold = variantsOf(product).find((v) => v.inventoryQuantity > 1)!;
    await env.shopify.state.purchase(sold.id, 1).delivery;
    await waitFor(
      "the references' names in the index",
      () =>
        JSON.stringify(attributes(product.id).Related) ===
        JSON.stringify([first!.title, second!.title]),
    );
    const variants = (indexedItem(env, product.id)?.variants ?? []) as {
      attributes?: Record<string, string[]>;
    }[];
    expect(variants[0]?.attributes?.["Spare part"]?.[0]).toContain(String(second!.title));

    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 20,
    });
    expect(check).toMatchObject({ repaired: 0, error: null });
  });
});
