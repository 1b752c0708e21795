/**
 * Product metafields chosen in Settings reach the index (issue 25, items 2, 5 and 7), in Chromium
 * through the admin's own pages against the demo, whose store carries a "specs" definition set;
 * outcomes checked on the page and in the service emulator's index, never in the app's tables.
 */
import { describe, expect, it, vi } from "vitest";
import { useDemoInBrowser } from "../../testkit/demo-browser";
import {
  asMerchant,
  METAFIELD_DEFINITION_CREATE,
  METAFIELDS_SET,
  userErrorsOf,
} from "../fake-shopify/helpers";

// Waits for real syncs on a shared, loaded machine; nothing depends on timing.
vi.setConfig({ testTimeout: 300_000 });

const session = useDemoInBrowser({ products: 10, waitForFirstSync: true, artifacts: "metafields" });

/** The attributes the emulator's index holds for the product of that title. */
function attributesOf(title: string): Record<string, unknown> | undefined {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  const product = (workspace?.products ?? []).find((p) => p.name === title);
  return product?.attributes as Record<string, unknown> | undefined;
}

/** The attributes the emulator's index holds for each variant of the product of that title. */
function variantAttributesOf(title: string): Record<string, unknown> {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  const product = (workspace?.products ?? []).find((p) => p.name === title);
  const variants = (product?.variants ?? []) as { title: string; attributes?: unknown }[];
  return Object.fromEntries(variants.map((v) => [v.title, v.attributes ?? null]));
}

/** Every product in the index that has an attribute of that name. */
function titlesWith(name: string): string[] {
  const workspace = session.demo.emulator.state.workspace("professional", session.demo.workspaceId);
  return (workspace?.products ?? [])
    .filter((p) => name in ((p.attributes as Record<string, unknown> | undefined) ?? {}))
    .map((p) => String(p.name))
    .sort();
}

const NANO = "IPod Nano - 8GB";
const TOUCH = "IPod Touch 8GB";

describe("product metafields, in Settings", () => {
  it("lists the store's definitions, sends the two ticked as text to the right products, and takes one back out when unticked", async () => {
    expect(attributesOf(NANO)).toBeDefined();
    expect(attributesOf(NANO)).not.toHaveProperty("Material");
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Product metafields" }).waitFor();
    await page
      .getByText(
        "Suggested: shoppers often ask what it is made of. specs.material · Single line text · 3 products have a value",
      )
      .waitFor();
    await page.getByText("Suggested: pinned on your products in Shopify. specs.features").waitFor();
    await page.getByText("specs.height · Dimension · 1 product has a value").waitFor();
    // An app's own metafields are not offered, and Settings says why.
    expect(await page.getByLabel("Loyalty points multiplier").count()).toBe(0);
    await page
      .getByText(
        "Loyalty points multiplier (app--4242--loyalty.points_multiplier, Decimal): Kept by an app for its own use",
      )
      .waitFor();

    // Nor what the storefront may not show.
    expect(await page.getByLabel("Supplier").count()).toBe(0);
    await page
      .getByText(
        "Supplier (internal.supplier, Single line text): Hidden from your storefront (its storefront access is off in Shopify",
      )
      .waitFor();

    await page.getByLabel("Material: product metafield", { exact: true }).check();
    await page.getByLabel("Waterproof: product metafield", { exact: true }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await page
      .getByText("Exporting products from Shopify to send them with the metafields you chose")
      .waitFor();
    await session.shot(page, "settings-metafields-chosen");

    await expect.poll(() => attributesOf(NANO)?.Waterproof, { timeout: 120_000 }).toEqual(["No"]);
    expect(attributesOf(NANO)).toMatchObject({ Material: ["Anodised aluminium"] });
    expect(attributesOf(TOUCH)).toMatchObject({
      Material: ["Stainless steel and glass"],
      Waterproof: ["No"],
    });
    // Only the products with a value carry them (the snowboard with one is a draft, not indexed).
    // (Generated products have a "Material" option: an attribute of the same name already.)
    expect(titlesWith("Waterproof")).toEqual([NANO, TOUCH]);
    // Not chosen: not sent.
    expect(attributesOf(NANO)).not.toHaveProperty("Rating");
    expect(attributesOf(NANO)).not.toHaveProperty("Care instructions");

    await page.reload();
    expect(await page.getByLabel("Material: product metafield", { exact: true }).isChecked()).toBe(
      true,
    );
    await page.getByLabel("Waterproof: product metafield", { exact: true }).uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await expect.poll(() => titlesWith("Waterproof"), { timeout: 120_000 }).toEqual([]);
    expect(attributesOf(NANO)).toMatchObject({ Material: ["Anodised aluminium"] });
    expect(attributesOf(TOUCH)).toMatchObject({ Material: ["Stainless steel and glass"] });
  });

  it("tells a product's size chart metafield from the size chart metaobjects, and sends a ticked variant metafield on each variant, and a standard category metafield as its entries' names, until unticked", async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Product metafields" }).waitFor();
    // Same name in Shopify, different things: each label says which.
    expect(await page.getByLabel("Size chart: product metafield", { exact: true }).count()).toBe(1);
    expect(await page.getByLabel("Size chart: metaobject entries", { exact: true }).count()).toBe(
      1,
    );
    await page
      .getByText(
        "Suggested: shoppers often ask which colours it comes in. specs.finish · Single line text · 4 variants have a value",
      )
      .waitFor();

    expect(variantAttributesOf(NANO)).toEqual({
      Pink: null,
      Red: null,
      Green: null,
      Black: null,
    });
    await page.getByLabel("Colour finish: variant metafield", { exact: true }).check();
    // Shopify's standard category metafield, a list of standard Color entries, is offered too.
    await page.getByLabel("Color: product metafield", { exact: true }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await session.shot(page, "settings-variant-metafield-chosen");
    await expect
      .poll(() => variantAttributesOf(NANO).Red, { timeout: 120_000 })
      .toEqual({ "Colour finish": ["Gloss (PRODUCT)RED"] });
    expect(variantAttributesOf(NANO)).toMatchObject({
      Pink: { "Colour finish": ["Satin anodised pink"] },
      Black: { "Colour finish": ["Matte black"] },
    });
    expect(attributesOf(NANO)?.["Colour finish"]).toContain("Red: Gloss (PRODUCT)RED");
    expect(attributesOf(TOUCH)?.Color).toEqual(["Black"]);

    await page.reload();
    await page.getByLabel("Colour finish: variant metafield", { exact: true }).uncheck();
    await page.getByLabel("Color: product metafield", { exact: true }).uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await expect.poll(() => variantAttributesOf(NANO).Red, { timeout: 120_000 }).toBeNull();
    expect(attributesOf(NANO)).not.toHaveProperty("Colour finish");
    expect(attributesOf(TOUCH)).not.toHaveProperty("Color");
  });
  it("lists a definition the merchant creates in Shopify, a reference to another product, and once ticked sends the product it names", async () => {
    const shopify = session.demo.shopify;
    const product = (title: string) => shopify.state.products().find((p) => p.title === title)!;
    const created = await asMerchant(shopify, METAFIELD_DEFINITION_CREATE, {
      definition: {
        name: "Goes with",
        namespace: "custom",
        key: "goes_with",
        type: "product_reference",
        ownerType: "PRODUCT",
        access: { storefront: "PUBLIC_READ" },
      },
    });
    expect(userErrorsOf(created)).toEqual([]);
    const set = await asMerchant(shopify, METAFIELDS_SET, {
      metafields: [
        {
          ownerId: product(NANO).id,
          namespace: "custom",
          key: "goes_with",
          value: product(TOUCH).id,
        },
      ],
    });
    expect(userErrorsOf(set)).toEqual([]);
    await shopify.state.settled();
    expect(
      shopify.state.webhookDeliveries("metafield_definitions/create").map((d) => d.status),
    ).toEqual([200]);

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Product metafields" }).waitFor();
    await page.getByText("custom.goes_with · Product · 1 product has a value").waitFor();
    await page.getByLabel("Goes with: product metafield", { exact: true }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await session.shot(page, "settings-reference-metafield-chosen");
    await expect
      .poll(() => attributesOf(NANO)?.["Goes with"], { timeout: 120_000 })
      .toEqual([TOUCH]);
    expect(titlesWith("Goes with")).toEqual([NANO]);
    await page.close();
  });

  it("offers a list of product references and, once ticked, sends the names of the products it lists; unticked, they leave", async () => {
    const shopify = session.demo.shopify;
    const product = (title: string) => shopify.state.products().find((p) => p.title === title)!;
    const workspace = session.demo.emulator.state.workspace(
      "professional",
      session.demo.workspaceId,
    );
    const other = (workspace?.products ?? [])
      .map((p) => String(p.name))
      .find((title) => title !== NANO && title !== TOUCH && product(title))!;
    expect(other).toBeDefined();
    const created = await asMerchant(shopify, METAFIELD_DEFINITION_CREATE, {
      definition: {
        name: "Bought together",
        namespace: "custom",
        key: "bought_together",
        type: "list.product_reference",
        ownerType: "PRODUCT",
        access: { storefront: "PUBLIC_READ" },
      },
    });
    expect(userErrorsOf(created)).toEqual([]);
    const set = await asMerchant(shopify, METAFIELDS_SET, {
      metafields: [
        {
          ownerId: product(TOUCH).id,
          namespace: "custom",
          key: "bought_together",
          value: JSON.stringify([product(NANO).id, product(other).id]),
        },
      ],
    });
    expect(userErrorsOf(set)).toEqual([]);
    await shopify.state.settled();

    const page = await session.browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${session.demo.adminUrl}/settings`);
    await page.getByRole("heading", { name: "Product metafields" }).waitFor();
    await page
      .getByText("custom.bought_together · List of products · 1 product has a value")
      .waitFor();
    const box = page.getByLabel("Bought together: product metafield", { exact: true });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await session.shot(page, "settings-reference-list-chosen");
    await expect
      .poll(() => attributesOf(TOUCH)?.["Bought together"], { timeout: 120_000 })
      .toEqual([NANO, other]);
    expect(titlesWith("Bought together")).toEqual([TOUCH]);

    await page.reload();
    const again = page.getByLabel("Bought together: product metafield", { exact: true });
    await expect.poll(() => again.isChecked()).toBe(true);
    await again.uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved").waitFor();
    await expect.poll(() => titlesWith("Bought together"), { timeout: 120_000 }).toEqual([]);
    await page.close();
  });
});
