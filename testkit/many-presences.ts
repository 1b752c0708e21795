/**
 * A store with thousands of storefront domains (issue 24, decision 0049), made in the fake
 * Shopify as a merchant makes them: each domain connected (Settings → Domains, no domains/create
 * sent: thousands of webhooks would each start a read), then a web presence on it in English
 * with Shopify's own `webPresenceCreate`, which has no webhook. The app then reads them once.
 * The merchant's changes are made in Shopify's admin, not through the app's API bucket: the
 * bucket is filled again before each, so the app's own read meets a full bucket, as it would.
 */
import type { startFakeShopify } from "../dev/fake-shopify/server";
import prisma from "../app/models/db.server";
import type { PresenceWorkspace } from "../app/sync/full/presence-workspaces.server";

type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;

const CREATE = `mutation Add($input: WebPresenceCreateInput!) {
  webPresenceCreate(input: $input) { webPresence { id } userErrors { field message } }
}`;

/** `domain-0001.example`…: the hosts `addDomainPresences` connects, in Shopify's order. */
export const manyDomainHost = (i: number): string => `domain-${String(i).padStart(4, "0")}.example`;

/**
 * A host as long as Shopify allows (253 characters, labels of at most 63), numbered: few of
 * them fill the storefront configuration's 128 KB.
 */
export const longDomainHost = (i: number): string =>
  `${"a".repeat(58)}${String(i).padStart(5, "0")}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(53)}.example`;

/**
 * Connects `count` domains (`host(from)`… , manyDomainHost unless told), each with its own web
 * presence, one after another (in that order).
 */
export async function addDomainPresences(
  shopify: FakeShopify,
  count: number,
  { from = 1, host = manyDomainHost }: { from?: number; host?: (i: number) => string } = {},
): Promise<void> {
  const create = async (i: number) => {
    const { id } = shopify.state.addDomain(host(i), { webhook: false });
    shopify.state.setAvailablePoints(shopify.state.throttleStatus().maximumAvailable);
    const response = await fetch(shopify.graphqlUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Access-Token": shopify.state.merchantAccessToken,
      },
      body: JSON.stringify({
        query: CREATE,
        variables: { input: { domainId: id, defaultLocale: "en" } },
      }),
    });
    const body = (await response.json()) as {
      data?: { webPresenceCreate: { userErrors: unknown[] } };
      errors?: unknown;
    };
    if (!body.data || body.errors || body.data.webPresenceCreate.userErrors.length > 0) {
      throw new Error(`webPresenceCreate failed: ${JSON.stringify(body)}`);
    }
  };
  for (let i = from; i < from + count; i++) await create(i);
  shopify.state.setAvailablePoints(shopify.state.throttleStatus().maximumAvailable);
}

/**
 * Sets these domain workspaces down as filled: one finished, succeeded run each with nothing left
 * out, as a fill leaves (filling thousands takes hours). One statement: a long stretch of
 * synchronous SQLite would leave the app's kept-alive socket to Shopify closed under it.
 */
export async function setDownAsFilled(workspaces: readonly PresenceWorkspace[]): Promise<void> {
  const none = { sent: 0, unchanged: 0, deleted: 0, overQuota: 0, failed: 0 };
  const finishedAt = new Date();
  await prisma.syncRun.createMany({
    data: workspaces.map((workspace) => ({
      shopDomain: workspace.ledgerKey,
      workspaceId: workspace.workspaceId,
      trigger: "domain-added",
      state: "succeeded",
      phase: "done",
      exportComplete: true,
      finishedAt,
      counts: JSON.stringify({ products: none, posts: none, pending: 0, orphanLines: 0 }),
    })),
  });
}
