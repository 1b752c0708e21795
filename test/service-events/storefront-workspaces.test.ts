/**
 * Issue 54, items 1 and 2, over real HTTP (the emulator delivering signed events to the app's
 * production build): a shopper on any storefront domain of a shop, or in a workspace the shop
 * wrote to before its domain changed, reaches that shop's Inbox and Insights, which name the
 * storefront; and two shops never share a workspace, whatever the case and trailing dots of
 * their domains, so one shop's shoppers never reach the other's Inbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeShopify } from "../../dev/fake-shopify/server";
import {
  KEYS,
  SHOP_A,
  SHOP_B,
  connectShop,
  startEventsEnvironment,
  workspaceOfShop,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import * as inbox from "../../app/models/inbox.server";
import { claimWorkspace, claimOf } from "../../app/models/workspace-claims.server";
import { findShop, recordInstalledShop, recordPrimaryDomain } from "../../app/models/shops.server";
import { dailyInsights } from "../../app/service-events/insights.server";
import { saveSettings } from "../../app/shop/save-settings.server";
import { adminFor } from "../../app/shopify/admin-auth.server";

const SHARED_KEY = KEYS[SHOP_A].secret;
/** A's French storefront domain and the workspace a full sync fills for it. */
const FRENCH_HOST = "inbox-a.fr";
const FRENCH_WORKSPACE = "inbox-a-fr";
/** A third shop whose primary domain is A's, written otherwise. */
const SHOP_C = "inbox-c.myshopify.com";

let env: EventsEnvironment;
let shopify: Awaited<ReturnType<typeof startFakeShopify>>;

beforeAll(async () => {
  shopify = await startFakeShopify({ shopDomain: SHOP_C, primaryDomain: "Inbox-A.Example.com." });
  env = await startEventsEnvironment({
    DEMO_SHOP: SHOP_C,
    DEMO_ADMIN_GRAPHQL_URL: shopify.graphqlUrl,
  });
  await connectShop(SHOP_A, SHARED_KEY);
  await connectShop(SHOP_B, SHARED_KEY);
  // What filling A's French storefront does first (app/sync/full/presence-workspaces.server.ts).
  expect(await claimWorkspace(SHOP_A, FRENCH_WORKSPACE, FRENCH_HOST)).toBe(true);
}, 60_000);

afterAll(async () => {
  await env?.close();
  await shopify?.close();
});

/** The shopper's chat in a workspace as the widget on that storefront sends it (A's account). */
async function chatIn(workspaceId: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${env.emulator.url}/chat`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${SHARED_KEY.replace("_sk_", "_pk_")}`,
      "Content-Type": "application/json",
      "X-Workspace-ID": workspaceId,
    },
    body: JSON.stringify({ stream: false, ...body }),
  });
  expect(response.status).toBe(200);
}

async function askForAPersonIn(
  workspaceId: string,
  threadId: string,
  contact: { name: string; email: string; phone: string; message: string },
): Promise<void> {
  await chatIn(workspaceId, { threadId, message: "Can I talk to a person?" });
  await chatIn(workspaceId, {
    threadId,
    message: "Send",
    offerResponse: { domain: "live_agent", actionId: "submit", formData: contact },
  });
  await env.emulator.state.deliveriesSettled();
}

describe("a shopper on any of the shop's storefronts", () => {
  it("on the French domain's workspace reaches the shop's Inbox, which names the storefront, and no other shop's", async () => {
    await askForAPersonIn(FRENCH_WORKSPACE, "web_fr_claire", {
      name: "Claire Petit",
      email: "claire@example.fr",
      phone: "",
      message: "Livrez-vous à Lyon ?",
    });
    expect(await inbox.listInbox(SHOP_A)).toMatchObject([
      {
        threadId: "web_fr_claire",
        name: "Claire Petit",
        handoffState: "accepted",
        contactSubmitted: true,
        storefront: FRENCH_HOST,
      },
    ]);
    // B shares the account, so its webhook got every event too: none is kept for B.
    expect(await inbox.listInbox(SHOP_B)).toEqual([]);
    expect(
      await env.prisma.serviceEvent.count({
        where: { shopDomain: SHOP_B, threadId: "web_fr_claire" },
      }),
    ).toBe(0);
    const insights = await dailyInsights(SHOP_A, 7);
    expect(insights.totals.handoffs).toBe(1);
    expect(insights.byStorefront).toEqual([
      { storefront: FRENCH_HOST, conversations: 1, messages: 2, handoffs: 1 },
    ]);
  });

  it("in the workspace the shop wrote to before its domain changed still reaches it", async () => {
    const before = workspaceOfShop(SHOP_A);
    const shop = (await findShop(SHOP_A))!;
    const moved = await recordPrimaryDomain(shop, "inbox-a-renamed.example.com");
    expect(moved.workspaceId).toBe("inbox-a-renamed-example-com");
    // A conversation begun on the old domain goes on there after the change.
    await askForAPersonIn(before, "web_old_domain", {
      name: "Olga Old",
      email: "olga@example.com",
      phone: "",
      message: "Still there?",
    });
    const entries = await inbox.listInbox(SHOP_A);
    expect(entries.find((entry) => entry.threadId === "web_old_domain")).toMatchObject({
      name: "Olga Old",
      storefront: "inbox-a.example.com",
    });
    expect(await inbox.listInbox(SHOP_B)).toEqual([]);
  });
});

describe("two shops never share a workspace", () => {
  it("a shop whose domain names another shop's workspace (other case, trailing dot) gets its own, and none of the other's shoppers", async () => {
    await recordInstalledShop({ shopDomain: SHOP_C, primaryDomain: "Inbox-A.Example.com." });
    const c = (await findShop(SHOP_C))!;
    expect(c.workspaceId).toBe("inbox-c-myshopify-com");
    expect(c.workspaceTakenFrom).toBe("inbox-a-example-com");
    expect((await claimOf("inbox-a-example-com"))?.shopDomain).toBe(SHOP_A);
    expect((await claimOf("Inbox-A.Example.com."))?.shopDomain).toBe(SHOP_A);
    // Installed again (re-auth), C keeps its own.
    await recordInstalledShop({ shopDomain: SHOP_C, primaryDomain: "inbox-a.example.com" });
    expect((await findShop(SHOP_C))!.workspaceId).toBe("inbox-c-myshopify-com");
  });

  it("Settings refuses another shop's workspace as the override, in the merchant's words, and saves nothing", async () => {
    for (const override of ["inbox-a.example.com", "INBOX-A-FR", "inbox-a.fr."]) {
      const result = await saveSettings(SHOP_C, await adminFor(SHOP_C), {
        secretKey: SHARED_KEY,
        publishableKey: SHARED_KEY.replace("_sk_", "_pk_"),
        workspaceOverride: override,
        syncProducts: true,
        syncPages: true,
        syncArticles: true,
      });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problems).toEqual([
        {
          field: "workspaceOverride",
          message: expect.stringMatching(
            /^The workspace inbox-a-(example-com|fr) belongs to another store connected to this app\. Enter one of your own in “Use another workspace id”, such as inbox-c-myshopify-com\.$/,
          ),
        },
      ]);
    }
    const c = (await findShop(SHOP_C))!;
    expect(c.workspaceOverride).toBeNull();
    expect(c.secretKeyCiphertext).toBeNull();
    expect((await claimOf(FRENCH_WORKSPACE))?.shopDomain).toBe(SHOP_A);
  });

  it("a domain change onto another shop's workspace keeps the shop where it was", async () => {
    const b = (await findShop(SHOP_B))!;
    const moved = await recordPrimaryDomain(b, "INBOX-A.fr");
    expect(moved.workspaceId).toBe(workspaceOfShop(SHOP_B));
    expect(moved.workspaceTakenFrom).toBe(FRENCH_WORKSPACE);
    expect((await claimOf(FRENCH_WORKSPACE))?.shopDomain).toBe(SHOP_A);
  });
});
