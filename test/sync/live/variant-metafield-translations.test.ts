/**
 * A chosen variant metafield's translation reaches a storefront domain's workspace live (issue 24
 * item 6, decision 0048), over real HTTP: the fake shop sells on a French domain whose workspace
 * the full sync fills; a variant's "Colour finish" is translated into French as a merchant does
 * it (`translationsRegister`). A product change then keeps the French value in the French
 * workspace, the document the live path sends is the one a full sync's fill sends, the queries
 * stay within Shopify's 1,000 points, and a translation changed later (no webhook tells of it)
 * reaches the workspace at the hourly check.
 */
import { createHash } from "node:crypto";
import { Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSchema } from "../../catalogue/helpers";
import { requestedCost } from "../../../dev/fake-shopify/cost";
import { asMerchant, METAFIELDS_SET, pollBulk, runBulk } from "../../fake-shopify/helpers";
import {
  indexedItem,
  installShop,
  numericId,
  productWritesSince,
  sellableProducts,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  variantsOf,
  waitFor,
  waitForEmptyOutbox,
  waitForResolvedLookups,
  WORKSPACE,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { saveChosenMetafields } from "../../../app/models/shops.server";
import { presenceLedgerKey } from "../../../app/sync/full/presence-workspaces.server";
import { startShopSync } from "../../../app/sync/full/run-full-sync.server";
import { checkChangedProducts } from "../../../app/sync/live/changed-products-check.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import {
  metafieldTranslationIdsPerQuery,
  metafieldTranslationsQuery,
  productTranslationsQuery,
  translationIdsPerQuery,
  translationsChangedBulkQuery,
} from "../../../app/sync/live/domain-workspaces.server";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let FRENCH = "";
const FINISH = {
  namespace: "specs",
  key: "finish",
  name: "Colour finish",
  type: "single_line_text_field",
  owner: "PRODUCTVARIANT" as const,
};

const frenchRuns = () =>
  env.prisma.syncRun.count({
    where: { shopDomain: presenceLedgerKey(SHOP, FRENCH), state: "succeeded" },
  });

beforeAll(async () => {
  env = await startLiveEnvironment({
    products: 8,
    pages: 0,
    articles: 0,
    seed: 5,
    presences: "sample",
    logBodies: true,
  });
  FRENCH = `${env.shopify.state.shop().primaryDomain.split(".")[0]}-fr`;
  await installShop(env);
  await waitFor(
    "the French domain's workspace to be filled",
    async () => (await frenchRuns()) === 1,
  );
  await saveChosenMetafields(SHOP, [FINISH]);
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

type Variant = { id: string; attributes?: Record<string, string[]> };
const variantIn = (workspaceId: string, productGid: string, variantGid: string) =>
  ((indexedItem(env, productGid, workspaceId)?.variants ?? []) as Variant[]).find(
    (variant) => variant.id === numericId(variantGid),
  );

const writesOf = (workspaceId: string, productGid: string, since: number) =>
  productWritesSince(env, workspaceId, productGid, since);

const settled = async () => {
  await waitForResolvedLookups(env);
  await waitForEmptyOutbox(env);
};

/** The merchant translates a metafield's value into French (Shopify sends no webhook for it). */
async function registerFrench(metafieldId: string, english: string, french: string) {
  const answer = await asMerchant<{ translationsRegister: { userErrors: unknown[] } }>(
    env.shopify,
    `mutation Register($id: ID!, $translations: [TranslationInput!]!) {
      translationsRegister(resourceId: $id, translations: $translations) { userErrors { message } }
    }`,
    {
      id: metafieldId,
      translations: [
        {
          key: "value",
          locale: "fr",
          value: french,
          translatableContentDigest: createHash("sha256").update(english).digest("hex"),
        },
      ],
    },
  );
  expect(answer.translationsRegister.userErrors).toEqual([]);
}

function costOf(query: string, ids: number): number {
  const operation = parse(query).definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;
  const variables = { ids: Array.from({ length: ids }, (_, i) => `gid://shopify/Metafield/${i}`) };
  return requestedCost(adminSchema(), operation, {}, variables).cost;
}

const product = () =>
  sellableProducts(env).find(
    (p) => variantsOf(p).length > 1 && variantsOf(p)[0]!.inventoryQuantity > 1,
  )!;
let finishId = "";

describe("a chosen variant metafield's translation in a storefront domain's workspace", () => {
  it("asks Shopify 2026-10's own documents", () => {
    for (const query of [
      metafieldTranslationsQuery(["fr", "pt-BR"]),
      translationsChangedBulkQuery("fr", [FINISH, { ...FINISH, key: "care" }]),
      translationsChangedBulkQuery("fr", [FINISH], [{ namespace: "specs", key: "material" }]),
    ]) {
      expect(validate(adminSchema(), parse(query)).map((error) => error.message)).toEqual([]);
    }
  });

  it("a product change sends the variant's French value to the French workspace, the English one to the primary", async () => {
    const chosen = product();
    const variant = variantsOf(chosen)[0]!;
    const set = await asMerchant<{ metafieldsSet: { metafields: { id: string }[] } }>(
      env.shopify,
      METAFIELDS_SET,
      {
        metafields: [
          {
            ownerId: variant.id,
            namespace: FINISH.namespace,
            key: FINISH.key,
            type: FINISH.type,
            value: "Matte black",
          },
        ],
      },
    );
    finishId = set.metafieldsSet.metafields[0]!.id;
    await registerFrench(finishId, "Matte black", "Noir mat");
    env.shopify.state.clearRequests();
    const since = env.emulator.state.requests().length;
    env.shopify.state.updateProduct(chosen.id, { vendor: "Atelier" }, { webhook: true });
    await settled();

    expect(variantIn(WORKSPACE, chosen.id, variant.id)?.attributes).toEqual({
      "Colour finish": ["Matte black"],
    });
    expect(variantIn(FRENCH, chosen.id, variant.id)?.attributes).toEqual({
      "Colour finish": ["Noir mat"],
    });
    expect(writesOf(FRENCH, chosen.id, since)).toHaveLength(1);
    const asked = env.shopify.state
      .requests()
      .filter((request) => request.operationName === "MetafieldTranslations");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.requestedQueryCost).toBeLessThanOrEqual(1000);
    if (process.env.PRINT_COSTS) {
      const of = (name: string) =>
        env.shopify.state.requests().filter((request) => request.operationName === name)[0];
      console.info(
        ["ProductTranslations", "MetafieldTranslations", "ProductsByIds"]
          .map(
            (name) =>
              `${name} ${of(name)?.requestedQueryCost} requested, ${of(name)?.actualQueryCost} actual`,
          )
          .join("; "),
      );
    }
  });

  it("the French document the live change sent is the one a full sync's fill sends", async () => {
    const chosen = product();
    const sentLive = indexedItem(env, chosen.id, FRENCH);
    const since = env.emulator.state.requests().length;
    const before = await frenchRuns();
    await startShopSync(SHOP, "resync", {
      checkEveryMs: 50,
      webhookGraceMs: 60_000,
      pollEveryMs: 100,
    });
    await waitFor(
      "the French domain's fill",
      async () => (await frenchRuns()) === before + 1,
      60_000,
    );
    // The fill computed the same document: it had nothing to send for the product.
    expect(writesOf(FRENCH, chosen.id, since)).toHaveLength(0);
    expect(indexedItem(env, chosen.id, FRENCH)).toEqual(sentLive);
    expect(JSON.stringify(sentLive)).toContain("Noir mat");
  }, 90_000);

  it("a translation changed afterwards reaches the French workspace at the hourly check", async () => {
    const chosen = product();
    const variant = variantsOf(chosen)[0]!;
    const since = env.emulator.state.requests().length;
    await registerFrench(finishId, "Matte black", "Noir satiné");
    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 50,
    });
    expect(JSON.parse(check!.items)).toContainEqual(
      expect.objectContaining({ id: numericId(chosen.id), action: "updated" }),
    );
    await settled();
    expect(variantIn(FRENCH, chosen.id, variant.id)?.attributes).toEqual({
      "Colour finish": ["Noir satiné"],
    });
    expect(writesOf(WORKSPACE, chosen.id, since)).toHaveLength(0);
    expect(writesOf(FRENCH, chosen.id, since)).toHaveLength(1);
  });

  it("a chosen product metafield's translation changed afterwards reaches the French workspace at the hourly check too", async () => {
    const MATERIAL = {
      namespace: "specs",
      key: "material",
      name: "Material",
      type: "single_line_text_field",
    };
    await saveChosenMetafields(SHOP, [FINISH, MATERIAL]);
    const chosen = product();
    const set = await asMerchant<{ metafieldsSet: { metafields: { id: string }[] } }>(
      env.shopify,
      METAFIELDS_SET,
      {
        metafields: [
          {
            ownerId: chosen.id,
            namespace: MATERIAL.namespace,
            key: MATERIAL.key,
            type: MATERIAL.type,
            value: "Recycled nylon",
          },
        ],
      },
    );
    const materialId = set.metafieldsSet.metafields[0]!.id;
    await registerFrench(materialId, "Recycled nylon", "Nylon recyclé");
    env.shopify.state.updateProduct(chosen.id, { vendor: "Atelier Nord" }, { webhook: true });
    await settled();
    const material = (workspaceId: string) =>
      (indexedItem(env, chosen.id, workspaceId)?.attributes as Record<string, string[]>)?.Material;
    expect(material(FRENCH)).toEqual(["Nylon recyclé"]);

    const since = env.emulator.state.requests().length;
    await registerFrench(materialId, "Recycled nylon", "Nylon 100 % recyclé");
    // The export the check compares dates the metafield's translation, under its product.
    const started = await runBulk(
      env.shopify,
      translationsChangedBulkQuery("fr", [FINISH], [MATERIAL]),
    );
    const { final } = await pollBulk(env.shopify, started.bulkOperation!.id);
    const lines = (await (await fetch(final.url!)).text())
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { id: string; __parentId?: string; translations?: unknown },
      );
    expect(lines.find((line) => line.id === materialId)).toMatchObject({
      __parentId: chosen.id,
      translations: [{ key: "value", updatedAt: expect.any(String) }],
    });
    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 50,
    });
    expect(JSON.parse(check!.items)).toContainEqual(
      expect.objectContaining({ id: numericId(chosen.id), action: "updated" }),
    );
    await settled();
    expect(material(FRENCH)).toEqual(["Nylon 100 % recyclé"]);
    expect(material(WORKSPACE)).toEqual(["Recycled nylon"]);
    expect(writesOf(WORKSPACE, chosen.id, since)).toHaveLength(0);
    expect(writesOf(FRENCH, chosen.id, since)).toHaveLength(1);
    await saveChosenMetafields(SHOP, [FINISH]);
  });

  it("each translations query stays within Shopify's 1,000 points at its ids per query", () => {
    for (const locales of [["fr"], ["fr", "de"], ["fr", "de", "it", "es", "pt-BR"]]) {
      const perQuery = metafieldTranslationIdsPerQuery(locales.length);
      const query = metafieldTranslationsQuery(locales);
      expect(costOf(query, perQuery)).toBeLessThanOrEqual(1000);
      if (perQuery < 250) expect(costOf(query, perQuery + 1)).toBeGreaterThan(1000);
      for (const keys of [
        [],
        ["specs.material"],
        Array.from({ length: 10 }, (_, i) => `s.k${i}`),
      ]) {
        const ids = translationIdsPerQuery(locales.length, keys.length);
        const products = productTranslationsQuery(locales, keys);
        expect(costOf(products, ids)).toBeLessThanOrEqual(1000);
        expect(costOf(products, ids + 1)).toBeGreaterThan(1000);
      }
    }
    if (process.env.PRINT_COSTS)
      console.info(
        `MetafieldTranslations: 1 locale ${metafieldTranslationIdsPerQuery(1)} ids, ${costOf(metafieldTranslationsQuery(["fr"]), metafieldTranslationIdsPerQuery(1))} points; ProductTranslations: 1 locale ${translationIdsPerQuery(1)} ids, ${costOf(productTranslationsQuery(["fr"]), translationIdsPerQuery(1))} points`,
      );
  });
});
