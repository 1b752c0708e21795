/**
 * A shopper on the French domain (issue 24 item 2, decision 0032), in Chromium against the
 * running demo: `demo-store.fr` is mapped to the storefront preview, which picks the workspace
 * from the request's host as the theme's embed does (`config.workspaces[request.host]`); the
 * chat there answers with the French product name, a link on the French domain and the France
 * market's price in euros (a price list's fixed price), while the primary domain's chat answers
 * in English with links on the primary domain and the shop's own price; asked about returns
 * there, it shows the French refund policy linking to its page on that domain (decision 0039);
 * Settings says so. Live changes follow there without a resync (decision 0037): a product's new
 * title and its new French translation, and a sale that sells a product out. When the French
 * presence is removed from the store, the chat there falls back to the primary workspace and the
 * French one is emptied; added back, it is filled again (decision 0038), and the Dashboard says
 * where the French storefront stands at each step.
 */
import { createHash } from "node:crypto";
import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_SHOP, type RunningDemo } from "../../dev/demo/admin-demo";
import { artifactsDir, CHROMIUM_ARGS, CHROMIUM_PATH } from "../../testkit/chromium";
import { startTestDemo } from "../../testkit/demo-browser";
import { rawRequest } from "../../testkit/raw-request";
import { ask, askForProductCard, openChat, ui, waitIdle } from "../../testkit/widget-stack";
import { DEFAULT_MERCHANT_ACCESS_TOKEN } from "../../dev/fake-shopify/server";
import { graphql } from "../fake-shopify/helpers";
import prisma from "../../app/models/db.server";
import { refreshStorefrontPresencesSoon } from "../../app/shop/follow-storefront-presences.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import { checkChangedProducts } from "../../app/sync/live/changed-products-check.server";

vi.setConfig({ testTimeout: 180_000 });

const FRENCH_HOST = "demo-store.fr";
let demo: RunningDemo;
let browser: Browser;

/** The workspace the storefront configuration names for a host, once a run filled it. */
function configuredWorkspace(host: string): string | undefined {
  const saved = demo.shopify.state.metafields().find((m) => m.key === "config");
  const config = saved ? (JSON.parse(saved.value) as { workspaces?: Record<string, string> }) : {};
  return config.workspaces?.[host];
}

beforeAll(async () => {
  // The hourly checks are run as steps here (a translation has no webhook), not on a schedule.
  process.env.RECONCILE_CHECK_EVERY_MINUTES = "0";
  demo = await startTestDemo({ products: 20, presences: "sample" });
  await demo.firstSync;
  // The French domain's workspace is filled right after the shop's first sync.
  for (let waited = 0; !configuredWorkspace(FRENCH_HOST) && waited < 90_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The French domain resolves to this machine, as its DNS would send a shopper to the store.
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${FRENCH_HOST} 127.0.0.1`],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  delete process.env.RECONCILE_CHECK_EVERY_MINUTES;
});

const frenchItems = () =>
  (demo.emulator.state.workspace("professional", "demo-store-fr")?.products ?? []) as {
    id: string;
    name: string;
    stock_status?: string;
  }[];
const numeric = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
const frenchProducts = () =>
  demo.emulator.state.workspace("professional", "demo-store-fr")?.products.length ?? 0;

/** The first product with a French title, and that title. */
function aProductWithAFrenchTitle() {
  const product = demo.shopify.state
    .products()
    .find((p) => demo.shopify.state.translations(p.id, "fr").some((t) => t.key === "title"))!;
  const frenchTitle = demo.shopify.state
    .translations(product.id, "fr")
    .find((t) => t.key === "title")!.value;
  return { product, frenchTitle };
}

async function until(
  what: string,
  condition: () => boolean,
  timeoutMs: number,
  state: () => Promise<unknown> | unknown = () => "",
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition();) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(await state())}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("the chat on each storefront domain", () => {
  it("answers a shopper on the French domain with French names and links on that domain, and the primary domain's in English", async () => {
    expect(configuredWorkspace(FRENCH_HOST)).toBe("demo-store-fr");
    const names = (workspaceId: string) =>
      demo.emulator.state.workspace("professional", workspaceId)!.products.map((p) => p.name);
    const inFrench = names("demo-store-fr");
    const products = demo.shopify.state.products();
    const { fixedPrices } = demo.shopify.state
      .marketCatalogs()
      .find((c) => Object.keys(c.fixedPrices).length > 0)!;
    const prices = (p: (typeof products)[number]) => {
      const variants = p.variants as { id: string; price: string }[];
      return {
        shop: Math.min(...variants.map((v) => Number(v.price))),
        france: Math.min(...variants.map((v) => Number(fixedPrices[v.id]?.price ?? v.price))),
      };
    };
    // A product with a French title said once in the French workspace, at a fixed French price.
    const product = products.find((p) => {
      const title = demo.shopify.state.translations(p.id, "fr").find((t) => t.key === "title");
      const { shop, france } = prices(p);
      return (
        title && inFrench.filter((name) => name === title.value).length === 1 && shop !== france
      );
    })!;
    expect(product).toBeDefined();
    const french = Object.fromEntries(
      demo.shopify.state.translations(product.id, "fr").map((t) => [t.key, t.value]),
    );

    const port = new URL(demo.storefrontUrl).port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const card = await askForProductCard(page, `http://${FRENCH_HOST}:${port}/`, french.title!);
    expect(await card.locator(".name").innerText()).toBe(french.title);
    expect(await card.locator("a").first().getAttribute("href")).toBe(
      `https://${FRENCH_HOST}/products/${french.handle}`,
    );
    // The France market's price, labelled in euros (the document's currency), whatever the locale.
    const shownPrice = async (locator: typeof card) =>
      (await locator.locator(".price").innerText()).replace(/\s/g, " ");
    const amount = (n: number) => new RegExp(n.toFixed(2).replace(".", "[.,]"));
    expect(await shownPrice(card)).toMatch(amount(prices(product).france));
    expect(await shownPrice(card)).toContain("€");
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/french-domain.png`,
      fullPage: true,
    });
    // The search box there suggests it by its French name, at the French price, on the French domain.
    await page.keyboard.press("Escape");
    const search = page.getByLabel("Rechercher", { exact: true });
    await search.click();
    await search.pressSequentially(french.title!);
    const suggestion = page
      .getByRole("listbox")
      .getByRole("group", { name: "Produits" })
      .getByRole("option")
      .filter({ hasText: french.title! })
      .first();
    await suggestion.waitFor({ timeout: 15_000 });
    expect((await suggestion.innerText()).replace(/\s/g, " ")).toMatch(
      amount(prices(product).france),
    );
    // It opens the product on the French domain. The preview does not serve that domain over
    // https, so the browser answers it here: the click ends in a loaded page, not in a failed
    // navigation that could cut into the next one.
    const frenchPage = `https://${FRENCH_HOST}/products/${french.handle}`;
    await page.route(frenchPage, (route) =>
      route.fulfill({ contentType: "text/html; charset=utf-8", body: `<h1>${french.title}</h1>` }),
    );
    await suggestion.click();
    await page.waitForURL(frenchPage);
    expect(await page.locator("h1").innerText()).toBe(french.title);

    const english = await askForProductCard(page, demo.storefrontUrl, String(product.title));
    expect(await english.locator(".name").innerText()).toBe(String(product.title));
    expect(await english.locator("a").first().getAttribute("href")).toBe(
      `https://demo-store.example.com/products/${String(product.handle)}`,
    );
    // The shop's own price, in the shop's currency.
    expect(await shownPrice(english)).toMatch(amount(prices(product).shop));
    expect(await shownPrice(english)).toContain("€");
    await page.close();
  });

  it("a shopper on the French domain who asks for a person reaches the merchant: the Inbox and Insights name the French domain", async () => {
    const port = new URL(demo.storefrontUrl).port;
    const shopper = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await shopper.goto(`http://${FRENCH_HOST}:${port}/`);
    expect(await ui(shopper).host.getAttribute("data-workspace-id")).toBe("demo-store-fr");
    await openChat(shopper);
    await ask(shopper, "Can I talk to a person?");
    const form = ui(shopper).dialog.locator(".offer form");
    await form.getByRole("textbox", { name: "Name" }).fill("Camille Durand");
    await form.getByRole("textbox", { name: "Email" }).fill("camille.durand@example.fr");
    await form.getByRole("textbox", { name: "Message" }).fill("Livrez-vous en Belgique ?");
    await form.getByRole("button", { name: /Send|Envoyer/ }).click();
    await waitIdle(shopper);
    await shopper.close();

    const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const entry = admin.getByRole("listitem").filter({ hasText: "Camille Durand" });
    // The service's webhooks are delivered as the shopper sends; the merchant opens the Inbox.
    await expect
      .poll(
        async () => {
          await admin.goto(`${demo.adminUrl}/inbox`);
          return entry.count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    expect(await entry.innerText()).toContain(`on ${FRENCH_HOST}`);
    expect(await entry.innerText()).toContain("Livrez-vous en Belgique ?");
    await admin.goto(`${demo.adminUrl}/insights`);
    const french = admin.locator(`[data-storefront="${FRENCH_HOST}"]`);
    // The file's earlier shoppers on the French domain chatted too; this one asked for a person.
    expect(await french.innerText()).toMatch(/\d+ conversations?, \d+ messages?, 1 handoff$/);
    await admin.screenshot({
      path: `${await artifactsDir("storefront-domain")}/insights-by-storefront.png`,
      fullPage: true,
    });
    await admin.close();
  });

  it("on the primary domain's German subfolder (/de), the chat's cards and the search box's suggestions show the German names, links under /de/ and the storefront's prices, and the chat is told the shopper's language", async () => {
    const english = demo.emulator.state
      .workspace("professional", demo.workspaceId)!
      .products.map((p) => p.name);
    const germanTitle = (id: string) =>
      demo.shopify.state.translations(id, "de").find((t) => t.key === "title")?.value;
    // A product with a German title whose English name is said once in the primary workspace.
    const product = demo.shopify.state
      .products()
      .find(
        (p) => germanTitle(p.id) && english.filter((name) => name === String(p.title)).length === 1,
      )!;
    expect(product).toBeDefined();
    const german = germanTitle(product.id)!;
    const price = Math.min(
      ...(product.variants as { price: string }[]).map((v) => Number(v.price)),
    );
    const subfolder = `${demo.storefrontUrl}de/`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const chats: { locale?: string }[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/chat")) {
        chats.push(JSON.parse(request.postData() ?? "{}") as { locale?: string });
      }
    });
    await page.goto(subfolder);
    // The shopper's page is in German: so is the chat's composer.
    await openChat(page);
    expect(await ui(page).dialog.getByRole("textbox", { name: "Ihre Nachricht" }).count()).toBe(1);
    await ask(page, `Tell me about ${String(product.title)}`);
    const card = ui(page).dialog.locator(".cards .card").filter({ hasText: german }).first();
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator(".name").innerText()).toBe(german);
    const link = `${subfolder}products/${String(product.handle)}`;
    expect(await card.locator("a").first().getAttribute("href")).toBe(link);
    const shown = (await card.locator(".price").innerText()).replace(/\s/g, " ");
    expect(shown).toMatch(new RegExp(price.toFixed(2).replace(".", "[.,]")));
    expect(shown).toContain("€");
    expect(chats.at(-1)?.locale).toBe("de");
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/german-subfolder.png`,
      fullPage: true,
    });

    // The search box on the same page suggests the product under its German name and link.
    await ui(page).dialog.getByRole("button", { name: "Chat schließen" }).click();
    const input = page.getByLabel("Suchen", { exact: true });
    await input.click();
    await input.pressSequentially(String(product.title));
    const suggestion = page
      .getByRole("listbox")
      .getByRole("group", { name: "Produkte" })
      .getByRole("option")
      .filter({ hasText: german })
      .first();
    await suggestion.waitFor({ timeout: 15_000 });
    await suggestion.click();
    await page.waitForURL(link);
    expect(await page.locator("h1").innerText()).toBe(german);
    await page.close();
  });

  it("asked about returns on the French domain, shows the French refund policy linking to its page there", async () => {
    const port = new URL(demo.storefrontUrl).port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`http://${FRENCH_HOST}:${port}/`);
    await openChat(page);
    await ask(page, "Quelle est votre politique de remboursement pour les retours ?");
    const card = ui(page)
      .dialog.locator("li.post")
      .filter({ hasText: "Politique de remboursement" })
      .first();
    await card.waitFor({ timeout: 30_000 });
    const link = card.getByRole("link", { name: "Politique de remboursement" });
    expect(await link.getAttribute("href")).toBe(`https://${FRENCH_HOST}/policies/refund-policy`);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/french-refund-policy.png`,
      fullPage: true,
    });
    await page.close();
  });

  it("Settings says the French domain is indexed in its own workspace", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${demo.adminUrl}/settings`);
    await page
      .getByText(
        "Indexed: https://demo-store.example.com/ in English, and https://demo-store.fr/ in French in a workspace of its own",
      )
      .waitFor();
    const row = (url: string) => page.locator(`li[data-url="${url}"]`);
    expect(await row("https://demo-store.fr/").innerText()).toContain(
      "Indexed in workspace demo-store-fr",
    );
    expect(await row("https://demo-store.example.com/de/").innerText()).toContain(
      "Not indexed yet",
    );
    await page.close();
  });

  it("the preview takes the storefront from the Host as the app names domains: a trailing dot or capitals find the French workspace, `__proto__` or `constructor` the primary one", async () => {
    const served = async (host: string) => {
      const answer = await rawRequest(demo.storefrontUrl, { headers: { host } });
      expect(answer.status, `Host: ${host}`).toBe(200);
      return /data-workspace-id="([^"]*)"/.exec(answer.body)?.[1];
    };
    expect(await served(FRENCH_HOST)).toBe("demo-store-fr");
    expect(await served(`${FRENCH_HOST}.`)).toBe("demo-store-fr");
    expect(await served("Demo-Store.FR")).toBe("demo-store-fr");
    for (const hostile of ["__proto__", "constructor", "hasOwnProperty", "toString"]) {
      expect(await served(hostile)).toBe(demo.workspaceId);
    }
  });

  it("shows a product's new French title and a sale's stock on the French domain within 2 minutes, without a resync", async () => {
    const runs = () => demo.shopify.state.bulkOperations().length;
    const exportsBefore = runs();
    const products = demo.shopify.state.products().filter(
      (p) =>
        frenchItems().some((item) => item.id === numeric(p.id)) &&
        (
          p.variants as unknown as {
            inventoryPolicy: string;
            inventoryItem: { tracked: boolean };
          }[]
        ).every((v) => v.inventoryItem.tracked && v.inventoryPolicy === "DENY"),
    );
    const [edited, sold] = products;
    expect(sold).toBeDefined();

    // The merchant renames the product, then translates its new title into French.
    const title = "Expedition flask";
    const frenchTitle = "Gourde d'expédition";
    demo.shopify.state.updateProduct(edited!.id, { title }, { webhook: true });
    const answer = await graphql<{ translationsRegister: { userErrors: unknown[] } }>(
      demo.shopify,
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
        id: edited!.id,
        translations: [
          {
            key: "title",
            locale: "fr",
            value: frenchTitle,
            translatableContentDigest: createHash("sha256").update(title).digest("hex"),
          },
        ],
      },
      { token: DEFAULT_MERCHANT_ACCESS_TOKEN },
    );
    expect(answer.body.data?.translationsRegister.userErrors).toEqual([]);
    // A sale sells another product out.
    for (const variant of demo.shopify.state.product(sold!.id)!.variants as unknown as {
      id: string;
      inventoryQuantity: number;
    }[]) {
      if (variant.inventoryQuantity > 0)
        demo.shopify.state.purchase(variant.id, variant.inventoryQuantity);
    }
    // The hourly check of changed products (what finds the translation), as a step.
    const started = Date.now();
    await checkChangedProducts({
      shopDomain: DEMO_SHOP,
      admin: await adminFor(DEMO_SHOP),
      pollMs: 50,
    });
    await until(
      "the French title and stock in the French workspace",
      () =>
        frenchItems().some((item) => item.name === frenchTitle) &&
        frenchItems().find((item) => item.id === numeric(sold!.id))?.stock_status === "outofstock",
      120_000,
      async () => ({
        edited: frenchItems().find((item) => item.id === numeric(edited!.id))?.name,
        sold: frenchItems().find((item) => item.id === numeric(sold!.id))?.stock_status,
        primarySold: (
          demo.emulator.state.workspace("professional", demo.workspaceId)?.products as
            { id: string; stock_status?: string; name: string }[] | undefined
        )?.find((item) => item.id === numeric(sold!.id))?.stock_status,
        outbox: await prisma.pendingChange.findMany(),
        checks: await prisma.reconcileCheck.findMany(),
      }),
    );
    expect(Date.now() - started).toBeLessThan(120_000);

    const port = new URL(demo.storefrontUrl).port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const card = await askForProductCard(page, `http://${FRENCH_HOST}:${port}/`, frenchTitle);
    expect(await card.locator(".name").innerText()).toBe(frenchTitle);
    const soldTitle = frenchItems().find((item) => item.id === numeric(sold!.id))!.name;
    const soldCard = await askForProductCard(page, `http://${FRENCH_HOST}:${port}/`, soldTitle);
    expect(await soldCard.locator(".stock").getAttribute("class")).toContain("outofstock");
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/french-domain-live.png`,
      fullPage: true,
    });
    await page.close();
    // No full sync ran for it: the only exports since are the checks' (no product export).
    const since = demo.shopify.state.bulkOperations().slice(exportsBefore);
    expect(
      since.every((op) => !/translations\(locale: "fr"\) \{ key value outdated \}/.test(op.query)),
    ).toBe(true);
  });

  it("follows the store: the French presence removed, its chat answers from the primary workspace and its workspace is emptied; added back, it is filled again, and the Dashboard says so", async () => {
    const { product, frenchTitle } = aProductWithAFrenchTitle();
    const port = new URL(demo.storefrontUrl).port;
    const frenchUrl = `http://${FRENCH_HOST}:${port}/`;
    const asMerchant = async (query: string, variables: Record<string, unknown>) => {
      const { body } = await graphql(demo.shopify, query, variables, {
        token: demo.shopify.state.merchantAccessToken,
      });
      expect(body as object).not.toHaveProperty("errors");
    };
    /** The periodic check's read (a web presence's change sends no webhook), then a wait. */
    const presencesRead = async (until: () => boolean) => {
      await refreshStorefrontPresencesSoon(DEMO_SHOP, adminFor);
      for (let waited = 0; !until() && waited < 70_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const dashboardLine = async () => {
      await page.goto(demo.adminUrl);
      const line = page.locator(`[data-storefront="${FRENCH_HOST}"]`);
      await page.getByText("Storefront domains").or(page.getByText("Last sync")).first().waitFor();
      return (await line.count()) > 0 ? line.innerText() : null;
    };
    expect(await dashboardLine()).toContain("filled with");

    // Removed in Shopify: the configuration stops naming it, then its workspace is emptied.
    const presence = demo.shopify.state
      .presences()
      .webPresences.find((p) => p.host === FRENCH_HOST)!;
    const domainId = demo.shopify.state.presences().domains.find((d) => d.host === FRENCH_HOST)!.id;
    await asMerchant(
      `mutation Drop($id: ID!) { webPresenceDelete(id: $id) { deletedId userErrors { message } } }`,
      { id: presence.id },
    );
    await presencesRead(() => frenchProducts() === 0);
    expect(configuredWorkspace(FRENCH_HOST)).toBeUndefined();
    expect(frenchProducts()).toBe(0);
    const fallback = await askForProductCard(page, frenchUrl, String(product.title));
    expect(await fallback.locator("a").first().getAttribute("href")).toBe(
      `https://demo-store.example.com/products/${String(product.handle)}`,
    );
    expect(await dashboardLine()).toBeNull();

    // Added back while Shopify's export fails: not filled, and why; its shoppers keep the primary.
    demo.shopify.state.failNextBulkOperation("INTERNAL_SERVER_ERROR");
    await asMerchant(
      `mutation Add($input: WebPresenceCreateInput!) { webPresenceCreate(input: $input) { webPresence { id } userErrors { message } } }`,
      { input: { domainId, defaultLocale: "fr" } },
    );
    let stopped: string | null = null;
    await presencesRead(() => true);
    for (let tries = 0; tries < 30 && !stopped?.includes("not filled"); tries++) {
      stopped = await dashboardLine();
    }
    expect(stopped).toContain("not filled, its last fill stopped");
    expect(stopped).toContain("shoppers get the primary workspace (English)");
    expect(configuredWorkspace(FRENCH_HOST)).toBeUndefined();

    // Resync (or the next try): filled, and French answers return on the French domain.
    await page.goto(demo.adminUrl);
    await page.getByRole("button", { name: "Resync" }).click();
    for (let waited = 0; !configuredWorkspace(FRENCH_HOST) && waited < 60_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(configuredWorkspace(FRENCH_HOST)).toBe("demo-store-fr");
    expect(await dashboardLine()).toContain("filled with");
    const card = await askForProductCard(page, frenchUrl, frenchTitle);
    expect(await card.locator(".name").innerText()).toBe(frenchTitle);
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/french-domain-back.png`,
      fullPage: true,
    });
    await page.close();
  }, 150_000);

  it("lets the merchant untick the French domain in Settings: its chat answers from the primary workspace and its workspace is emptied; ticked again, Settings shows the cost before saving and it is filled again", async () => {
    const { product, frenchTitle } = aProductWithAFrenchTitle();
    const frenchUrl = `http://${FRENCH_HOST}:${new URL(demo.storefrontUrl).port}/`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const openSettings = async () => {
      await page.goto(`${demo.adminUrl}/settings`);
      await page.getByRole("heading", { name: "Markets and languages" }).waitFor();
    };
    const box = () =>
      page.getByRole("checkbox", { name: `Index ${FRENCH_HOST} in its own workspace` });
    const cost = () => page.locator("#storefronts-cost").innerText();
    const save = async () => {
      await page.getByRole("button", { name: "Save storefronts" }).click();
      await page.getByText("Storefronts saved").waitFor();
    };
    const indexed = frenchProducts();
    expect(indexed).toBeGreaterThan(0);

    await openSettings();
    expect(await box().isChecked()).toBe(true);
    expect(await cost()).toContain("Saving adds no products to this month's quota");
    await box().uncheck();
    expect(await cost()).toContain("Saving adds no products to this month's quota");
    await save();
    await page.getByText(`${FRENCH_HOST} is no longer indexed`).waitFor();
    await until("the French workspace emptied", () => frenchProducts() === 0, 60_000);
    expect(configuredWorkspace(FRENCH_HOST)).toBeUndefined();
    const fallback = await askForProductCard(page, frenchUrl, String(product.title));
    expect(await fallback.locator("a").first().getAttribute("href")).toBe(
      `https://demo-store.example.com/products/${String(product.handle)}`,
    );

    // Reloaded, Settings keeps the choice; a forged form naming another shop's domain changes nothing.
    await openSettings();
    expect(await box().isChecked()).toBe(false);
    expect(await page.locator(`li[data-url="https://${FRENCH_HOST}/"]`).innerText()).toContain(
      "Not indexed: unticked",
    );
    const forged = await page.request.post(`${demo.adminUrl}/storefronts-choice`, {
      form: { storefront: "other-shop.example" },
    });
    expect(await forged.text()).toContain("Not storefronts of this store");
    expect(configuredWorkspace(FRENCH_HOST)).toBeUndefined();

    // Ticked again: the cost is shown before saving, then the domain is filled again.
    await openSettings();
    await box().check();
    const planned = await cost();
    expect(planned).toContain(`Saving adds up to`);
    expect(planned).toContain(`${FRENCH_HOST}: `);
    await page.screenshot({
      path: `${await artifactsDir("storefront-domain")}/settings-storefront-choice.png`,
      fullPage: true,
    });
    await save();
    await until(
      "the French domain filled again",
      () => configuredWorkspace(FRENCH_HOST) === "demo-store-fr",
      90_000,
    );
    expect(frenchProducts()).toBe(indexed);
    const card = await askForProductCard(page, frenchUrl, frenchTitle);
    expect(await card.locator(".name").innerText()).toBe(frenchTitle);
    await page.close();
  }, 240_000);
});
