/**
 * Saving the choice of product metafields in Settings (issue 25, items 2 and 5): only what
 * Settings offers is kept (never an app's own namespace, never a definition the store does not
 * have), too many are refused with what to do, and an unchanged choice starts no run.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PUBLISHABLE_KEY, DEMO_SHOP, type RunningDemo } from "../../dev/demo/admin-demo";
import { startTestDemo } from "../../testkit/demo-browser";
import { settingsPageOf } from "../../app/admin/settings-page.server";
import * as settings from "../../app/shop/save-settings.server";
import { APP_OWNED_REASON, HIDDEN_REASON } from "../../app/shop/product-metafields.server";
import { adminFor } from "../../app/shopify/admin-auth.server";
import {
  PRODUCT_METAFIELD_DEFINITIONS_QUERY,
  type ProductMetafieldDefinitionsData,
} from "../../app/catalogue/queries";
import { unfinishedRuns } from "../../app/models/sync-runs.server";
import { data } from "../fake-shopify/helpers";

let demo: RunningDemo;
let admin: Awaited<ReturnType<typeof adminFor>>;

beforeAll(async () => {
  demo = await startTestDemo({ products: 5 });
  await demo.firstSync;
  admin = await adminFor(DEMO_SHOP);
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

const save = (metafields: string[]) =>
  settings.saveSettings(DEMO_SHOP, admin, {
    secretKey: "",
    publishableKey: DEMO_PUBLISHABLE_KEY,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
    metafields,
  });

describe("Settings: product metafields", () => {
  it("lists the definitions, an app's own as not offered with why", async () => {
    const page = await settingsPageOf(DEMO_SHOP, admin);
    const byKey = new Map((page.metafields ?? []).map((m) => [m.key, m]));
    expect(byKey.get("specs.waterproof")).toMatchObject({
      name: "Waterproof",
      type: "boolean",
      count: 3,
      notOffered: null,
    });
    expect(byKey.get("app--4242--loyalty.points_multiplier")?.notOffered).toBe(APP_OWNED_REASON);
    expect(page.chosenMetafields).toEqual([]);
  });

  it("does not offer what the storefront may not show, and suggests what shoppers ask about or the merchant pinned", async () => {
    const page = await settingsPageOf(DEMO_SHOP, admin);
    const byKey = new Map((page.metafields ?? []).map((m) => [m.key, m]));
    expect(byKey.get("internal.supplier")).toMatchObject({
      name: "Supplier",
      notOffered: HIDDEN_REASON,
      suggested: null,
    });
    expect(byKey.get("specs.material")?.suggested).toBe(
      "Suggested: shoppers often ask what it is made of",
    );
    expect(byKey.get("specs.waterproof")?.suggested).toBe(
      "Suggested: shoppers often ask whether it is waterproof",
    );
    expect(byKey.get("specs.features")?.suggested).toBe(
      "Suggested: pinned on your products in Shopify",
    );
    expect(byKey.get("reviews.rating")?.suggested).toBeNull();
    // A hidden one sent in the form anyway is not kept.
    const saved = await save(["internal.supplier"]);
    expect(saved.ok && saved.choicesMessage).toBeNull();
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields).toEqual([]);
  });

  it("keeps only offered definitions, refuses too many, and starts no run for the same choice", async () => {
    const first = await save([
      "specs.material",
      "app--4242--loyalty.points_multiplier",
      "specs.deleted_meanwhile",
    ]);
    expect(first.ok).toBe(true);
    expect(first.ok && first.choicesMessage).toBe(
      "Exporting products from Shopify to send them with the metafields you chose: follow it on the Dashboard.",
    );
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields).toEqual(["specs.material"]);

    const again = await save(["specs.material"]);
    expect(again.ok && again.choicesMessage).toBeNull();

    const tooMany = await save(Array.from({ length: 11 }, (_, i) => `specs.key${i}`));
    expect(tooMany.ok ? [] : tooMany.problems).toEqual([
      { field: "metafields", message: settings.TOO_MANY_METAFIELDS_MESSAGE },
    ]);
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields).toEqual(["specs.material"]);
  });

  it("lists the variant definitions beside the product ones, counted in variants, and keeps a ticked one as a variant's", async () => {
    const page = await settingsPageOf(DEMO_SHOP, admin);
    const finish = page.metafields?.find((m) => m.choice === "variant:specs.finish");
    expect(finish).toMatchObject({
      name: "Colour finish",
      key: "specs.finish",
      owner: "PRODUCTVARIANT",
      type: "single_line_text_field",
      count: 4,
      notOffered: null,
    });
    const saved = await save(["specs.material", "variant:specs.finish", "variant:specs.material"]);
    expect(saved.ok).toBe(true);
    // "variant:specs.material" names no variant definition: not kept.
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields).toEqual([
      "specs.material",
      "variant:specs.finish",
    ]);
    const tooMany = await save(["variant:specs.finish", "variant:a.b", "variant:c.d"]);
    expect(tooMany.ok ? [] : tooMany.problems).toEqual([
      { field: "metafields", message: settings.TOO_MANY_VARIANT_METAFIELDS_MESSAGE },
    ]);
    expect((await save(["specs.material"])).ok).toBe(true);
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields).toEqual(["specs.material"]);
  });

  it("a chosen definition deleted in Shopify leaves the choice and every product in the index at once (metafield_definitions/delete)", async () => {
    expect((await save(["specs.material", "specs.waterproof", "variant:specs.finish"])).ok).toBe(
      true,
    );
    await expect
      .poll(() => titlesWith("Material", "Anodised aluminium"), { timeout: 60_000 })
      .toEqual(["IPod Nano - 8GB"]);
    await noRunUnderWay();
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      demo.shopify,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCT", after: null },
    );
    const id = metafieldDefinitions.nodes.find((d) => d.key === "material")!.id;
    const deleted = await data<{ metafieldDefinitionDelete: { userErrors: unknown[] } }>(
      demo.shopify,
      DELETE_DEFINITION,
      { id },
    );
    expect(deleted.metafieldDefinitionDelete.userErrors).toEqual([]);
    const delivery = demo.shopify.state
      .webhookDeliveries()
      .findLast((d) => d.topic === "metafield_definitions/delete");
    expect(Object.keys(JSON.parse(delivery!.body)).sort()).toEqual(shopifyExampleFields("delete"));
    expect(JSON.parse(delivery!.body)).toEqual({
      id,
      type: "ShopifyMetafields::Types::SingleLineTextFieldType",
      created_by_app_id: null,
    });

    // No save: the webhook's reading withdraws it, and the products lose it in the index.
    await expect
      .poll(async () => (await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields, {
        timeout: 60_000,
      })
      .toEqual(["specs.waterproof", "variant:specs.finish"]);
    await expect
      .poll(() => titlesWith("Material", "Anodised aluminium"), { timeout: 60_000 })
      .toEqual([]);
    const page = await settingsPageOf(DEMO_SHOP, admin);
    expect(page.chosenGone).toEqual([]);
    expect(attributesOf("IPod Nano - 8GB")).toMatchObject({ Waterproof: ["No"] });
  });

  it("a chosen definition whose storefront access was turned off in Shopify leaves at once (metafield_definitions/update)", async () => {
    expect((await save(["specs.waterproof", "specs.care"])).ok).toBe(true);
    await expect
      .poll(() => attributesOf("IPod Nano - 8GB")?.["Care instructions"], { timeout: 60_000 })
      .toBeDefined();
    await noRunUnderWay();
    const updated = await data<{ metafieldDefinitionUpdate: { userErrors: unknown[] } }>(
      demo.shopify,
      UPDATE_DEFINITION,
      {
        definition: {
          namespace: "specs",
          key: "care",
          ownerType: "PRODUCT",
          access: { storefront: "NONE" },
        },
      },
    );
    expect(updated.metafieldDefinitionUpdate.userErrors).toEqual([]);
    const delivery = demo.shopify.state
      .webhookDeliveries()
      .findLast((d) => d.topic === "metafield_definitions/update");
    // Shopify's own example payload's fields, no more, no less.
    expect(Object.keys(JSON.parse(delivery!.body)).sort()).toEqual(shopifyExampleFields("update"));
    expect(JSON.parse(delivery!.body)).toMatchObject({
      namespace: "specs",
      key: "care",
      owner_type: "Product",
      type_name: "multi_line_text_field",
    });

    await expect
      .poll(async () => (await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields, {
        timeout: 60_000,
      })
      .toEqual(["specs.waterproof"]);
    await expect
      .poll(() => attributesOf("IPod Nano - 8GB")?.["Care instructions"], { timeout: 60_000 })
      .toBeUndefined();
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenWithdrawn).toEqual([]);
  });

  it("a definition deleted after a running sync asked Shopify for the export still leaves the index once that run ends", async () => {
    const exports = demo.shopify.state.bulkOperations().length;
    // The Settings run's exports end, but their finish notices wait: the run stays under way.
    demo.shopify.state.holdFinishWebhooks();
    expect((await save(["specs.waterproof", "specs.features"])).ok).toBe(true);
    // The Settings run has asked for its export, with Features in it, before the delete.
    await expect
      .poll(() => demo.shopify.state.bulkOperations().length, { timeout: 30_000 })
      .toBeGreaterThan(exports);
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      demo.shopify,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCT", after: null },
    );
    const id = metafieldDefinitions.nodes.find((d) => d.key === "features")!.id;
    await data(demo.shopify, DELETE_DEFINITION, { id });
    await expect
      .poll(async () => (await settingsPageOf(DEMO_SHOP, admin)).chosenMetafields, {
        timeout: 60_000,
      })
      .toEqual(["specs.waterproof"]);
    expect(await unfinishedRuns()).toHaveLength(1);
    demo.shopify.state.releaseFinishWebhooks();
    await expect
      .poll(() => attributesOf("IPod Nano - 8GB")?.Waterproof, { timeout: 60_000 })
      .toEqual(["No"]);
    await noRunUnderWay();
    await expect
      .poll(() => attributesOf("IPod Nano - 8GB")?.Features, { timeout: 60_000 })
      .toBeUndefined();
    await noRunUnderWay();
  }, 180_000);

  it("without read_content approved (no metafield_definitions/* webhooks), Settings names a chosen definition deleted or hidden, and a save drops it", async () => {
    demo.shopify.state.withdrawScope("read_content");
    expect((await save(["specs.weight", "reviews.rating"])).ok).toBe(true);
    const { metafieldDefinitions } = await data<ProductMetafieldDefinitionsData>(
      demo.shopify,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: "PRODUCT", after: null },
    );
    const id = metafieldDefinitions.nodes.find((d) => d.key === "weight")!.id;
    await data(demo.shopify, DELETE_DEFINITION, { id });
    await data(demo.shopify, UPDATE_DEFINITION, {
      definition: {
        namespace: "reviews",
        key: "rating",
        ownerType: "PRODUCT",
        access: { storefront: "NONE" },
      },
    });
    // Only the deletes made while read_content was granted were sent.
    expect(demo.shopify.state.webhookDeliveries("metafield_definitions/delete")).toHaveLength(2);

    const page = await settingsPageOf(DEMO_SHOP, admin);
    expect(page.chosenMetafields).toEqual(["specs.weight", "reviews.rating"]);
    expect(page.chosenGone).toEqual(["Weight (specs.weight)"]);
    expect(page.chosenWithdrawn).toEqual([`Rating (reviews.rating): ${HIDDEN_REASON}`]);
    expect((await save(["specs.weight", "reviews.rating"])).ok).toBe(true);
    const settled = await settingsPageOf(DEMO_SHOP, admin);
    expect(settled.chosenMetafields).toEqual([]);
    expect(settled.chosenGone).toEqual([]);
    expect(settled.chosenWithdrawn).toEqual([]);
  });
});

/** The fields of Shopify's example payload of metafield_definitions/<action> (test/fixtures). */
function shopifyExampleFields(action: "update" | "delete"): string[] {
  const file = `${__dirname}/../fixtures/shopify/webhooks/metafield_definitions_${action}.json`;
  const example = JSON.parse(readFileSync(file, "utf8")) as { response: object };
  return Object.keys(example.response).sort();
}

/** The Settings save's run has ended: a webhook's run would otherwise find it under way. */
async function noRunUnderWay(): Promise<void> {
  await expect.poll(async () => (await unfinishedRuns()).length, { timeout: 60_000 }).toBe(0);
}

/** The attributes the emulator's index holds for the product of that title. */
function attributesOf(title: string): Record<string, string[]> | undefined {
  const workspace = demo.emulator.state.workspace("professional", demo.workspaceId);
  return (workspace?.products ?? []).find((p) => p.name === title)?.attributes as
    Record<string, string[]> | undefined;
}

function titlesWith(attribute: string, value: string): string[] {
  const workspace = demo.emulator.state.workspace("professional", demo.workspaceId);
  return (workspace?.products ?? [])
    .filter((p) =>
      ((p.attributes as Record<string, string[]> | undefined)?.[attribute] ?? []).includes(value),
    )
    .map((p) => String(p.name));
}

const UPDATE_DEFINITION = `mutation UpdateDefinition($definition: MetafieldDefinitionUpdateInput!) {
  metafieldDefinitionUpdate(definition: $definition) {
    updatedDefinition { id access { storefront } }
    userErrors { field message code }
  }
}`;

const DELETE_DEFINITION = `mutation DeleteDefinition($id: ID!) {
  metafieldDefinitionDelete(id: $id, deleteAllAssociatedMetafields: true) {
    deletedDefinitionId
    userErrors { field message code }
  }
}`;
