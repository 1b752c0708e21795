/**
 * A storefront domain of its own gets its own workspace (issue 24 item 2, decision 0032): a full
 * sync of the demo (the fake Shopify over HTTP with its French market on `demo-store.fr`, the
 * real app code, the service emulator over HTTP) fills the `demo-store-fr` workspace with the
 * catalogue as a French shopper there sees it: French titles, descriptions, handles and URLs on
 * that domain, English where a translation is missing or outdated; the primary workspace keeps
 * the English catalogue exactly as before. An unchanged resync sends nothing to either.
 */
import type { SyncRun } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, type RunningDemo } from "../../../dev/demo/admin-demo";
import { startTestDemo } from "../../../testkit/demo-browser";
import prisma from "../../../app/models/db.server";
import { runById, runCounts, startRun } from "../../../app/models/sync-runs.server";
import { resumeOrphanedRuns } from "../../../app/sync/full/resume-runs.server";
import { processLeases } from "../../../app/sync/engine/process-leases.server";
import * as shopSync from "../../../app/sync/full/run-full-sync.server";
import { presenceLedgerKey } from "../../../app/sync/full/presence-workspaces.server";
import { storefrontPresencesOf } from "../../../app/models/storefront-presences.server";
import { reportedQuotas } from "../../../app/models/quota-usage.server";
import { deleteAllShopData, saveChosenMetafields } from "../../../app/models/shops.server";
import { captureLogs } from "../../../testkit/capture-logs";

let demo: RunningDemo;
const QUICK = { checkEveryMs: 50, webhookGraceMs: 60_000, pollEveryMs: 100 };
const FRENCH_WORKSPACE = "demo-store-fr";
const FRENCH_KEY = presenceLedgerKey(DEMO_SHOP, FRENCH_WORKSPACE);

beforeAll(async () => {
  demo = await startTestDemo({ products: 20, presences: "sample" });
  await demo.firstSync;
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

async function runEnded(id: string): Promise<SyncRun> {
  for (;;) {
    const current = await prisma.syncRun.findUniqueOrThrow({ where: { id } });
    if (current.state !== "running") return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A resync of the shop, then the French domain's run that follows it. */
async function resync(): Promise<{ primary: SyncRun; french: SyncRun }> {
  const started = await shopSync.startShopSync(DEMO_SHOP, "resync", QUICK);
  const primary = await runEnded(started.id);
  for (let waited = 0; waited < 60_000; waited += 100) {
    const french = await prisma.syncRun.findFirst({
      where: { shopDomain: FRENCH_KEY, startedAt: { gte: primary.startedAt } },
      orderBy: { startedAt: "desc" },
    });
    if (french && french.state !== "running") return { primary, french };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the French domain's workspace was not filled");
}

const workspace = (id: string) => demo.emulator.state.workspace("professional", id);
interface Sent {
  id: string;
  name: string;
  url: string;
  content: string;
  price?: number;
  currency?: string;
  variants?: { id: string; price?: number; currency?: string }[];
}
const productsIn = (id: string) => (workspace(id)?.products ?? []) as unknown as Sent[];
const serviceId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
/** The France market's catalog in the fake: price list, publication, fixed prices. */
const franceCatalog = () => {
  const france = demo.shopify.state
    .presences()
    .webPresences.flatMap((p) => p.markets)
    .find((m) => m.handle === "fr")!;
  return demo.shopify.state.marketCatalogs().find((c) => c.marketId === france.id)!;
};

/** A merchant's change in the fake store, through the Admin API's own mutation. */
async function asMerchant(query: string, variables: Record<string, unknown>): Promise<void> {
  const response = await fetch(demo.shopify.graphqlUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Access-Token": demo.shopify.state.merchantAccessToken,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: unknown; data?: Record<string, unknown> };
  const errors = Object.values(body.data ?? {}).flatMap(
    (payload) => (payload as { userErrors?: unknown[] } | null)?.userErrors ?? [],
  );
  if (body.errors || errors.length > 0) throw new Error(JSON.stringify(body));
}

describe("a storefront domain's own workspace", () => {
  let first: { primary: SyncRun; french: SyncRun };

  beforeAll(async () => {
    // The presences are read at install; the resync is the full sync under test.
    expect((await storefrontPresencesOf(DEMO_SHOP)).presences.map((p) => p.url)).toContain(
      "https://demo-store.fr/",
    );
    first = await resync();
  }, 120_000);

  it("holds French titles, descriptions and URLs on the French domain; the primary holds English", () => {
    expect(first.primary.workspaceId).toBe(demo.workspaceId);
    expect(first.french).toMatchObject({ state: "succeeded", workspaceId: FRENCH_WORKSPACE });
    const english = productsIn(demo.workspaceId);
    const french = productsIn(FRENCH_WORKSPACE);
    // One product is not published to the France market (the sample store's second).
    const notInFrance = franceCatalog().unpublished;
    expect(notInFrance).toHaveLength(1);
    expect(french.length).toBe(english.length - 1);
    expect(english.length).toBeGreaterThan(0);

    let translated = 0;
    for (const product of demo.shopify.state.products()) {
      const inEnglish = english.find((item) => item.id === serviceId(product.id));
      const inFrench = french.find((item) => item.id === serviceId(product.id));
      if (!inEnglish || notInFrance.includes(product.id)) {
        expect(inFrench).toBeUndefined();
        continue;
      }
      expect(inEnglish.name).toBe(product.title);
      expect(inEnglish.url).toBe(
        `https://demo-store.example.com/products/${String(product.handle)}`,
      );
      const fr = Object.fromEntries(
        demo.shopify.state.translations(product.id, "fr").map((t) => [t.key, t.value]),
      );
      if (fr.title) {
        translated += 1;
        expect(inFrench?.name).toBe(fr.title);
        expect(inFrench?.url).toBe(`https://demo-store.fr/products/${fr.handle}`);
        expect(inFrench?.content).toContain("conçu pour durer");
      } else {
        // No French: the English text, on the French domain.
        expect(inFrench?.name).toBe(product.title);
        expect(inFrench?.url).toBe(`https://demo-store.fr/products/${String(product.handle)}`);
      }
    }
    expect(translated).toBeGreaterThan(5);
  });

  it("counts both workspaces' products in the shop's month's quota, as the service counts its account", async () => {
    const now = new Date();
    const shop = await reportedQuotas(DEMO_SHOP, now);
    const account = demo.emulator.state.account("professional")!.usage.used;
    expect(shop.product?.used).toBe(account.products);
    expect(account.products).toBe(
      productsIn(demo.workspaceId).length + productsIn(FRENCH_WORKSPACE).length,
    );
  });

  it("reads the translations in the same kind of bulk export, at a few Admin API points, and points the French domain's chat at its workspace", async () => {
    const after = demo.shopify.state
      .requests()
      .filter((request) => request.at >= first.primary.finishedAt!.toISOString());
    const points = after.reduce((sum, request) => sum + (request.actualQueryCost ?? 0), 0);
    // The market's country and currency, two bulk operations (products with the market's prices
    // and selection, pages) asked and polled, and the storefront configuration.
    expect(after.filter((r) => r.rootFields.includes("bulkOperationRunQuery"))).toHaveLength(2);
    expect(after.some((r) => r.rootFields.includes("translatableResources"))).toBe(false);
    expect(points).toBeLessThan(100);
    if (process.env.PRINT_COSTS)
      console.info(`French domain fill: ${after.length} Admin API requests, ${points} points`);

    // Written once the French workspace is filled, right after its run.
    const storefrontConfig = () =>
      JSON.parse(demo.shopify.state.metafields().find((m) => m.key === "config")!.value) as {
        workspaces?: Record<string, string>;
      };
    for (let waited = 0; !storefrontConfig().workspaces?.["demo-store.fr"] && waited < 10_000;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      waited += 50;
    }
    expect(storefrontConfig()).toMatchObject({
      workspaceId: demo.workspaceId,
      workspaces: { "demo-store.fr": FRENCH_WORKSPACE },
    });
  });

  it("prices the French domain's products as the France market does, in EUR, with the currency on each document; the primary's carry the shop's", () => {
    const { fixedPrices } = franceCatalog();
    const english = productsIn(demo.workspaceId);
    const french = productsIn(FRENCH_WORKSPACE);
    let fixed = 0;
    for (const item of french) {
      const product = demo.shopify.state.products().find((p) => serviceId(p.id) === item.id)!;
      const variants = (product.variants ?? []) as { id: string; price: string }[];
      // The fixed price where the price list has one, else the shop's price converted (EUR → EUR).
      const expected = variants.map((v) => Number(fixedPrices[v.id]?.price ?? v.price));
      fixed += variants.filter((v) => fixedPrices[v.id]).length;
      expect(item.currency).toBe("EUR");
      expect(item.price).toBe(Math.min(...expected));
      expect(item.variants?.map((v) => v.price)).toEqual(expected.slice(0, item.variants?.length));
      expect(item.variants?.some((v) => v.currency)).toBe(false);
      const inEnglish = english.find((e) => e.id === item.id)!;
      expect(inEnglish.currency).toBe("EUR");
      expect(inEnglish.price).toBe(Math.min(...variants.map((v) => Number(v.price))));
    }
    expect(fixed).toBeGreaterThan(0);
    expect(french.some((item) => item.price !== english.find((e) => e.id === item.id)?.price)).toBe(
      true,
    );
  });

  it("holds the pages in French on the French domain", () => {
    const posts = (workspace(FRENCH_WORKSPACE)?.posts ?? []) as { title: string; url: string }[];
    expect(posts).toContainEqual(
      expect.objectContaining({ title: "À propos", url: "https://demo-store.fr/pages/a-propos" }),
    );
    const primaryPosts = (workspace(demo.workspaceId)?.posts ?? []) as { title: string }[];
    expect(primaryPosts.map((post) => post.title)).toContain("About us");
    expect(primaryPosts.map((post) => post.title)).not.toContain("À propos");
  });

  it("falls back to English for a field whose translation went out of date, and an unchanged resync sends nothing", async () => {
    const product = demo.shopify.state
      .products()
      .find((p) => demo.shopify.state.translations(p.id, "fr").length === 3 && p.onlineStoreUrl)!;
    const frenchHandle = demo.shopify.state
      .translations(product.id, "fr")
      .find((t) => t.key === "handle")!.value;
    demo.shopify.state.updateProduct(product.id, { title: "Brand-new English title" });

    const { primary, french } = await resync();
    expect((await runCounts(primary)).products).toMatchObject({ sent: 1 });
    expect((await runCounts(french)).products).toMatchObject({ sent: 1 });
    const item = productsIn(FRENCH_WORKSPACE).find((p) => p.id === serviceId(product.id))!;
    // The title's translation is outdated: English; the handle's is not: French.
    expect(item.name).toBe("Brand-new English title");
    expect(item.url).toBe(`https://demo-store.fr/products/${frenchHandle}`);

    const again = await resync();
    expect((await runCounts(again.primary)).products).toMatchObject({ sent: 0, deleted: 0 });
    expect((await runCounts(again.french)).products).toMatchObject({ sent: 0, deleted: 0 });
    expect((await runCounts(again.french)).posts).toMatchObject({ sent: 0, deleted: 0 });
  }, 120_000);

  it("a domain's run a stopped process left is not resumed on its own; the shop's next full sync closes it and fills the workspace", async () => {
    const left = await startRun({
      shopDomain: FRENCH_KEY,
      workspaceId: FRENCH_WORKSPACE,
      trigger: "resync",
      sources: ["gid://shopify/BulkOperation/1"],
      exportedTypes: ["product", "page"],
    });
    expect(await resumeOrphanedRuns(processLeases())).toBe(0);
    expect((await runById(left.id)).state).toBe("running");

    const { french } = await resync();
    expect(await runById(left.id)).toMatchObject({ state: "failed", errorCode: "SUPERSEDED" });
    expect(french).toMatchObject({ state: "succeeded", workspaceId: FRENCH_WORKSPACE });
  }, 120_000);

  it("carries the chosen metafields, a standard category list by its entries' names too", async () => {
    await saveChosenMetafields(DEMO_SHOP, [
      { namespace: "specs", key: "material", name: "Material", type: "single_line_text_field" },
      {
        namespace: "shopify",
        key: "color-pattern",
        name: "Color",
        type: "list.metaobject_reference",
        referenceType: "shopify--color-pattern",
      },
    ]);
    const { french } = await resync();
    expect(french.state).toBe("succeeded");
    const attributes = (workspaceId: string) =>
      new Map(
        (workspace(workspaceId)?.products ?? []).map((item) => {
          const product = item as { id: string; attributes?: Record<string, string[]> };
          return [product.id, product.attributes ?? {}];
        }),
      );
    const inFrenchById = attributes(FRENCH_WORKSPACE);
    // The products both hold (one is not published to the France market).
    const primary = [...attributes(demo.workspaceId)]
      .filter(([id]) => inFrenchById.has(id))
      .map(([, a]) => a);
    const inFrench = [...inFrenchById.values()];
    expect(primary.some((a) => a.Color?.includes("Black"))).toBe(true);
    expect(inFrench.filter((a) => a.Color).map((a) => a.Color)).toEqual(
      primary.filter((a) => a.Color).map((a) => a.Color),
    );
    expect(inFrench.filter((a) => a.Material).length).toBe(
      primary.filter((a) => a.Material).length,
    );
    await saveChosenMetafields(DEMO_SHOP, []);
  });

  it("follows the merchant's market changes at the next full sync: another currency, a fixed price, a product unpublished from France", async () => {
    const catalog = franceCatalog();
    const marketId = catalog.marketId;
    const [fixedProduct, leaving] = productsIn(FRENCH_WORKSPACE).map((item) =>
      demo.shopify.state.products().find((p) => serviceId(p.id) === item.id)!,
    );
    const variant = (fixedProduct!.variants as { id: string; price: string }[])[0]!;
    const setCurrency = (code: string) =>
      asMerchant(
        `mutation M($id: ID!, $input: MarketUpdateInput!) { marketUpdate(id: $id, input: $input) { userErrors { message } } }`,
        { id: marketId, input: { currencySettings: { baseCurrency: code } } },
      );
    await setCurrency("GBP");
    await asMerchant(
      `mutation A($id: ID!, $prices: [PriceListPriceInput!]!) { priceListFixedPricesAdd(priceListId: $id, prices: $prices) { userErrors { message } } }`,
      {
        id: catalog.priceListId,
        prices: [{ variantId: variant.id, price: { amount: "12.34", currencyCode: "GBP" } }],
      },
    );
    await asMerchant(
      `mutation U($id: ID!, $input: [PublicationInput!]!) { publishableUnpublish(id: $id, input: $input) { userErrors { message } } }`,
      { id: leaving!.id, input: [{ publicationId: catalog.publicationId }] },
    );

    const { french } = await resync();
    expect(french.state).toBe("succeeded");
    const inPounds = productsIn(FRENCH_WORKSPACE);
    expect(inPounds.find((p) => p.id === serviceId(leaving!.id))).toBeUndefined();
    expect(productsIn(demo.workspaceId).find((p) => p.id === serviceId(leaving!.id))).toBeDefined();
    expect(inPounds.every((p) => p.currency === "GBP")).toBe(true);
    const withFixed = inPounds.find((p) => p.id === serviceId(fixedProduct!.id))!;
    expect(withFixed.variants?.[0]?.price).toBe(12.34);
    // Every other price: the shop's converted at the fake's rate (0.85 GBP a euro), to the penny.
    const other = inPounds.find((p) => p.id !== withFixed.id)!;
    const base = demo.shopify.state.products().find((p) => serviceId(p.id) === other.id)!;
    const basePrices = (base.variants as { price: string }[]).map((v) => Number(v.price));
    expect(other.price).toBe(Math.round(Math.min(...basePrices) * 0.85 * 100) / 100);
    // The primary domain's workspace is not touched by a market's change.
    expect(productsIn(demo.workspaceId).every((p) => p.currency === "EUR")).toBe(true);

    // A currency the chat cannot show (Shopify's USDC is not ISO 4217): a clear warning, and the
    // French domain's products carry the shop's prices in its currency.
    await setCurrency("USDC");
    const logs = captureLogs();
    try {
      expect((await resync()).french.state).toBe("succeeded");
    } finally {
      logs.restore();
    }
    expect(
      logs
        .lines()
        .filter((line) => line.level === "warn")
        .map((line) => String(line.msg)),
    ).toContainEqual(expect.stringContaining(`currency "USDC" is not an ISO 4217 currency`));
    const fallen = productsIn(FRENCH_WORKSPACE);
    expect(fallen.every((p) => p.currency === "EUR")).toBe(true);
    expect(fallen.find((p) => p.id === other.id)?.price).toBe(Math.min(...basePrices));
    expect(fallen.find((p) => p.id === serviceId(leaving!.id))).toBeUndefined();
    await setCurrency("EUR");
  }, 120_000);

  it("shop/redact deletes the domain workspace's runs, ledger and counts with the shop's", async () => {
    const mine = { shopDomain: { startsWith: `${DEMO_SHOP}#` } };
    expect(await prisma.indexedItem.count({ where: mine })).toBeGreaterThan(0);
    await deleteAllShopData(DEMO_SHOP);
    expect(await prisma.indexedItem.count({ where: mine })).toBe(0);
    expect(await prisma.syncRun.count({ where: mine })).toBe(0);
    expect(await prisma.quotaUsage.count({ where: mine })).toBe(0);
  });
});
