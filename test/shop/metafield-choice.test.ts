/**
 * Saving the choice of product metafields in Settings (issue 25, items 2 and 5): only what
 * Settings offers is kept (never an app's own namespace, never a definition the store does not
 * have), too many are refused with what to do, and an unchanged choice starts no run.
 */
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

  it("names a chosen definition deleted in Shopify, and a save stops asking for it", async () => {
    const page = await settingsPageOf(DEMO_SHOP, admin);
    const material = page.metafields?.find((m) => m.key === "specs.material");
    expect(page.chosenMetafields).toEqual(["specs.material"]);
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

    const after = await settingsPageOf(DEMO_SHOP, admin);
    expect(material).toBeDefined();
    expect(after.metafields?.map((m) => m.key)).not.toContain("specs.material");
    expect(after.chosenGone).toEqual(["Material (specs.material)"]);
    const saved = await save([]);
    expect(saved.ok).toBe(true);
    const settled = await settingsPageOf(DEMO_SHOP, admin);
    expect(settled.chosenMetafields).toEqual([]);
    expect(settled.chosenGone).toEqual([]);
  });

  it("names a chosen definition whose storefront access was turned off in Shopify, and a save drops it", async () => {
    expect((await save(["specs.care"])).ok).toBe(true);
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

    const page = await settingsPageOf(DEMO_SHOP, admin);
    expect(page.chosenMetafields).toEqual(["specs.care"]);
    expect(page.chosenWithdrawn).toEqual([`Care instructions (specs.care): ${HIDDEN_REASON}`]);
    expect((await save(["specs.care"])).ok).toBe(true);
    const settled = await settingsPageOf(DEMO_SHOP, admin);
    expect(settled.chosenMetafields).toEqual([]);
    expect(settled.chosenWithdrawn).toEqual([]);
  });
});

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
