/**
 * The store's policies through a full sync of the demo (fake Shopify over HTTP, the real app code,
 * the service emulator): every published policy becomes a page post at its storefront URL; a
 * resync sends only the policy that changed (the ledger's hash); a removed one is deleted; a
 * 512 kB HTML policy is reduced to bounded text and does not stop its batch.
 */
import type { SyncRun } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, type RunningDemo } from "../../../dev/demo/admin-demo";
import { startTestDemo } from "../../../testkit/demo-browser";
import prisma from "../../../app/models/db.server";
import { runCounts } from "../../../app/models/sync-runs.server";
import * as shopSync from "../../../app/sync/full/run-full-sync.server";
import { followPolicyChanges } from "../../../app/sync/full/policy-check.server";
import { processLeases } from "../../../app/sync/engine/process-leases.server";
import { adminFor } from "../../../app/shopify/admin-auth.server";

let demo: RunningDemo;
const QUICK = { checkEveryMs: 50, webhookGraceMs: 60_000, pollEveryMs: 100 };

beforeAll(async () => {
  demo = await startTestDemo({ products: 20 });
  await demo.firstSync;
}, 180_000);

afterAll(async () => {
  await demo?.close();
});

async function resync(): Promise<SyncRun> {
  const run = await shopSync.startShopSync(DEMO_SHOP, "resync", QUICK);
  return runEnded(run.id);
}

async function runEnded(id: string): Promise<SyncRun> {
  for (;;) {
    const current = await prisma.syncRun.findUniqueOrThrow({ where: { id } });
    if (current.state !== "running") return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const policies = () =>
  demo.shopify.state.policies() as { id: string; type: string; title: string; url: string }[];
const serviceId = (gid: string) => `policy-${gid.slice(gid.lastIndexOf("/") + 1)}`;
const indexedPolicies = () =>
  (demo.emulator.state.workspace("professional", demo.workspaceId)?.posts ?? []).filter((post) =>
    String(post.id).startsWith("policy-"),
  );
const indexed = (gid: string) => indexedPolicies().find((post) => post.id === serviceId(gid));

describe("the shop's policies in a full sync", () => {
  it("the first sync indexes every published policy as a page post at its storefront URL", () => {
    const shop = policies();
    expect(shop).toHaveLength(8);
    expect(
      indexedPolicies()
        .map((post) => post.id)
        .sort(),
    ).toEqual(shop.map((policy) => serviceId(policy.id)).sort());
    const refund = shop.find((policy) => policy.type === "REFUND_POLICY")!;
    expect(indexed(refund.id)).toMatchObject({
      title: "Refund policy",
      post_type: "page",
      categories: ["policy"],
      url: "https://demo-store.example.com/policies/refund-policy",
      source: "shopify",
    });
    expect(String(indexed(refund.id)!.content)).toMatch(/^Returns and refunds We have a 30-day/);
    expect(String(indexed(refund.id)!.content)).not.toContain("<");
  });

  it("a resync sends only the policy that changed, even a 512 kB one, and deletes a removed one", async () => {
    const shop = policies();
    const terms = shop.find((policy) => policy.type === "TERMS_OF_SERVICE")!;
    const privacy = shop.find((policy) => policy.type === "PRIVACY_POLICY")!;
    const row = `<tr><td style="x">Clause <b>7</b></td><td>Liability is limited.</td></tr><script>x()</script>`;
    const huge = `<table>${row.repeat(Math.floor((512 * 1024 - 20) / row.length))}</table>`;
    demo.shopify.state.updatePolicy("TERMS_OF_SERVICE", huge);
    demo.shopify.state.removePolicy("PRIVACY_POLICY");

    const run = await resync();
    expect(run.state).toBe("succeeded");
    const counts = await runCounts(run);
    expect(counts.posts).toMatchObject({ sent: 1, deleted: 1, failed: 0 });

    const content = String(indexed(terms.id)!.content);
    expect(content.length).toBeLessThanOrEqual(20_000);
    expect(content).toMatch(/^Clause 7 Liability is limited\. Clause 7/);
    expect(content).toMatch(/\(shortened; the whole policy is on the store's page\)$/);
    expect(content).not.toMatch(/<|x\(\)/);
    expect(indexed(privacy.id)).toBeUndefined();
    expect(indexedPolicies()).toHaveLength(7);

    // Nothing changed since: nothing is sent.
    const again = await resync();
    expect((await runCounts(again)).posts).toMatchObject({ sent: 0, deleted: 0 });
  });

  it("the hourly check reads the policies and starts a sync only when one changed since the last run", async () => {
    const leases = processLeases();
    // Nothing changed since the last run: no sync, one cheap query.
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);

    const shipping = policies().find((policy) => policy.type === "SHIPPING_POLICY")!;
    demo.shopify.state.updatePolicy("SHIPPING_POLICY", "<p>Germany: <em>next day</em>.</p>");
    expect(await followPolicyChanges(leases, adminFor)).toEqual([DEMO_SHOP]);
    const run = await prisma.syncRun.findFirstOrThrow({
      where: { shopDomain: DEMO_SHOP },
      orderBy: { startedAt: "desc" },
    });
    const ended = await runEnded(run.id);
    expect(ended).toMatchObject({ trigger: "reconcile", state: "succeeded" });
    expect((await runCounts(ended)).posts).toMatchObject({ sent: 1, deleted: 0 });
    expect(indexed(shipping.id)).toMatchObject({ content: "Germany: next day." });

    const contact = policies().find((policy) => policy.type === "CONTACT_INFORMATION")!;
    demo.shopify.state.removePolicy("CONTACT_INFORMATION");
    expect(await followPolicyChanges(leases, adminFor)).toEqual([DEMO_SHOP]);
    const removal = await prisma.syncRun.findFirstOrThrow({
      where: { shopDomain: DEMO_SHOP },
      orderBy: { startedAt: "desc" },
    });
    await runEnded(removal.id);
    expect(indexed(contact.id)).toBeUndefined();
    expect(await followPolicyChanges(leases, adminFor)).toEqual([]);
  });
});
