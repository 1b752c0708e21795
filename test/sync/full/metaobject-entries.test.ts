/**
 * Metaobject entries through Settings and full syncs of the demo (fake Shopify over HTTP, the real
 * app code, the service emulator), issue 25 item 3: ticking the FAQ definition sends its published
 * entries as page posts at their online store URLs; an app's own definition is never kept; the
 * hourly check follows an edited and a deleted entry (no webhook is subscribed: decision 0030);
 * unticking removes every entry and nothing else.
 */
import type { SyncRun } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PUBLISHABLE_KEY, DEMO_SHOP, type RunningDemo } from "../../../dev/demo/admin-demo";
import { startTestDemo } from "../../../testkit/demo-browser";
import prisma from "../../../app/models/db.server";
import { runCounts } from "../../../app/models/sync-runs.server";
import { settingsPageOf } from "../../../app/admin/settings-page.server";
import { saveSettings } from "../../../app/shop/save-settings.server";
import { followPolicyChanges } from "../../../app/sync/full/policy-check.server";
import { processLeases } from "../../../app/sync/engine/process-leases.server";
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

const save = (metaobjects: string[]) =>
  saveSettings(DEMO_SHOP, admin, {
    secretKey: "",
    publishableKey: DEMO_PUBLISHABLE_KEY,
    workspaceOverride: "",
    syncProducts: true,
    syncPages: true,
    syncArticles: true,
    metaobjects,
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

const posts = () => demo.emulator.state.workspace("professional", demo.workspaceId)?.posts ?? [];
const entries = () => posts().filter((post) => String(post.id).startsWith("metaobject-"));
const entryTitled = (title: string) => entries().find((post) => post.title === title);
type Entry = { id: string; handle: string; displayName: string };
const faq = () => demo.shopify.state.metaobjects("faq") as unknown as Entry[];

describe("metaobject entries chosen in Settings", () => {
  it("lists the definitions, an app's own, a hidden and a standard one not offered with why", async () => {
    const page = await settingsPageOf(DEMO_SHOP, admin);
    expect(page.metaobjects?.map((m) => [m.name, m.type, m.count, m.onlineStore])).toEqual([
      ["FAQ", "faq", 4, true],
      ["Size chart", "size_chart", 2, false],
      ["Supplier contacts", "supplier_contact", 1, false],
      ["Color", "shopify--color-pattern", 4, false],
      ["Loyalty tiers", "app--4242--loyalty_tier", 1, false],
    ]);
    expect(page.metaobjects?.map((m) => m.notOffered?.slice(0, 29) ?? null)).toEqual([
      null,
      null,
      "Hidden from your storefront (",
      "Shopify's standard values for",
      "Kept by an app for its own us",
    ]);
    expect(entries()).toEqual([]);
  });

  it("ticking the FAQ sends its published entries as page posts at their online store pages", async () => {
    const saved = await save(["faq", "supplier_contact", "app--4242--loyalty_tier"]);
    expect(saved).toMatchObject({
      ok: true,
      choicesMessage:
        "Reading the entries of the metaobject definitions you chose from Shopify to send them to the search index (entries of definitions you unticked leave it): follow it on the Dashboard.",
    });
    expect((await settingsPageOf(DEMO_SHOP, admin)).chosenMetaobjects).toEqual(["faq"]);
    const run = await latestRunEnded();
    expect(run).toMatchObject({ trigger: "settings", state: "succeeded" });
    expect((await runCounts(run)).posts).toMatchObject({ sent: 3, failed: 0 });
    expect(
      entries()
        .map((post) => post.title)
        .sort(),
    ).toEqual([
      "Can I return a sale item?",
      "How do I wax my snowboard?",
      "How long does shipping to Germany take?",
    ]);
    expect(entryTitled("Can I return a sale item?")).toMatchObject({
      post_type: "page",
      categories: ["FAQ"],
      url: "https://demo-store.example.com/pages/faq/can-i-return-a-sale-item",
      content: expect.stringMatching(
        /^Question: Can I return a sale item\?\nAnswer: Yes: sale items can be returned within 14 days/,
      ),
    });
    // The same choice again starts no run.
    const again = await save(["faq"]);
    expect(again).toMatchObject({ ok: true, choicesMessage: null });
  });

  it("the hourly check follows an edited and a deleted entry", async () => {
    const leases = processLeases();
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);
    const [returns, shipping] = faq();
    demo.shopify.state.updateMetaobject(returns!.id, {
      fields: { answer: "Sale items: 7 days, store credit only." },
    });
    demo.shopify.state.deleteMetaobject(shipping!.id);
    expect(await followPolicyChanges(leases, adminFor)).toEqual([DEMO_SHOP]);
    const run = await latestRunEnded();
    expect(run).toMatchObject({ trigger: "reconcile", state: "succeeded" });
    expect(entryTitled("Can I return a sale item?")?.content).toBe(
      "Question: Can I return a sale item?\nAnswer: Sale items: 7 days, store credit only.",
    );
    expect(entryTitled("How long does shipping to Germany take?")).toBeUndefined();
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);
  });

  it("unticking removes every entry, and only them", async () => {
    const others = posts().length - entries().length;
    const saved = await save([]);
    expect(saved).toMatchObject({
      ok: true,
      choicesMessage:
        "Removing the metaobject entries from the search index: follow it on the Dashboard.",
    });
    const run = await latestRunEnded();
    expect(run).toMatchObject({ trigger: "settings", state: "succeeded" });
    expect(entries()).toEqual([]);
    expect(posts()).toHaveLength(others);
  });
});
