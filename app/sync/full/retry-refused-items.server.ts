/**
 * The Dashboard's "Retry failed items": the items the service refused (in the last complete full
 * sync, and product changes it refused since) are read again by id from Shopify and sent alone,
 * with no bulk export; the merchant sees at once what reached the index and what was refused again.
 */
import type { PendingChange } from "@prisma/client";
import {
  documentCurrencyOf,
  ARTICLES_BY_IDS_QUERY,
  PAGES_BY_IDS_QUERY,
  SERVICE_ID_PREFIXES,
  toGid,
  type CatalogueItem,
  type MapContext,
  type ShopifyArticle,
  type ShopifyPage,
} from "../../catalogue";
import { config } from "../../config.server";
import { indexedHashes, type ContentKind, type LedgerScope } from "../../models/ledger.server";
import { leftOutChanges, noteAttempt, removeChanges } from "../../models/outbox.server";
import { chosenMetafieldsOf, findShop, workspaceOf } from "../../models/shops.server";
import { markRetried, noteRefusedAgain, refusedItemsOfRun } from "../../models/sync-items.server";
import { lastCompleteRun, unfinishedRun } from "../../models/sync-runs.server";
import { serviceClientFor, serviceKeyIdOf } from "../../shop/service-keys.server";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { catalogueEntry, titleOf } from "../engine/catalogue-entry";
import { pacers, sendingTierOf } from "../engine/pacer-registry.server";
import { processLeases, type HeldLease } from "../engine/process-leases.server";
import { sendAndSettle, type SendAction } from "../engine/send-and-settle.server";
import { LIVE_SEEN_MARK } from "../live/apply-changes.server";
import { rereadProducts } from "../live/reread-products.server";
import { referenceNamesFor } from "../engine/reference-names.server";

/** At most this many items a press (the rest stay listed for the next press). */
export const RETRY_AT_MOST = 250;
/** Pages and articles read per `nodes(ids:)` query (a few points each). */
const POST_IDS_PER_QUERY = 50;
/** How long a press waits for the shop's lease while the live worker sends a batch. */
const LEASE_WAIT_MS = 15_000;

export type RetryOutcome =
  | { kind: "nothing" }
  | { kind: "busy"; reason: "sync" | "lease" }
  | {
      kind: "done";
      tried: number;
      /** In the index now (or removed from it: Shopify has them no more, or they are not for sale). */
      indexed: string[];
      removed: string[];
      refused: { name: string; error: string | undefined }[];
      /** Still over this month's quota (new items only). */
      overQuota: string[];
      /** Not retried now (policies: the next full sync reads them). */
      notRetried: number;
      more: number;
    };

interface Wanted {
  kind: ContentKind;
  /** The service's id. */
  id: string;
  /** A refused item of the run, when it is one. */
  runId: string | null;
  /** A refused product change, when it is one. */
  change: PendingChange | null;
  /** The name the run knew it by (used when Shopify has it no more). */
  name: string;
}

interface Job {
  wanted: Wanted;
  action: SendAction;
  payload: unknown;
  hash: string;
  collectionIds: string | null;
  isNew: boolean;
}

export async function retryRefusedItems(
  shopDomain: string,
  admin: AdminGraphql,
): Promise<RetryOutcome> {
  const shop = await findShop(shopDomain);
  const workspaceId = shop ? workspaceOf(shop) : null;
  if (!shop || !workspaceId) return { kind: "nothing" };
  if (await unfinishedRun(shopDomain)) return { kind: "busy", reason: "sync" };

  const run = await lastCompleteRun(shopDomain);
  const [runItems, changes] = await Promise.all([
    run ? refusedItemsOfRun(run.id, RETRY_AT_MOST + 1) : [],
    leftOutChanges(shopDomain, RETRY_AT_MOST + 1),
  ]);
  const wanted = new Map<string, Wanted>();
  let notRetried = 0;
  for (const row of runItems) {
    const kind: ContentKind = row.kind === "product" ? "product" : "post";
    // Policies and metaobject entries are read by queries of a full sync, not by id here.
    if (
      row.itemId.startsWith(SERVICE_ID_PREFIXES.policy) ||
      row.itemId.startsWith(SERVICE_ID_PREFIXES.metaobject)
    ) {
      notRetried++;
      continue;
    }
    wanted.set(`${kind}:${row.itemId}`, {
      kind,
      id: row.itemId,
      runId: run!.id,
      change: null,
      name: titleOf(safeJson(row.payload)) ?? row.itemId,
    });
  }
  for (const change of changes.refused) {
    const key = `product:${change.productId}`;
    const known = wanted.get(key);
    if (known) known.change = change;
    else {
      wanted.set(key, {
        kind: "product",
        id: change.productId,
        runId: null,
        change,
        name: change.productId,
      });
    }
  }
  if (wanted.size === 0 && notRetried === 0) return { kind: "nothing" };
  const all = [...wanted.values()];
  const now = all.slice(0, RETRY_AT_MOST);
  const more = all.length - now.length;

  const lease = await holdLease(shopDomain);
  if (!lease) return { kind: "busy", reason: "lease" };
  try {
    const scope: LedgerScope = { shopDomain, workspaceId, fence: lease.fence };
    const jobs = await readAgain(
      admin,
      now,
      {
        primaryDomain: shop.primaryDomain ?? shopDomain,
        metafields: chosenMetafieldsOf(shop),
        referenceNames: referenceNamesFor(admin, chosenMetafieldsOf(shop)),
        ...documentCurrencyOf(shop),
      },
      scope,
    );
    const tier = sendingTierOf(shop);
    const client = serviceClientFor(shop);
    const pacer = pacers.pacerFor(shopDomain, tier, serviceKeyIdOf(shop));
    const outcome = {
      kind: "done" as const,
      tried: now.length,
      indexed: [] as string[],
      removed: [] as string[],
      refused: [] as { name: string; error: string | undefined }[],
      overQuota: [] as string[],
      notRetried,
      more,
    };
    for (const kind of ["product", "post"] as const) {
      for (const action of ["upsert", "delete"] as const) {
        const items = jobs.filter((job) => job.wanted.kind === kind && job.action === action);
        const settled = await sendAndSettle({
          scope,
          tier,
          kind,
          action,
          client,
          pacer,
          now: () => new Date(),
          items,
          idOf: (job) => job.wanted.id,
          payloadOf: (job) => job.payload,
          hashOf: (job) => job.hash,
          collectionIdsOf: (job) => job.collectionIds,
          isNew: (job) => job.isNew,
          seenMark: LIVE_SEEN_MARK,
          guard: lease.confirm,
          holdBack: (refused) => {
            outcome.overQuota.push(
              ...refused.filter((job) => job.isNew).map((job) => job.wanted.name),
            );
            return Promise.resolve(refused.filter((job) => !job.isNew));
          },
        });
        await settle(kind, settled.acknowledged, lease);
        for (const job of settled.acknowledged) {
          (action === "upsert" ? outcome.indexed : outcome.removed).push(job.wanted.name);
        }
        for (const { item, error } of settled.refused) {
          outcome.refused.push({ name: item.wanted.name, error });
          const reason = error ?? "The search service did not acknowledge this item.";
          if (item.wanted.runId) {
            await noteRefusedAgain(item.wanted.runId, kind, item.wanted.id, reason);
          }
          if (item.wanted.change) await noteAttempt(shopDomain, [item.wanted.id], reason);
        }
      }
    }
    return outcome;
  } finally {
    await lease.release();
  }
}

/** What the index should hold for each item now: Shopify's own, read by id. */
async function readAgain(
  admin: AdminGraphql,
  wanted: readonly Wanted[],
  context: MapContext,
  scope: LedgerScope,
): Promise<Job[]> {
  const products = wanted.filter((w) => w.kind === "product");
  const posts = wanted.filter((w) => w.kind === "post");
  const found = new Map<string, CatalogueItem>();
  const read = await rereadProducts(
    admin,
    products.map((w) => w.id),
    context.metafields,
  );
  await context.referenceNames?.learn(read.products);
  for (const product of read.products) {
    found.set(`product:${product.legacyResourceId}`, { type: "Product", value: product });
  }
  for (const item of await readPosts(admin, posts)) {
    const entry = catalogueEntry(item, context);
    found.set(`post:${entry.id}`, item);
  }
  const [productHashes, postHashes] = await Promise.all([
    indexedHashes(
      scope,
      "product",
      products.map((w) => w.id),
    ),
    indexedHashes(
      scope,
      "post",
      posts.map((w) => w.id),
    ),
  ]);
  return wanted.map((w): Job => {
    const item = found.get(`${w.kind}:${w.id}`);
    const entry = item ? catalogueEntry(item, context) : null;
    const name = titleOf(entry && entry.indexable ? entry.item : null) ?? w.name;
    const hashes = w.kind === "product" ? productHashes : postHashes;
    if (!entry?.indexable) {
      return {
        wanted: { ...w, name },
        action: "delete",
        payload: null,
        hash: "",
        collectionIds: null,
        isNew: false,
      };
    }
    return {
      wanted: { ...w, name },
      action: "upsert",
      payload: entry.item,
      hash: entry.hash,
      collectionIds: entry.collectionIds,
      isNew: !hashes.has(w.id),
    };
  });
}

async function readPosts(admin: AdminGraphql, posts: readonly Wanted[]): Promise<CatalogueItem[]> {
  const numbers = (prefix: string) =>
    posts.filter((w) => w.id.startsWith(prefix)).map((w) => w.id.slice(prefix.length));
  const pages = await readNodes(
    admin,
    PAGES_BY_IDS_QUERY,
    numbers(SERVICE_ID_PREFIXES.page).map((id) => toGid("Page", id)),
  );
  const articles = await readNodes(
    admin,
    ARTICLES_BY_IDS_QUERY,
    numbers(SERVICE_ID_PREFIXES.article).map((id) => toGid("Article", id)),
  );
  return [
    ...pages.map((value): CatalogueItem => ({
      type: "Page",
      value: value as unknown as ShopifyPage,
    })),
    ...articles.map((value): CatalogueItem => ({
      type: "Article",
      value: value as unknown as ShopifyArticle,
    })),
  ];
}

/** The nodes Shopify has of these gids (fields only), in queries of a few dozen. */
async function readNodes(
  admin: AdminGraphql,
  query: string,
  gids: readonly string[],
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < gids.length; start += POST_IDS_PER_QUERY) {
    const data = await queryAdmin<{
      nodes: (({ __typename: string } & Record<string, unknown>) | null)[];
    }>(admin, query, { ids: gids.slice(start, start + POST_IDS_PER_QUERY) });
    for (const node of data.nodes) {
      if (!node || !("id" in node)) continue;
      const { __typename: _typename, ...fields } = node;
      found.push(fields);
    }
  }
  return found;
}

/** What the service took leaves the run's refused items and the outbox, after the ledger. */
async function settle(kind: ContentKind, jobs: readonly Job[], lease: HeldLease): Promise<void> {
  const byRun = new Map<string, string[]>();
  for (const job of jobs) {
    if (job.wanted.runId) {
      byRun.set(job.wanted.runId, [...(byRun.get(job.wanted.runId) ?? []), job.wanted.id]);
    }
  }
  for (const [runId, ids] of byRun) await markRetried(runId, kind, ids);
  await removeChanges(
    jobs.flatMap((job) => (job.wanted.change ? [job.wanted.change] : [])),
    lease.fence,
  );
}

/** The shop's lease, waiting a little while the live worker sends a batch for it. */
async function holdLease(shopDomain: string): Promise<HeldLease | null> {
  const leases = processLeases(config().live.leaseMs);
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (;;) {
    const lease = await leases.hold(shopDomain);
    if (lease || Date.now() > deadline) return lease;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function safeJson(text: string | null): unknown {
  try {
    return JSON.parse(text ?? "null");
  } catch {
    return null;
  }
}
