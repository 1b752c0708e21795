/**
 * Live changes reach the storefront domains' workspaces (issue 24 item 6, decision 0037), over
 * real HTTP: the fake shop sells on its primary domain and on a French domain of its own, whose
 * workspace the first full sync filled; the worker then takes Shopify's webhooks. A product edit
 * shows in English on the primary and in French on the French domain, a sale's stock on both
 * without reading anything more, a deleted product leaves both; a translation, which no webhook
 * announces, is found by the hourly check; a French workspace that fails loses nothing and
 * holds up nothing of the primary, and nothing is sent twice.
 */
import { createHash } from "node:crypto";
import { parse, validate } from "graphql";
import { adminSchema } from "../../catalogue/helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MERCHANT_ACCESS_TOKEN } from "../../../dev/fake-shopify/server";
import { graphql } from "../../fake-shopify/helpers";
import {
  ACCOUNT,
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
import { presenceLedgerKey } from "../../../app/sync/full/presence-workspaces.server";
import { reportedQuotas } from "../../../app/models/quota-usage.server";
import { checkChangedProducts } from "../../../app/sync/live/changed-products-check.server";
import { refreshStorefrontPresencesSoon } from "../../../app/shop/follow-storefront-presences.server";
import { chooseStorefronts } from "../../../app/shop/choose-storefronts.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { marketContextQuery } from "../../../app/sync/live/domain-market.server";
import {
  productTranslationsQuery,
  translationsChangedBulkQuery,
} from "../../../app/sync/live/domain-workspaces.server";
import { marketChangesBulkQuery } from "../../../app/sync/live/market-changes.server";
import type { ProductSnapshot } from "../../../dev/fake-shopify/server";
import { optionValueId } from "../../../dev/fake-shopify/product-options";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let FRENCH = "";

beforeAll(async () => {
  env = await startLiveEnvironment({
    products: 12,
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
    async () =>
      (await env.prisma.syncRun.count({
        where: { shopDomain: presenceLedgerKey(SHOP, FRENCH), state: "succeeded" },
      })) === 1,
  );
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await env?.close();
});

const french = (gid: string) => indexedItem(env, gid, FRENCH);
const english = (gid: string) => indexedItem(env, gid, WORKSPACE);
const operations = () => env.shopify.state.requests().map((request) => request.operationName);
const points = (operation: string) =>
  env.shopify.state
    .requests()
    .filter((request) => request.operationName === operation)
    .reduce((sum, request) => sum + (request.actualQueryCost ?? 0), 0);

/** The emulator's product writes into one workspace since `since` naming this product. */
const writesOf = (workspaceId: string, productGid: string, since: number) =>
  productWritesSince(env, workspaceId, productGid, since);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The merchant translates a product's title into French (Shopify sends no webhook for it). */
function registerFrenchTitle(product: ProductSnapshot, title: string) {
  return registerTitle(product, "fr", title);
}

async function registerTitle(product: ProductSnapshot, locale: string, title: string) {
  const answer = await graphql<{
    translationsRegister: { userErrors: { message: string }[] };
  }>(
    env.shopify,
    `
      mutation Register($id: ID!, $translations: [TranslationInput!]!) {
        translationsRegister(resourceId: $id, translations: $translations) {
          userErrors {
            message
          }
        }
      }
    `,
    {
      id: product.id,
      translations: [
        {
          key: "title",
          locale,
          value: title,
          translatableContentDigest: sha256(String(product.title)),
        },
      ],
    },
    { token: DEFAULT_MERCHANT_ACCESS_TOKEN },
  );
  expect(answer.body.data?.translationsRegister.userErrors).toEqual([]);
}

/** A merchant's change through the Admin API's own mutation (none sends a webhook). */
async function asMerchant(query: string, variables: Record<string, unknown>): Promise<void> {
  const answer = await graphql<Record<string, { userErrors: unknown[] }>>(
    env.shopify,
    query,
    variables,
    { token: DEFAULT_MERCHANT_ACCESS_TOKEN },
  );
  expect(answer.body.errors).toBeUndefined();
  for (const result of Object.values(answer.body.data ?? {})) expect(result.userErrors).toEqual([]);
}

const settled = async () => {
  await waitForResolvedLookups(env);
  await waitForEmptyOutbox(env);
};

describe("live changes in a storefront domain's workspace", () => {
  it("asks Shopify 2026-10's own documents for the translations and the markets' prices", () => {
    for (const query of [
      productTranslationsQuery(["fr", "pt-BR"]),
      productTranslationsQuery(["fr", "pt-BR"], ["specs.material", "custom.care"]),
      marketContextQuery(["FR", "DE"]),
      translationsChangedBulkQuery("fr"),
      marketChangesBulkQuery("FR", true),
      marketChangesBulkQuery("FR", false),
    ]) {
      expect(validate(adminSchema(), parse(query)).map((error) => error.message)).toEqual([]);
    }
  });

  it("a product edit shows in English on the primary and in French on the French domain, one write each", async () => {
    const product = sellableProducts(env)[0]!;
    expect(french(product.id)).toBeDefined();
    const since = env.emulator.state.requests().length;
    env.shopify.state.clearRequests();
    const edited = env.shopify.state.updateProduct(product.id, { title: "Trail lantern" });
    await registerFrenchTitle(edited, "Lanterne de randonnée");
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();

    expect(english(product.id)?.name).toBe("Trail lantern");
    expect(french(product.id)?.name).toBe("Lanterne de randonnée");
    expect(String(french(product.id)?.url)).toMatch(/^https:\/\/[^/]+\.fr\/products\//);
    expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(1);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
    // One re-read, then one query for the translations of every domain's language.
    expect(operations().filter((op) => op === "ProductTranslations")).toHaveLength(1);
    const cost = points("ProductTranslations");
    if (process.env.PRINT_COSTS)
      console.info(
        `1 product: ProductTranslations ${cost} points, PresenceMarket ${points("PresenceMarket")}, MarketContexts ${points("MarketContexts")}, ProductsByIds ${points("ProductsByIds")} points`,
      );
    expect(cost).toBeLessThanOrEqual(points("ProductsByIds"));

    // The same webhook again: nothing changed, nothing is sent to either workspace.
    const again = env.emulator.state.requests().length;
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();
    expect(writesOf(WORKSPACE, product.id, again)).toHaveLength(0);
    expect(writesOf(FRENCH, product.id, again)).toHaveLength(0);
  });

  it("a product edit keeps its options' French names and values in the French workspace, as the fill sent them", async () => {
    const product = sellableProducts(env).find((p) =>
      (p.variants as { selectedOptions?: { name: string }[] }[]).some((v) =>
        v.selectedOptions?.some((o) => o.name === "Size"),
      ),
    )!;
    expect(product).toBeDefined();
    const filled = french(product.id) as { attributes?: Record<string, string[]> } | undefined;
    expect(filled?.attributes?.Taille).toBeDefined();
    expect(filled?.attributes?.Size).toBeUndefined();
    const since = env.emulator.state.requests().length;
    env.shopify.state.updateProduct(product.id, { vendor: "Atelier" });
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();
    const after = french(product.id) as {
      attributes?: Record<string, string[]>;
      variants?: unknown;
    };
    // The live re-read names the options as the fill did: the vendor is the only change.
    expect(after.attributes?.Taille).toEqual(filled?.attributes?.Taille);
    expect(after.variants).toEqual((filled as { variants?: unknown }).variants);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
  });

  it("a product edit keeps the France market's fixed euro price and currency in the French workspace, the shop's in the primary", async () => {
    // The France market's catalog: the one with fixed prices (the primary market's has none).
    const catalog = env.shopify.state
      .marketCatalogs()
      .find((c) => Object.keys(c.fixedPrices).length > 0)!;
    const fixed = Object.entries(catalog.fixedPrices);
    const product = sellableProducts(env).find(
      (p) =>
        french(p.id) !== undefined &&
        variantsOf(p).some((v) => fixed.some(([variantId]) => variantId === v.id)),
    )!;
    expect(product).toBeDefined();
    const priceBefore = french(product.id)?.price;
    env.shopify.state.updateProduct(product.id, { title: "Summit stove" });
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();

    expect(english(product.id)?.name).toBe("Summit stove");
    expect(french(product.id)?.name).toBe("Summit stove");
    // The market's price, as the fill sent it: not the shop's base price.
    expect(french(product.id)?.price).toBe(priceBefore);
    expect(french(product.id)?.currency).toBe("EUR");
    const fixedPrices = fixed
      .filter(([variantId]) => variantsOf(product).some((v) => v.id === variantId))
      .map(([, price]) => Number(price.price));
    expect(fixedPrices).toContain(french(product.id)?.price);
    expect(english(product.id)?.price).not.toBe(french(product.id)?.price);
  });

  it("a sale's stock reaches the French domain from the payload, with no read for the French workspace", async () => {
    // One the France market shows (the sample market leaves one product out).
    const product = sellableProducts(env).filter((p) => french(p.id) !== undefined)[1]!;
    const variant = variantsOf(product).find((v) => v.inventoryQuantity > 1)!;
    // The first purchase reads the product's stock model once (the primary's own rule).
    await env.shopify.state.purchase(variant.id, 1).delivery;
    await settled();
    env.shopify.state.clearRequests();
    await env.shopify.state.purchase(variant.id, 1).delivery;
    await settled();
    const store = variantsOf(env.shopify.state.product(product.id)!)
      .filter((v) => v.inventoryItem.tracked)
      .reduce((sum, v) => sum + Math.max(0, v.inventoryQuantity), 0);
    expect(english(product.id)?.stock_quantity).toBe(store);
    expect(french(product.id)?.stock_quantity).toBe(store);
    expect(operations()).toEqual([]);
  });

  it("a sale's stock of a product the France market leaves out costs no read: the French workspace does not hold it", async () => {
    const product = sellableProducts(env).find(
      (p) => french(p.id) === undefined && variantsOf(p).some((v) => v.inventoryQuantity > 1),
    );
    expect(product).toBeDefined();
    const variant = variantsOf(product!).find((v) => v.inventoryQuantity > 1)!;
    const since = env.emulator.state.requests().length;
    env.shopify.state.clearRequests();
    await env.shopify.state.purchase(variant.id, 1).delivery;
    await settled();
    const store = variantsOf(env.shopify.state.product(product!.id)!)
      .filter((v) => v.inventoryItem.tracked)
      .reduce((sum, v) => sum + Math.max(0, v.inventoryQuantity), 0);
    expect(english(product!.id)?.stock_quantity).toBe(store);
    expect(french(product!.id)).toBeUndefined();
    expect(writesOf(FRENCH, product!.id, since)).toHaveLength(0);
    // Before, each order re-read it whole, with its translations and the market's prices.
    expect(operations()).toEqual([]);
  });

  it("a translation registered without any webhook reaches the French domain at the hourly check", async () => {
    const product = sellableProducts(env)[2]!;
    const before = english(product.id)?.name;
    const since = env.emulator.state.requests().length;
    await registerFrenchTitle(product, "Gourde isotherme");
    const check = await checkChangedProducts({
      shopDomain: SHOP,
      admin: await adminFor(SHOP),
      pollMs: 50,
    });
    expect(JSON.parse(check!.items)).toContainEqual(
      expect.objectContaining({ id: numericId(product.id), action: "updated" }),
    );
    await settled();
    expect(french(product.id)?.name).toBe("Gourde isotherme");
    expect(english(product.id)?.name).toBe(before);
    expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(0);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
  });

  it("an option value translated without any webhook reaches the French domain at the hourly check", async () => {
    const product = sellableProducts(env).find((p) =>
      (p.variants as { selectedOptions?: { name: string; value: string }[] }[]).some((v) =>
        v.selectedOptions?.some((o) => o.name === "Size" && o.value === "M"),
      ),
    )!;
    expect(product).toBeDefined();
    const position =
      (product.options as { name: string }[]).findIndex((option) => option.name === "Size") + 1;
    const since = env.emulator.state.requests().length;
    env.shopify.state.translate(optionValueId(product.id, position, "M"), "fr", { name: "Moyen" });
    await checkChangedProducts({ shopDomain: SHOP, admin: await adminFor(SHOP), pollMs: 50 });
    await settled();
    const sizes = (french(product.id) as { attributes?: Record<string, string[]> }).attributes
      ?.Taille;
    expect(sizes).toContain("Moyen");
    expect(sizes).not.toContain("M");
    expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(0);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
  });

  it("a fixed price changed in the France market's price list, and a product unpublished from France, reach the French workspace at the hourly check, once", async () => {
    const catalog = env.shopify.state
      .marketCatalogs()
      .find((c) => Object.keys(c.fixedPrices).length > 0)!;
    const [priced, leaving] = sellableProducts(env)
      .slice(5)
      .filter((p) => french(p.id) !== undefined);
    const variant = variantsOf(priced!)[0]!;
    // Each check looks back to 5 minutes before the previous one began: the previous ones are
    // moved past the fake's seeded translations (dated at its start), so only the market's
    // changes can name these products.
    const admin = await adminFor(SHOP);
    const check = async () => {
      await env.prisma.reconcileCheck.updateMany({
        where: { shopDomain: SHOP },
        data: { startedAt: new Date(Date.now() + 10 * 60_000) },
      });
      return checkChangedProducts({ shopDomain: SHOP, admin, pollMs: 50 });
    };
    await check();
    await settled();
    const englishBefore = [english(priced!.id), english(leaving!.id)];
    const since = env.emulator.state.requests().length;
    await asMerchant(
      `mutation A($id: ID!, $prices: [PriceListPriceInput!]!) { priceListFixedPricesAdd(priceListId: $id, prices: $prices) { userErrors { message } } }`,
      {
        id: catalog.priceListId,
        prices: [{ variantId: variant.id, price: { amount: "7.77", currencyCode: "EUR" } }],
      },
    );
    await asMerchant(
      `mutation U($id: ID!, $input: [PublicationInput!]!) { publishableUnpublish(id: $id, input: $input) { userErrors { message } } }`,
      { id: leaving!.id, input: [{ publicationId: catalog.publicationId }] },
    );
    // No webhook tells the app (Shopify 2026-10 has none for either).
    expect(await env.prisma.pendingChange.count()).toBe(0);

    env.shopify.state.clearRequests();
    const found = await check();
    expect(JSON.parse(found!.items)).toEqual([
      { id: numericId(priced!.id), title: priced!.title, action: "updated" },
      { id: numericId(leaving!.id), title: leaving!.title, action: "removed" },
    ]);
    // Cost (decision 0047): per domain market, its market query (11 points) and one more export
    // (10 points to start, 1 a poll; the export itself costs no query points).
    expect(operations().filter((name) => name === "PresenceMarket")).toHaveLength(1);
    expect(points("PresenceMarket")).toBe(11);
    expect(operations().filter((name) => name === "BulkOperationRunQuery")).toHaveLength(4);
    await settled();

    const kept = french(priced!.id) as {
      currency?: string;
      variants?: { id: string; price?: number }[];
    };
    expect(kept.variants?.find((v) => v.id === numericId(variant.id))?.price).toBe(7.77);
    expect(kept.currency).toBe("EUR");
    expect(french(leaving!.id)).toBeUndefined();
    expect([english(priced!.id), english(leaving!.id)]).toEqual(englishBefore);
    for (const product of [priced!, leaving!]) {
      expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(0);
      expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
    }

    // A second check finds nothing more to send to either workspace.
    const after = env.emulator.state.requests().length;
    expect((await check())!.repaired).toBe(0);
    await settled();
    expect(
      env.emulator.state
        .requests()
        .slice(after)
        .filter((r) => r.method !== "GET" && r.path.startsWith("/products")),
    ).toEqual([]);
  });

  it("a French workspace that fails holds up nothing of the primary, and gets the change once it is back", async () => {
    const product = sellableProducts(env)[3]!;
    const since = env.emulator.state.requests().length;
    env.emulator.state.injectFault({
      status: 503,
      count: 10_000,
      match: { path: "/products", workspace: FRENCH },
    });
    env.shopify.state.updateProduct(product.id, { title: "Camp stool" }, { webhook: true });
    await waitFor("the primary's change", () => english(product.id)?.name === "Camp stool");
    // The change waits in the outbox for the French workspace.
    expect(await env.prisma.pendingChange.count()).toBe(1);
    expect(french(product.id)?.name).not.toBe("Camp stool");
    env.emulator.state.clearFaults();
    await settled();
    expect(french(product.id)?.name).toBe("Camp stool");
    expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(1);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
  });

  it("the French domain's reads failing at Shopify hold up nothing of the primary, and the change reaches French once they work", async () => {
    const product = sellableProducts(env)[4]!;
    const since = env.emulator.state.requests().length;
    const brands = (gid: string, workspaceId: string) =>
      indexedItem(env, gid, workspaceId)?.brands as unknown;
    // Shopify's internal error for every translations query: the French workspace cannot be mapped.
    env.shopify.state.failNextOperation("ProductTranslations", 10_000);
    env.shopify.state.updateProduct(product.id, { vendor: "Kettle Works" }, { webhook: true });
    await waitFor("the primary's change", () =>
      JSON.stringify(brands(product.id, WORKSPACE)).includes("Kettle Works"),
    );
    // The change waits in the outbox for the French workspace, with Shopify's reason.
    await waitFor("the French workspace's reason", async () =>
      /^[^ ]+\.fr: .*Internal error/.test(
        (await env.prisma.pendingChange.findFirst())?.lastError ?? "",
      ),
    );
    expect(JSON.stringify(brands(product.id, FRENCH))).not.toContain("Kettle Works");
    env.shopify.state.clearFaults();
    await settled();
    expect(JSON.stringify(brands(product.id, FRENCH))).toContain("Kettle Works");
    expect(writesOf(WORKSPACE, product.id, since)).toHaveLength(1);
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(1);
  });

  it("the French domain unticked in Settings while the worker runs: emptied, then no edit reaches it; ticked again: filled, and the next edit reaches it", async () => {
    const host = env.shopify.state
      .presences()
      .webPresences.find((p) => p.host?.endsWith(".fr"))!.host!;
    const frenchProducts = () =>
      env.emulator.state.workspace(ACCOUNT, FRENCH)?.products.length ?? 0;
    // One the France market shows (it leaves one out); the last test edits the seventh.
    const product = sellableProducts(env).findLast(
      (p, i) => i !== 6 && french(p.id) !== undefined,
    )!;

    expect((await chooseStorefronts(SHOP, [], [host])).ok).toBe(true);
    await waitFor("the French workspace emptied", () => frenchProducts() === 0);
    const since = env.emulator.state.requests().length;
    await env.shopify.state.sendWebhook(
      "products/update",
      env.shopify.state.updateProduct(product.id, { title: "Folding stool" }).id,
    );
    await settled();
    expect(english(product.id)?.name).toBe("Folding stool");
    expect(writesOf(FRENCH, product.id, since)).toHaveLength(0);

    expect((await chooseStorefronts(SHOP, [host], [host])).ok).toBe(true);
    await waitFor("the French workspace filled again", () => french(product.id) !== undefined);
    await waitFor(
      "the fill recorded",
      async () =>
        (await env.prisma.syncRun.count({
          where: { shopDomain: presenceLedgerKey(SHOP, FRENCH), state: "succeeded" },
        })) > 0,
    );
    const edited = env.shopify.state.updateProduct(product.id, { title: "Folding stool, oak" });
    await registerFrenchTitle(edited, "Tabouret pliant en chêne");
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();
    expect(french(product.id)?.name).toBe("Tabouret pliant en chêne");
  });

  it("a product created on the store counts twice in the shop's month's quota, as the service counts its account", async () => {
    const used = () => env.emulator.state.account(ACCOUNT)!.usage.used.products ?? 0;
    const before = used();
    const created = env.shopify.state.createProduct(
      { title: "Camp kettle", variants: [{ price: "24.00", inventoryQuantity: 5 }] },
      { webhook: true },
    );
    await waitFor("the new product in both workspaces", () =>
      Promise.resolve(english(created.id) !== undefined && french(created.id) !== undefined),
    );
    await settled();
    const shop = await reportedQuotas(SHOP, new Date());
    // One new product in each workspace; the French write came last, and the shop's row holds
    // the count the service reported to it (the Dashboard's, the next plan's).
    expect(used()).toBe(before + 2);
    expect(shop.product?.used).toBe(used());
  });

  it("the French write refused for the month's quota marks the shop's quota spent: its next new product waits with the reason", async () => {
    const account = env.emulator.state.account(ACCOUNT)!;
    const limit = account.quotas.products!;
    // Room for one more product: the shop's workspace takes it, the French one is refused.
    env.emulator.state.spendQuota(ACCOUNT, "products", limit - account.usage.used.products! - 1);
    const first = env.shopify.state.createProduct(
      { title: "Last one in", variants: [{ price: "9.00", inventoryQuantity: 2 }] },
      { webhook: true },
    );
    await waitFor("the last product that fits in the shop's workspace", () =>
      Promise.resolve(english(first.id) !== undefined),
    );
    await settled();
    expect(french(first.id)).toBeUndefined();
    expect((await reportedQuotas(SHOP, new Date())).product).toMatchObject({ used: limit, limit });

    // The account is out: the shop's next new product is not sent, it waits with the reason.
    const second = env.shopify.state.createProduct(
      { title: "One too many", variants: [{ price: "9.00", inventoryQuantity: 2 }] },
      { webhook: true },
    );
    await waitFor("the new product to wait for the quota", async () => {
      const row = await env.prisma.pendingChange.findFirst({
        where: { productId: numericId(second.id) },
      });
      return row?.lastError?.includes("quota") === true;
    });
    expect(english(second.id)).toBeUndefined();
    await env.prisma.pendingChange.deleteMany({});
  });

  // The worker keeps each storefront domain's market between passes (ShopMemory.marketPlanOf) as
  // long as it keeps the shop's presences: a market changed in Shopify must reach its next pass.
  it("the France market's currency changed to Swiss francs: the next edit reaches the French workspace in francs; edits before it ask Shopify for the market once", async () => {
    const product = sellableProducts(env)
      .filter((p) => french(p.id) !== undefined)
      .at(-1)!;
    const edit = async (title: string) => {
      await env.shopify.state.sendWebhook(
        "products/update",
        env.shopify.state.updateProduct(product.id, { title }).id,
      );
      await settled();
      expect(french(product.id)?.name).toBe(title);
    };
    const marketReads = () => operations().filter((name) => name === "PresenceMarket").length;
    await edit("Trail lantern");
    const before = marketReads();
    await edit("Trail lantern, brass");
    await edit("Trail lantern, copper");
    expect(marketReads()).toBe(before);
    expect(french(product.id)?.currency).toBe("EUR");

    const market = env.shopify.state.presences().webPresences.find((p) => p.host?.endsWith(".fr"))!
      .markets[0]!;
    const setCurrency = async (code: string) => {
      await asMerchant(
        `mutation Currency($id: ID!, $input: MarketUpdateInput!) { marketUpdate(id: $id, input: $input) { market { id } userErrors { message } } }`,
        { id: market.id, input: { currencySettings: { baseCurrency: code } } },
      );
      // What the app does on Shopify's `markets/update` (route /webhooks/presences).
      await refreshStorefrontPresencesSoon(SHOP, adminFor);
    };
    try {
      await setCurrency("CHF");
      await edit("Trail lantern, steel");
      expect(french(product.id)?.currency).toBe("CHF");
      expect(english(product.id)?.currency).not.toBe("CHF");
      expect(marketReads()).toBe(before + 1);
    } finally {
      await setCurrency("EUR");
    }
  });

  it("the France market's currency changed while Shopify's webhook was lost: the hourly check finds it, and the French workspace gets francs although the worker kept the euro market", async () => {
    const product = sellableProducts(env)
      .filter((p) => french(p.id) !== undefined)
      .at(-2)!;
    await env.shopify.state.sendWebhook(
      "products/update",
      env.shopify.state.updateProduct(product.id, { title: "Bivouac pot" }).id,
    );
    await settled();
    expect(french(product.id)).toMatchObject({ name: "Bivouac pot", currency: "EUR" });

    const market = env.shopify.state.presences().webPresences.find((p) => p.host?.endsWith(".fr"))!
      .markets[0]!;
    const setCurrency = (code: string) =>
      asMerchant(
        `mutation Currency($id: ID!, $input: MarketUpdateInput!) { marketUpdate(id: $id, input: $input) { market { id } userErrors { message } } }`,
        { id: market.id, input: { currencySettings: { baseCurrency: code } } },
      );
    // Shopify's markets/update never reaches the app.
    env.shopify.state.setApp({ appUrl: null });
    try {
      await setCurrency("CHF");
    } finally {
      env.shopify.state.setApp({ appUrl: env.app.url });
    }
    try {
      // The check looks back from the previous one: moved ahead, only the market names products.
      await env.prisma.reconcileCheck.updateMany({
        where: { shopDomain: SHOP },
        data: { startedAt: new Date(Date.now() + 10 * 60_000) },
      });
      await checkChangedProducts({ shopDomain: SHOP, admin: await adminFor(SHOP), pollMs: 50 });
      await settled();
      expect(french(product.id)).toMatchObject({ name: "Bivouac pot", currency: "CHF" });
    } finally {
      await setCurrency("EUR");
      await refreshStorefrontPresencesSoon(SHOP, adminFor);
      await settled();
    }
  });

  it("a deleted product leaves both workspaces", async () => {
    const product = sellableProducts(env)[4]!;
    expect(french(product.id)).toBeDefined();
    env.shopify.state.deleteProduct(product.id, { webhook: true });
    await settled();
    expect(english(product.id)).toBeUndefined();
    expect(french(product.id)).toBeUndefined();
  });

  // The worker keeps the shop's presences between passes (ShopMemory.presencesOf): a read of
  // Shopify that changes them must reach its next pass.
  it("the French domain switched to German while the worker runs: its next product edit reaches that workspace in German", async () => {
    const product = sellableProducts(env)[6]!;
    await env.shopify.state.sendWebhook(
      "products/update",
      env.shopify.state.updateProduct(product.id, { title: "Camp kettle" }).id,
    );
    await settled();
    expect(english(product.id)?.name).toBe("Camp kettle");
    expect(french(product.id)).toBeDefined();

    const presence = env.shopify.state
      .presences()
      .webPresences.find((p) => p.host?.endsWith(".fr"))!;
    await asMerchant(
      `mutation Switch($id: ID!, $input: WebPresenceUpdateInput!) { webPresenceUpdate(id: $id, input: $input) { webPresence { id } userErrors { message } } }`,
      { id: presence.id, input: { defaultLocale: "de", alternateLocales: [] } },
    );
    await refreshStorefrontPresencesSoon(SHOP, adminFor);
    await settled();

    const edited = env.shopify.state.updateProduct(product.id, { title: "Camp kettle, steel" });
    await registerTitle(edited, "de", "Campingkessel aus Stahl");
    await env.shopify.state.sendWebhook("products/update", product.id);
    await settled();
    expect(english(product.id)?.name).toBe("Camp kettle, steel");
    expect(french(product.id)?.name).toBe("Campingkessel aus Stahl");
  });
});
