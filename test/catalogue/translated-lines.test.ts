/**
 * A storefront domain's export, field by field (app/catalogue/translated-lines.ts): a usable
 * translation replaces the primary language's text; a missing, empty or outdated one leaves it;
 * a line that is not JSON reaches the reader untouched, which refuses it with its line number.
 */
import { describe, expect, it } from "vitest";
import {
  applyMarket,
  showableCurrency,
  type MarketLinesReport,
  applyTranslations,
  mapShopPolicy,
  translatedEntry,
  translatedPolicy,
  BulkJsonlSyntaxError,
  readBulkExport,
  translatedSource,
  withTranslatedOptions,
} from "../../app/catalogue";
import { presenceWorkspacesOf } from "../../app/sync/full/presence-workspaces.server";
import type { StorefrontPresence } from "../../app/shopify/storefront-presences.server";

const product = {
  id: "gid://shopify/Product/1",
  title: "Lightweight Backpack",
  handle: "lightweight-backpack-1",
  descriptionHtml: "<p>Light.</p>",
  productType: "Bags",
};

describe("a translated export's lines", () => {
  it("takes each usable translation and keeps the primary language's text for the rest", () => {
    expect(
      applyTranslations({
        ...product,
        translations: [
          { key: "title", value: "Sac à dos léger", outdated: false },
          { key: "handle", value: "sac-a-dos-leger-1", outdated: false },
          { key: "body_html", value: "<p>Old French.</p>", outdated: true },
          { key: "product_type", value: "  ", outdated: false },
          { key: "meta_title", value: "ignored", outdated: false },
        ],
      }),
    ).toEqual({
      ...product,
      title: "Sac à dos léger",
      handle: "sac-a-dos-leger-1",
    });
  });

  it("names options and their values in the storefront's language, on the product and on each variant, and keeps the primary language's where there is none", () => {
    const t = (value: string, outdated = false) => [{ key: "name", value, outdated }];
    const line = applyTranslations({
      ...product,
      translations: [],
      options: [
        {
          name: "Color",
          values: ["Black", "抹茶", "Sand"],
          translations: t("Couleur"),
          optionValues: [
            { name: "Black", translations: t("Noir") },
            { name: "抹茶", translations: [] },
            { name: "Sand", translations: t("Sable", true) },
          ],
        },
        { name: "Size", values: ["M"], translations: [], optionValues: [{ name: "M" }] },
      ],
    });
    expect(line.options).toEqual([
      { name: "Couleur", values: ["Noir", "抹茶", "Sand"] },
      { name: "Size", values: ["M"] },
    ]);
    const variant = applyTranslations({
      id: "gid://shopify/ProductVariant/11",
      __parentId: product.id,
      selectedOptions: [
        { name: "Color", value: "Black", optionValue: { translations: t("Noir") } },
        { name: "Size", value: "M", optionValue: { translations: [] } },
      ],
    });
    expect(variant.selectedOptions).toEqual([
      { name: "Color", value: "Noir" },
      { name: "Size", value: "M" },
    ]);

    // The live re-read: the product in the primary language, its options' translations read apart.
    const read = [
      {
        name: "Color",
        translations: t("Couleur"),
        optionValues: [{ name: "Black", translations: t("Noir") }],
      },
    ];
    expect(
      withTranslatedOptions(
        {
          options: [{ name: "Color", values: ["Black", "Sand"] }],
          variants: [{ selectedOptions: [{ name: "Color", value: "Black" }] }],
        },
        read,
      ),
    ).toEqual({
      options: [{ name: "Couleur", values: ["Noir", "Sand"] }],
      variants: [{ selectedOptions: [{ name: "Color", value: "Noir" }] }],
    });
  });

  it("cuts a page's summary from its translated body, and leaves lines without translations alone", () => {
    const page = {
      id: "gid://shopify/Page/5",
      title: "About us",
      body: "<p>Hello</p>",
      bodySummary: "Hello",
      handle: "about-us",
    };
    expect(
      applyTranslations({
        ...page,
        translations: [{ key: "body_html", value: "<p>Bonjour</p>", outdated: false }],
      }),
    ).toEqual({ ...page, body: "<p>Bonjour</p>", bodySummary: null });
    const variant = { id: "gid://shopify/ProductVariant/2", __parentId: product.id };
    expect(applyTranslations(variant)).toBe(variant);
  });

  it("puts an article under its blog's translated handle and title, the primary language's where its translation is outdated", () => {
    const article = {
      id: "gid://shopify/Article/7",
      title: "Spring lookbook",
      handle: "spring-lookbook",
      translations: [{ key: "title", value: "Lookbook de printemps", outdated: false }],
    };
    const blog = { id: "gid://shopify/Blog/3", handle: "news", title: "News" };
    expect(
      applyTranslations({
        ...article,
        blog: {
          ...blog,
          translations: [
            { key: "handle", value: "actualites", outdated: false },
            { key: "title", value: "Actualités", outdated: false },
          ],
        },
      }),
    ).toMatchObject({
      title: "Lookbook de printemps",
      blog: { id: blog.id, handle: "actualites", title: "Actualités" },
    });
    const outdated = applyTranslations({
      ...article,
      blog: {
        ...blog,
        translations: [{ key: "handle", value: "actualites", outdated: true }],
      },
    });
    expect(outdated.blog).toEqual(blog);
  });

  it("passes a malformed line through, so the reader refuses the export with its line number", async () => {
    const lines = `${JSON.stringify({ ...product, translations: [] })}\n{"id": broken\n`;
    const source = translatedSource(async function* () {
      yield Buffer.from(lines.slice(0, 20));
      yield Buffer.from(lines.slice(20));
    });
    await expect(readBulkExport(source)).rejects.toThrow(BulkJsonlSyntaxError);
    await expect(readBulkExport(source)).rejects.toThrow(/^Line 2 of the bulk export/);
  });
});

describe("the storefronts that get a workspace of their own", () => {
  const presence = (over: Partial<StorefrontPresence>): StorefrontPresence => ({
    url: "https://shop.example/",
    webPresenceId: "gid://shopify/MarketWebPresence/1",
    host: "shop.example",
    locale: "en",
    localeName: "English",
    localePublished: true,
    defaultLocale: true,
    primary: false,
    markets: [],
    moreMarkets: false,
    ...over,
  });
  const shop = {
    shopDomain: "s.myshopify.com",
    primaryDomain: "shop.example",
    workspaceId: "shop-example",
    workspaceOverride: null,
  };

  it("is each other domain in its default, published locale; never the primary, a subfolder or an unpublished one", () => {
    const { workspaces, problems } = presenceWorkspacesOf(shop, [
      presence({ primary: true }),
      presence({ url: "https://shop.example/de/", locale: "de", defaultLocale: false }),
      presence({ url: "https://Shop.FR/", host: "Shop.FR", locale: "fr" }),
      presence({ url: "https://shop.es/", host: "shop.es", locale: "es", localePublished: false }),
      presence({ url: "https://bad_host!/", host: "bad_host!", locale: "it" }),
    ]);
    expect(workspaces).toEqual([
      {
        host: "shop.fr",
        locale: "fr",
        workspaceId: "shop-fr",
        ledgerKey: "s.myshopify.com#shop-fr",
        webPresenceId: "gid://shopify/MarketWebPresence/1",
      },
    ]);
    expect(problems).toEqual([expect.stringContaining("https://bad_host!/")]);
  });

  it("leaves out a domain the merchant unticked in Settings; one appearing later is indexed", () => {
    const { workspaces } = presenceWorkspacesOf(
      { ...shop, unindexedDomains: JSON.stringify(["SHOP.FR"]) },
      [
        presence({ primary: true }),
        presence({ url: "https://shop.fr/", host: "shop.fr", locale: "fr" }),
        presence({ url: "https://shop.es/", host: "shop.es", locale: "es" }),
      ],
    );
    expect(workspaces.map((w) => w.host)).toEqual(["shop.es"]);
  });
});

describe("a storefront domain's policies, entries and metafields (translated-content.ts)", () => {
  const refund = {
    id: "gid://shopify/ShopPolicy/1",
    type: "REFUND_POLICY" as const,
    title: "Refund policy",
    body: "<p>30 days.</p>",
    url: "https://shop.example.com/policies/refund-policy",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  };
  const faq = {
    id: "gid://shopify/Metaobject/1",
    handle: "can-i-return",
    type: "faq",
    displayName: "Can I return?",
    updatedAt: "2026-01-01T00:00:00Z",
    capabilities: null,
    definition: { name: "FAQ", capabilities: { onlineStore: null } },
    fields: [
      {
        key: "question",
        type: "single_line_text_field",
        value: "Can I return?",
        definition: { name: "Question" },
      },
      {
        key: "answer",
        type: "multi_line_text_field",
        value: "Yes.",
        definition: { name: "Answer" },
      },
    ],
  };

  it("a policy takes its usable French body, the type's French title and a URL on the domain", () => {
    expect(
      translatedPolicy(
        { ...refund, translations: [{ key: "body", value: "<p>30 jours.</p>", outdated: false }] },
        "fr",
        "shop.fr",
      ),
    ).toEqual({
      ...refund,
      title: "Politique de remboursement",
      body: "<p>30 jours.</p>",
      url: "https://shop.fr/policies/refund-policy",
    });
  });

  it.each([
    ["no translation in this language (only another's: not asked)", []],
    ["an empty translation", [{ key: "body", value: " ", outdated: false }]],
    ["an outdated translation", [{ key: "body", value: "<p>Vieux.</p>", outdated: true }]],
    ["a value that is not text", [{ key: "body", value: null, outdated: false }]],
  ])("a policy with %s keeps the primary language's body", (_case, translations) => {
    const policy = translatedPolicy({ ...refund, translations }, "pt-BR", "shop.com.br");
    expect(policy).toMatchObject({ body: refund.body, title: "Refund policy" });
    expect(policy.url).toBe("https://shop.com.br/policies/refund-policy");
    expect(mapShopPolicy(policy, { primaryDomain: "shop.com.br" }).indexable).toBe(true);
  });

  it("an entry takes each usable field's translation, its name with its display field", () => {
    const entry = translatedEntry(faq, [
      { key: "question", value: "Puis-je retourner ?", outdated: false },
      { key: "answer", value: "", outdated: false },
    ]);
    expect(entry.displayName).toBe("Puis-je retourner ?");
    expect(entry.fields.map((field) => field.value)).toEqual(["Puis-je retourner ?", "Yes."]);
    expect(translatedEntry(faq, [{ key: "question", value: "Vieux ?", outdated: true }])).toEqual(
      faq,
    );
    expect(translatedEntry(faq, undefined)).toEqual(faq);
  });

  it("a chosen metafield's line and a variant's aliased metafield take their usable translation", () => {
    expect(
      applyTranslations({
        id: "gid://shopify/Metafield/1",
        namespace: "specs",
        key: "material",
        type: "single_line_text_field",
        value: "Anodised aluminium",
        translations: [{ key: "value", value: "Aluminium anodisé", outdated: false }],
        __parentId: "gid://shopify/Product/1",
      }),
    ).toMatchObject({ value: "Aluminium anodisé" });
    expect(
      applyTranslations({
        id: "gid://shopify/ProductVariant/1",
        variantMetafield0: {
          id: "gid://shopify/Metafield/2",
          value: "Matte",
          translations: [{ key: "value", value: "Mat", outdated: true }],
        },
        variantMetafield1: {
          id: "gid://shopify/Metafield/3",
          value: "Gloss",
          translations: [{ key: "value", value: "Brillant", outdated: false }],
        },
        variantMetafield2: null,
      }),
    ).toEqual({
      id: "gid://shopify/ProductVariant/1",
      variantMetafield0: { id: "gid://shopify/Metafield/2", value: "Matte" },
      variantMetafield1: { id: "gid://shopify/Metafield/3", value: "Brillant" },
      variantMetafield2: null,
    });
  });
});

describe("a market's lines (decision 0036)", () => {
  it("leaves out a product the market does not show, and prices each variant as the market does", () => {
    const report: MarketLinesReport = { unshowable: 0, unpublished: 0 };
    const product = { id: "gid://shopify/Product/1", onlineStoreUrl: "https://s/p" };
    expect(applyMarket({ ...product, publishedInContext: true }, "EUR", report)).toEqual(product);
    expect(applyMarket({ ...product, publishedInContext: false }, "EUR", report)).toEqual({
      ...product,
      onlineStoreUrl: null,
    });
    const variant = { id: "gid://shopify/ProductVariant/2", price: "50.00", compareAtPrice: null };
    const priced = (currencyCode: string) => ({
      ...variant,
      contextualPricing: {
        price: { amount: "42.00", currencyCode },
        compareAtPrice: { amount: "60.00", currencyCode },
      },
    });
    expect(applyMarket(priced("GBP"), "EUR", report)).toEqual({
      ...variant,
      price: "42.00",
      compareAtPrice: "60.00",
      currency: "GBP",
    });
    // Not a currency the chat can show: the shop's price, in the shop's currency.
    expect(applyMarket(priced("USDC"), "EUR", report)).toEqual({ ...variant, currency: "EUR" });
    expect(report).toEqual({ unshowable: 1, unshowableCode: "USDC", unpublished: 1 });
    expect(showableCurrency("EUR")).toBe("EUR");
    expect(showableCurrency("USDC")).toBeUndefined();
  });
});
