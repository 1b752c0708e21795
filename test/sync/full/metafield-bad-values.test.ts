/**
 * Bad input in what merchants choose to index (issue 25, "Bad input"), through Settings and full
 * syncs of the demo (fake Shopify over HTTP, the real app code, the service emulator): a
 * metafield whose stored value fails its own type (text in a rating, broken rich text JSON), a
 * reference to a deleted metaobject entry, and an FAQ entry written only in another language.
 * Each is left out or sent as is, never breaking the run or the other products' values.
 */
import type { SyncRun } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PUBLISHABLE_KEY, DEMO_SHOP, type RunningDemo } from "../../../dev/demo/admin-demo";
import { startTestDemo } from "../../../testkit/demo-browser";
import prisma from "../../../app/models/db.server";
import { saveSettings } from "../../../app/shop/save-settings.server";
import { settingsPageOf } from "../../../app/admin/settings-page.server";
import { SOME_INVALID_NOTE } from "../../../app/shop/product-metafields.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";

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

const save = (choice: { metafields?: string[]; metaobjects?: string[] }) =>
  saveSettings(DEMO_SHOP, admin, {
    secretKey: "",
    publishableKey: DEMO_PUBLISHABLE_KEY,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
    ...choice,
  });

async function latestRunEnded(): Promise<SyncRun> {
  for (;;) {
    const run = await prisma.syncRun.findFirstOrThrow({
      where: { shopDomain: DEMO_SHOP },
      orderBy: { startedAt: "desc" },
    });
    if (run.state !== "running") return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const workspace = () => demo.emulator.state.workspace("professional", demo.workspaceId);
const attributesOf = (title: string) =>
  workspace()?.products.find((p) => p.name === title)?.attributes as
    Record<string, string[]> | undefined;
const productOf = (handle: string) =>
  demo.shopify.state.products().find((p) => p.handle === handle)!;

describe("bad values in chosen metafields and metaobjects", () => {
  it("a value failing its own type and a reference to a deleted entry are left out; the run and every other value go through", async () => {
    const nano = productOf("ipod-nano");
    // Text in a rating, and rich text whose JSON is cut off: Shopify keeps such values when a
    // definition's type or validations change after they were stored.
    demo.shopify.state.storeInvalidMetafieldValue(nano.id, "reviews", "rating", "five stars");
    demo.shopify.state.storeInvalidMetafieldValue(
      nano.id,
      "specs",
      "in_the_box",
      '{"type":"root","children":[{"type":"paragraph","children":[{"type":"text","value":"iPod',
    );
    // The snowboard's size chart entry is deleted; the snowboard is published.
    const snowboard = productOf("burton-custom-freestyle-151");
    const chart = demo.shopify.state
      .metaobjects("size_chart")
      .find((entry) => entry.handle === "burton-custom-151") as { id: string } | undefined;
    expect(chart).toBeDefined();
    demo.shopify.state.deleteMetaobject(chart!.id);
    demo.shopify.state.updateProduct(snowboard.id, { status: "ACTIVE", published: true });

    // Settings says which definitions have such values, and what happens to those products.
    const offers = (await settingsPageOf(DEMO_SHOP, admin)).metafields ?? [];
    const cautionOf = (key: string) => offers.find((offer) => offer.key === key)?.caution;
    expect(cautionOf("reviews.rating")).toBe(SOME_INVALID_NOTE);
    expect(cautionOf("specs.in_the_box")).toBe(SOME_INVALID_NOTE);
    expect(cautionOf("specs.material")).toBeUndefined();

    const saved = await save({
      metafields: ["specs.material", "reviews.rating", "specs.in_the_box", "specs.size_chart"],
    });
    expect(saved.ok).toBe(true);
    const run = await latestRunEnded();
    expect(run).toMatchObject({ state: "succeeded", trigger: "settings" });

    // The Nano keeps what is readable, and only that.
    const nanoAttributes = attributesOf("IPod Nano - 8GB");
    expect(nanoAttributes).toMatchObject({ Material: ["Anodised aluminium"] });
    expect(nanoAttributes).not.toHaveProperty("Rating");
    expect(nanoAttributes).not.toHaveProperty("In the box");
    const nanoContent = String(
      workspace()?.products.find((p) => p.name === "IPod Nano - 8GB")?.content,
    );
    expect(nanoContent).not.toContain('{"type"');
    // The Touch's rating is valid: sent.
    expect(attributesOf("IPod Touch 8GB")?.Rating).toEqual([expect.stringContaining("4.2")]);
    // The snowboard is sent, with its material and without the deleted chart.
    const board = attributesOf(String(snowboard.title));
    expect(board).toMatchObject({ Material: ["Poplar wood core, fibreglass"] });
    expect(board).not.toHaveProperty("Size chart");
    // Nothing was refused or held back.
    const refused = await prisma.syncItem.count({
      where: { runId: run.id, status: "failed" },
    });
    expect(refused).toBe(0);
  });

  it("an FAQ entry written only in another language is sent as written, beside the others", async () => {
    const wax = (
      demo.shopify.state.metaobjects("faq") as Array<{ id: string; handle: string }>
    ).find((entry) => entry.handle === "how-do-i-wax-my-snowboard");
    expect(wax).toBeDefined();
    demo.shopify.state.updateMetaobject(wax!.id, {
      fields: {
        question: "Wie wachse ich mein Snowboard?",
        answer: "Einmal pro Saison mit Heißwachs, danach die Kanten schleifen.",
      },
    });
    expect((await save({ metaobjects: ["faq"] })).ok).toBe(true);
    const run = await latestRunEnded();
    expect(run.state).toBe("succeeded");
    const faq = (workspace()?.posts ?? []).filter((post) =>
      (post.categories as string[] | undefined)?.includes("FAQ"),
    );
    expect(faq.map((post) => post.title).sort()).toEqual([
      "Can I return a sale item?",
      "How long does shipping to Germany take?",
      "Wie wachse ich mein Snowboard?",
    ]);
    expect(faq.find((post) => post.title === "Wie wachse ich mein Snowboard?")).toMatchObject({
      content: expect.stringContaining("Einmal pro Saison mit Heißwachs"),
    });
  });
});
