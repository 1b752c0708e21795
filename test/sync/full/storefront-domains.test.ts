/**
 * A storefront domain of its own gets its own workspace (issue 24 item 2, decision 0032): a full
 * sync of the demo (the fake Shopify over HTTP with its French market on `demo-store.fr`, the
 * real app code, the service emulator over HTTP) fills the `demo-store-fr` workspace with the
 * catalogue as a French shopper there sees it: French titles, descriptions, handles and URLs on
 * that domain, English where a translation is missing or outdated; the articles, the shop's
 * policies and the chosen FAQ entries the same way (decision 0039), followed by the periodic
 * policy check; the primary workspace keeps the English catalogue exactly as before. An unchanged
 * resync sends nothing to either.
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
import {
  deleteAllShopData,
  saveChosenMetafields,
  saveChosenMetaobjects,
} from "../../../app/models/shops.server";
import { followPolicyChanges } from "../../../app/sync/full/policy-check.server";
import { refreshStorefrontPresencesSoon } from "../../../app/shop/follow-storefront-presences.server";
import { removeShopFromIndex } from "../../../app/shop/remove-from-index.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";
import { runningBackgroundWork } from "../../../app/background.server";
import {
  asMerchant as merchantChange,
  METAFIELDS_SET,
  userErrorsOf,
} from "../../fake-shopify/helpers";
import { captureLogs } from "../../../testkit/capture-logs";

let demo: RunningDemo;
const QUICK = { checkEveryMs: 50, webhookGraceMs: 60_000, pollEveryMs: 100 };
const FRENCH_WORKSPACE = "demo-store-fr";
const FRENCH_KEY = presenceLedgerKey(DEMO_SHOP, FRENCH_WORKSPACE);
const POINTS_BOUND = 150;
const frenchLedgerRows = () => prisma.indexedItem.count({ where: { shopDomain: FRENCH_KEY } });

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
  return withFrench(started.id);
}

/** The shop's run, then the French domain's run that follows it. */
async function withFrench(runId: string): Promise<{ primary: SyncRun; french: SyncRun }> {
  const primary = await runEnded(runId);
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
  variants?: { id: string; title?: string; price?: number; currency?: string }[];
  attributes?: Record<string, string[]>;
}
const productsIn = (id: string) => (workspace(id)?.products ?? []) as unknown as Sent[];
const serviceId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
interface Post {
  id: string;
  title: string;
  url?: string;
  content: string;
  categories?: string[];
}
const postsIn = (id: string) => (workspace(id)?.posts ?? []) as unknown as Post[];
const postAt = (id: string, url: string) => postsIn(id).find((post) => post.url === url);
const policyOf = (type: string) =>
  (demo.shopify.state.policies() as { id: string; type: string }[]).find((p) => p.type === type)!;
const entry = (handle: string) =>
  (demo.shopify.state.metaobjects("faq") as { id: string; handle: string }[]).find(
    (e) => e.handle === handle,
  )!;
const FR = "https://demo-store.fr";

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
  expect(userErrorsOf(await merchantChange(demo.shopify, query, variables))).toEqual([]);
}

describe("a storefront domain's own workspace", () => {
  let first: { primary: SyncRun; french: SyncRun };

  beforeAll(async () => {
    // The presences are read at install; the resync is the full sync under test.
    expect((await storefrontPresencesOf(DEMO_SHOP)).presences.map((p) => p.url)).toContain(
      "https://demo-store.fr/",
    );
    await saveChosenMetaobjects(DEMO_SHOP, [{ type: "faq", name: "FAQ" }]);
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

  it("names options and their values in French on the French domain (Couleur: Noir), as its storefront does; the primary keeps English", () => {
    const english = productsIn(demo.workspaceId);
    const french = productsIn(FRENCH_WORKSPACE);
    const product = demo.shopify.state
      .products()
      .find(
        (p) =>
          (p.variants as { selectedOptions?: { name: string; value: string }[] }[]).some(
            (v) =>
              v.selectedOptions?.some((o) => o.name === "Color" && o.value === "Black") &&
              v.selectedOptions.some((o) => o.name === "Size"),
          ) && french.some((item) => item.id === serviceId(p.id)),
      );
    expect(product).toBeDefined();
    const inFrench = french.find((item) => item.id === serviceId(product!.id))!;
    const inEnglish = english.find((item) => item.id === serviceId(product!.id))!;
    expect(inFrench.attributes?.Couleur).toContain("Noir");
    expect(inFrench.attributes?.Color).toBeUndefined();
    expect(inFrench.attributes?.Taille).toBeDefined();
    expect(inFrench.variants?.some((v) => v.title?.includes("Noir"))).toBe(true);
    expect(inEnglish.attributes?.Color).toContain("Black");
    expect(inEnglish.variants?.some((v) => v.title?.includes("Black"))).toBe(true);
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
    // The market's country and currency, three bulk operations (products with the market's
    // prices and selection, pages, articles) asked and polled, the policies and the FAQ entries
    // with their translations (by id), and the storefront configuration.
    expect(after.filter((r) => r.rootFields.includes("bulkOperationRunQuery"))).toHaveLength(3);
    expect(after.some((r) => r.rootFields.includes("translatableResources"))).toBe(false);
    expect(after.filter((r) => r.rootFields.includes("translatableResourcesByIds"))).toHaveLength(
      1,
    );
    expect(points).toBeLessThan(POINTS_BOUND);
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

  it("holds the articles, the policies and the chosen FAQ entries in French on the French domain, English where there is no French", () => {
    // The refund policy is translated: Shopify's French title, the French text, the domain's URL.
    const refund = postAt(FRENCH_WORKSPACE, `${FR}/policies/refund-policy`);
    expect(refund).toMatchObject({ title: "Politique de remboursement" });
    expect(refund!.content).toMatch(/^Retours et remboursements Vous disposez de 30 jours/);
    // The shipping policy is not: its English text, under its French title, on the domain.
    const shipping = postAt(FRENCH_WORKSPACE, `${FR}/policies/shipping-policy`);
    const englishShipping = postAt(
      demo.workspaceId,
      "https://demo-store.example.com/policies/shipping-policy",
    );
    expect(shipping).toMatchObject({
      title: "Politique d'expédition",
      content: englishShipping!.content,
    });
    expect(
      postAt(demo.workspaceId, "https://demo-store.example.com/policies/refund-policy"),
    ).toMatchObject({ title: "Refund policy" });

    // FAQ entries: both fields French; only the question French; no French at all.
    expect(postAt(FRENCH_WORKSPACE, `${FR}/pages/faq/can-i-return-a-sale-item`)).toMatchObject({
      title: "Puis-je retourner un article soldé ?",
      content: expect.stringContaining("contre un avoir") as unknown,
    });
    expect(
      postAt(FRENCH_WORKSPACE, `${FR}/pages/faq/how-long-does-shipping-to-germany-take`),
    ).toMatchObject({
      title: "Combien de temps prend la livraison en Allemagne ?",
      content: expect.stringContaining("Orders to Germany arrive in 3 to 5") as unknown,
    });
    expect(postAt(FRENCH_WORKSPACE, `${FR}/pages/faq/how-do-i-wax-my-snowboard`)).toMatchObject({
      title: "How do I wax my snowboard?",
    });
    expect(postsIn(demo.workspaceId).map((post) => post.title)).not.toContain(
      "Puis-je retourner un article soldé ?",
    );

    // Articles: each published one, in French where it has French, on the French domain.
    const articles = demo.shopify.state.articles() as {
      id: string;
      title: string;
      handle: string;
      isPublished: boolean;
      blog: { id: string; handle: string; title: string };
    }[];
    let translated = 0;
    let underFrenchBlog = 0;
    for (const article of articles.filter((a) => a.isPublished)) {
      const inFrench = postsIn(FRENCH_WORKSPACE).find((p) => p.id.endsWith(serviceId(article.id)));
      const fr = Object.fromEntries(
        demo.shopify.state.translations(article.id, "fr").map((t) => [t.key, t.value]),
      );
      // Under its blog's French handle, in its blog's French name, where the blog has them.
      const blog = Object.fromEntries(
        demo.shopify.state.translations(article.blog.id, "fr").map((t) => [t.key, t.value]),
      );
      expect(inFrench?.url).toBe(
        `${FR}/blogs/${blog.handle ?? article.blog.handle}/${fr.handle ?? article.handle}`,
      );
      expect(inFrench?.categories).toEqual([blog.title ?? article.blog.title]);
      if (blog.handle) underFrenchBlog += 1;
      if (fr.title) {
        translated += 1;
        expect(inFrench).toMatchObject({ title: fr.title });
        expect(inFrench!.content).toContain("nos conseils, en français");
      } else {
        expect(inFrench).toMatchObject({ title: article.title });
      }
    }
    expect(translated).toBeGreaterThan(0);
    expect(underFrenchBlog).toBeGreaterThan(0);
  });

  it("falls back to English for a policy or entry translated only into German, or whose source changed, and the batch goes on", async () => {
    demo.shopify.state.translate(entry("how-do-i-wax-my-snowboard").id, "de", {
      question: "Wie wachse ich mein Snowboard?",
    });
    demo.shopify.state.updatePolicy(
      "REFUND_POLICY",
      "<p>Returns: 45 days, no questions asked.</p>",
    );
    demo.shopify.state.updateMetaobject(entry("can-i-return-a-sale-item").id, {
      fields: { answer: "Sale items: 7 days, store credit only." },
    });

    const { french } = await resync();
    expect(french.state).toBe("succeeded");
    expect((await runCounts(french)).posts).toMatchObject({ sent: 2, failed: 0 });
    expect(postAt(FRENCH_WORKSPACE, `${FR}/policies/refund-policy`)).toMatchObject({
      title: "Politique de remboursement",
      content: "Returns: 45 days, no questions asked.",
    });
    expect(postAt(FRENCH_WORKSPACE, `${FR}/pages/faq/how-do-i-wax-my-snowboard`)).toMatchObject({
      title: "How do I wax my snowboard?",
    });
    // The answer's translation is outdated: English; the question's is not: French.
    expect(postAt(FRENCH_WORKSPACE, `${FR}/pages/faq/can-i-return-a-sale-item`)).toMatchObject({
      title: "Puis-je retourner un article soldé ?",
      content: expect.stringContaining("Sale items: 7 days") as unknown,
    });
  }, 120_000);

  it("the periodic policy check compares the French workspace too: a changed French policy reaches demo-store-fr", async () => {
    const leases = processLeases();
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);

    demo.shopify.state.translate(policyOf("REFUND_POLICY").id, "fr", {
      body: "<p>Retours : 45 jours, sans justification.</p>",
    });
    expect(await followPolicyChanges(leases, adminFor)).toEqual([DEMO_SHOP]);
    const run = await prisma.syncRun.findFirstOrThrow({
      where: { shopDomain: DEMO_SHOP },
      orderBy: { startedAt: "desc" },
    });
    const { primary, french } = await withFrench(run.id);
    expect(primary).toMatchObject({ trigger: "reconcile", state: "succeeded" });
    expect((await runCounts(primary)).posts).toMatchObject({ sent: 0, deleted: 0 });
    expect((await runCounts(french)).posts).toMatchObject({ sent: 1, deleted: 0 });
    expect(postAt(FRENCH_WORKSPACE, `${FR}/policies/refund-policy`)).toMatchObject({
      content: "Retours : 45 jours, sans justification.",
    });
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);
  }, 120_000);

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
    const primaryById = attributes(demo.workspaceId);
    // The products both hold (one is not published to the France market).
    const primary = [...primaryById].filter(([id]) => inFrenchById.has(id)).map(([, a]) => a);
    const inFrench = [...inFrenchById.values()];
    expect(primary.some((a) => a.Color?.includes("Black"))).toBe(true);
    // "Color" in French is the category list's entries alone (the "Color" option is "Couleur"
    // there); in English it is the option's values and the list's.
    const listed = [...inFrenchById].filter(([, a]) => a.Color);
    expect(listed.length).toBeGreaterThan(0);
    for (const [id, a] of listed) {
      expect(primaryById.get(id)?.Color).toEqual(expect.arrayContaining(a.Color!));
    }
    expect(inFrench.filter((a) => a.Material).length).toBe(
      primary.filter((a) => a.Material).length,
    );
    // The one material with a French translation is French on the French domain only.
    const nano = demo.shopify.state.products().find((p) => p.handle === "ipod-nano")!;
    const materialIn = (workspaceId: string) =>
      (
        (workspace(workspaceId)?.products ?? []).find(
          (item) => (item as { id: string }).id === serviceId(nano.id),
        ) as { attributes?: Record<string, string[]> } | undefined
      )?.attributes?.Material;
    expect(materialIn(demo.workspaceId)).toEqual(["Anodised aluminium"]);
    expect(materialIn(FRENCH_WORKSPACE)).toEqual(["Aluminium anodisé"]);
    // A live edit re-reads the product: its French material stays French (decision 0037).
    const nameIn = (workspaceId: string) =>
      productsIn(workspaceId).find((item) => item.id === serviceId(nano.id))?.name;
    demo.shopify.state.updateProduct(nano.id, { title: "iPod Nano (2026)" }, { webhook: true });
    for (let waited = 0; nameIn(FRENCH_WORKSPACE) !== "iPod Nano (2026)"; waited += 100) {
      if (waited > 60_000) throw new Error("the edit did not reach the French workspace");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(materialIn(FRENCH_WORKSPACE)).toEqual(["Aluminium anodisé"]);
    expect(materialIn(demo.workspaceId)).toEqual(["Anodised aluminium"]);
    await saveChosenMetafields(DEMO_SHOP, []);
  });

  it("names what chosen references hold in the French domain's language, single and in lists, at the full sync and after a live edit", async () => {
    const titleIn = (id: string, locale: string) =>
      demo.shopify.state.translations(id, locale).find((t) => t.key === "title")?.value;
    const inBoth = productsIn(FRENCH_WORKSPACE).map((item) =>
      demo.shopify.state.products().find((p) => serviceId(p.id) === item.id)!,
    );
    // Products the French domain shows by a French title (an outdated one falls back to English).
    const shownInFrench = (p: { id: string }) =>
      productsIn(FRENCH_WORKSPACE).some(
        (item) => item.id === serviceId(p.id) && item.name === titleIn(p.id, "fr"),
      );
    const [first, second] = inBoth.filter(shownInFrench);
    const holder = inBoth.find((p) => p.id !== first!.id && p.id !== second!.id)!;
    expect(second).toBeDefined();
    await saveChosenMetafields(DEMO_SHOP, [
      { namespace: "custom", key: "related", name: "Related", type: "list.product_reference" },
      { namespace: "custom", key: "partner", name: "Partner", type: "product_reference" },
    ]);
    const set = await merchantChange(demo.shopify, METAFIELDS_SET, {
      metafields: [
        {
          ownerId: holder.id,
          namespace: "custom",
          key: "related",
          type: "list.product_reference",
          value: JSON.stringify([first!.id, second!.id]),
        },
        {
          ownerId: holder.id,
          namespace: "custom",
          key: "partner",
          type: "product_reference",
          value: first!.id,
        },
      ],
    });
    expect(userErrorsOf(set)).toEqual([]);
    const { french } = await resync();
    expect(french.state).toBe("succeeded");
    const attributesIn = (workspaceId: string) =>
      productsIn(workspaceId).find((item) => item.id === serviceId(holder.id))?.attributes;
    expect(attributesIn(demo.workspaceId)).toMatchObject({
      Related: [String(first!.title), String(second!.title)],
      Partner: [String(first!.title)],
    });
    const inFrench = {
      Related: [titleIn(first!.id, "fr"), titleIn(second!.id, "fr")],
      Partner: [titleIn(first!.id, "fr")],
    };
    expect(attributesIn(FRENCH_WORKSPACE)).toMatchObject(inFrench);

    // A live edit re-reads the holder: its references stay named in French there (decision 0037).
    const nameIn = (workspaceId: string) =>
      productsIn(workspaceId).find((item) => item.id === serviceId(holder.id))?.name;
    demo.shopify.state.updateProduct(holder.id, { title: "Renamed holder" }, { webhook: true });
    for (let waited = 0; nameIn(FRENCH_WORKSPACE) !== "Renamed holder"; waited += 100) {
      if (waited > 60_000) throw new Error("the edit did not reach the French workspace");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(attributesIn(FRENCH_WORKSPACE)).toMatchObject(inFrench);
    expect(attributesIn(demo.workspaceId)).toMatchObject({ Partner: [String(first!.title)] });
    await saveChosenMetafields(DEMO_SHOP, []);
  }, 120_000);

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

  describe("when the store's domains change (decision 0038)", () => {
    const frenchPresence = () =>
      demo.shopify.state.presences().webPresences.find((p) => p.host === "demo-store.fr");
    const namedInConfig = () =>
      (
        JSON.parse(demo.shopify.state.metafields().find((m) => m.key === "config")!.value) as {
          workspaces?: Record<string, string>;
        }
      ).workspaces?.["demo-store.fr"];
    const frenchRows = () => prisma.indexedItem.count({ where: { shopDomain: FRENCH_KEY } });
    const shopRuns = () => prisma.syncRun.count({ where: { shopDomain: DEMO_SHOP } });

    /** What the periodic check (or a webhook) does: the presences read, the domains followed. */
    async function presencesRead(until: () => Promise<boolean> | boolean): Promise<void> {
      await refreshStorefrontPresencesSoon(DEMO_SHOP, adminFor);
      // The live worker may have held the shop's lease: its chores follow them then, asked for
      // at its next round rather than within the minute.
      for (let waited = 0; !(await until()) && waited < 75_000; waited += 200) {
        runningBackgroundWork()?.worker?.maintainAtNextRound();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    async function leftOut(): Promise<{ configAt: string; firstDeleteAt: string }> {
      const configWrites = demo.shopify.state
        .requests()
        .filter((r) => r.rootFields.includes("metafieldsSet"));
      const deletes = demo.emulator.state
        .requests()
        .filter((r) => r.method === "DELETE" && r.workspaceId === FRENCH_WORKSPACE);
      return { configAt: configWrites.at(-1)!.at, firstDeleteAt: deletes[0]!.at };
    }

    it("its market switched to draft: the chat there stops asking its workspace first, then the workspace is emptied; switched back on, it is filled again without a full sync of the shop", async () => {
      const market = frenchPresence()!.markets[0]!;
      const englishBefore = productsIn(demo.workspaceId).length;
      const frenchBefore = productsIn(FRENCH_WORKSPACE).length;
      const runsBefore = await shopRuns();
      expect(frenchBefore).toBeGreaterThan(0);
      demo.emulator.state.clearRequests();

      await asMerchant(
        `mutation Off($id: ID!, $input: MarketUpdateInput!) { marketUpdate(id: $id, input: $input) { market { id } userErrors { message } } }`,
        { id: market.id, input: { status: "DRAFT" } },
      );
      await presencesRead(async () => productsIn(FRENCH_WORKSPACE).length === 0);
      expect(namedInConfig()).toBeUndefined();
      expect(productsIn(FRENCH_WORKSPACE)).toHaveLength(0);
      expect((workspace(FRENCH_WORKSPACE)?.posts ?? []).length).toBe(0);
      expect(await frenchRows()).toBe(0);
      const { configAt, firstDeleteAt } = await leftOut();
      expect(configAt < firstDeleteAt).toBe(true);
      // The primary workspace is untouched.
      expect(productsIn(demo.workspaceId)).toHaveLength(englishBefore);

      await asMerchant(
        `mutation On($id: ID!, $input: MarketUpdateInput!) { marketUpdate(id: $id, input: $input) { market { id } userErrors { message } } }`,
        { id: market.id, input: { status: "ACTIVE" } },
      );
      await presencesRead(() => namedInConfig() === FRENCH_WORKSPACE);
      expect(namedInConfig()).toBe(FRENCH_WORKSPACE);
      // As before: the France market's own selection (one product it does not show).
      expect(productsIn(FRENCH_WORKSPACE)).toHaveLength(frenchBefore);
      expect(await shopRuns()).toBe(runsBefore);
      const refill = await prisma.syncRun.findFirstOrThrow({
        where: { shopDomain: FRENCH_KEY },
        orderBy: { startedAt: "desc" },
      });
      expect(refill).toMatchObject({ trigger: "domain-added", state: "succeeded" });
    }, 180_000);

    it("its web presence deleted (no webhook: the periodic check sees it): emptied; created again: filled in French again", async () => {
      const presence = frenchPresence()!;
      const domainId = demo.shopify.state
        .presences()
        .domains.find((d) => d.host === "demo-store.fr")!.id;
      demo.emulator.state.clearRequests();
      await asMerchant(
        `mutation Drop($id: ID!) { webPresenceDelete(id: $id) { deletedId userErrors { message } } }`,
        { id: presence.id },
      );
      await presencesRead(async () => productsIn(FRENCH_WORKSPACE).length === 0);
      expect(namedInConfig()).toBeUndefined();
      expect(productsIn(FRENCH_WORKSPACE)).toHaveLength(0);
      expect(await frenchRows()).toBe(0);
      const { configAt, firstDeleteAt } = await leftOut();
      expect(configAt < firstDeleteAt).toBe(true);

      await asMerchant(
        `mutation Add($input: WebPresenceCreateInput!) { webPresenceCreate(input: $input) { webPresence { id } userErrors { message } } }`,
        { input: { domainId, defaultLocale: "fr" } },
      );
      await presencesRead(() => namedInConfig() === FRENCH_WORKSPACE);
      expect(namedInConfig()).toBe(FRENCH_WORKSPACE);
      const frenchTitles = new Set(
        demo.shopify.state
          .products()
          .flatMap((p) => demo.shopify.state.translations(p.id, "fr"))
          .filter((t) => t.key === "title")
          .map((t) => t.value),
      );
      const inFrench = productsIn(FRENCH_WORKSPACE).filter((p) => frenchTitles.has(p.name));
      expect(inFrench.length).toBeGreaterThan(5);
    }, 180_000);
  });

  it("does not fill a storefront domain whose workspace another store holds: its run says why, its shoppers get the primary workspace, and nothing is written there", async () => {
    const other = "another-store.myshopify.com";
    await prisma.workspaceClaim.update({
      where: { workspaceId: FRENCH_WORKSPACE },
      data: { shopDomain: other },
    });
    demo.emulator.state.clearRequests();
    const { primary, french } = await resync();
    expect(primary.state).toBe("succeeded");
    expect(french.state).toBe("failed");
    expect(french.errorMessage).toBe(
      "workspace demo-store-fr belongs to another store connected to this app",
    );
    const writes = demo.emulator.state
      .requests()
      .filter((r) => r.workspaceId === FRENCH_WORKSPACE && r.method !== "GET");
    expect(writes).toEqual([]);
    // The storefront configuration, rewritten once the domains' turn ends, names it no more.
    const named = () =>
      (
        JSON.parse(demo.shopify.state.metafields().find((m) => m.key === "config")!.value) as {
          workspaces?: Record<string, string>;
        }
      ).workspaces?.["demo-store.fr"];
    await expect.poll(named, { timeout: 30_000, interval: 50 }).toBeUndefined();
    // Held by this shop again, the next full sync fills it.
    await prisma.workspaceClaim.update({
      where: { workspaceId: FRENCH_WORKSPACE },
      data: { shopDomain: DEMO_SHOP },
    });
    expect((await resync()).french.state).toBe("succeeded");
  }, 150_000);

  it("the primary domain moved to the French domain's host: no workspace a storefront asks is emptied, the shop's move fills it and the French ledger is forgotten", async () => {
    const french = () => productsIn(FRENCH_WORKSPACE).length;
    const catalogue = productsIn(demo.workspaceId).length;
    expect(french()).toBe(catalogue);
    demo.emulator.state.clearRequests();
    const config = () =>
      JSON.parse(demo.shopify.state.metafields().find((m) => m.key === "config")!.value) as {
        workspaceId: string;
        workspaces?: Record<string, string>;
      };
    let fewest = french();
    const idsBefore = productsIn(FRENCH_WORKSPACE)
      .map((p) => p.id)
      .sort();
    await demo.shopify.state.setPrimaryDomain("demo-store.fr");
    for (let waited = 0; config().workspaceId !== FRENCH_WORKSPACE && waited < 60_000;) {
      fewest = Math.min(fewest, french());
      await new Promise((resolve) => setTimeout(resolve, 100));
      waited += 100;
    }
    expect(config().workspaceId).toBe(FRENCH_WORKSPACE);
    await refreshStorefrontPresencesSoon(DEMO_SHOP, adminFor);
    for (let waited = 0; (await frenchLedgerRows()) > 0 && waited < 70_000; waited += 200) {
      fewest = Math.min(fewest, french());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await frenchLedgerRows()).toBe(0);
    expect(config().workspaces?.["demo-store.fr"]).toBeUndefined();
    // Never emptied, not even in part: the shop's move wrote over the same ids.
    expect(fewest).toBe(catalogue);
    expect(french()).toBe(catalogue);
    const ids = (workspaceId: string) =>
      productsIn(workspaceId)
        .map((p) => p.id)
        .sort();
    expect(ids(FRENCH_WORKSPACE)).toEqual(idsBefore);
    expect(productsIn(FRENCH_WORKSPACE).map((p) => p.url)).toContainEqual(
      expect.stringMatching(/^https:\/\/demo-store\.fr\/products\//),
    );
  }, 150_000);

  it("shop/redact empties the storefront domains' workspaces in the service, as the shop's own", async () => {
    expect(productsIn(FRENCH_WORKSPACE).length).toBeGreaterThan(0);
    expect(await removeShopFromIndex(DEMO_SHOP)).toBe(0);
    expect(productsIn(FRENCH_WORKSPACE)).toHaveLength(0);
    expect(productsIn(demo.workspaceId)).toHaveLength(0);
  });

  it("shop/redact deletes the domain workspace's runs, ledger and counts with the shop's", async () => {
    const mine = { shopDomain: { startsWith: `${DEMO_SHOP}#` } };
    // A domain's quota report is recorded as the shop's own (one account's quota).
    const quotas = { shopDomain: { startsWith: DEMO_SHOP } };
    expect(await prisma.quotaUsage.count({ where: quotas })).toBeGreaterThan(0);
    await deleteAllShopData(DEMO_SHOP);
    expect(await prisma.indexedItem.count({ where: mine })).toBe(0);
    expect(await prisma.syncRun.count({ where: mine })).toBe(0);
    expect(await prisma.quotaUsage.count({ where: quotas })).toBe(0);
    expect(await prisma.workspaceClaim.count({ where: { shopDomain: DEMO_SHOP } })).toBe(0);
  });
});
