import { Prisma, type IndexedItem } from "@prisma/client";
import prisma, { driverExecute, driverQuery } from "./db.server";
import { fencedText, fencedWrite, fenceCondition, type LeaseFence } from "./shop-leases.server";
import { statementRows } from "./statement-size";
import {
  MODEL_COLUMNS,
  modelRowsSql,
  modelsOfRows,
  type ModelRow,
  type ModelVariant,
} from "./stock-model.server";

// The engine's per-batch statements are raw SQL, one statement each and no transactions: the
// client-engine's query compiler keeps memory for every model query and every transaction
// (prisma/orm#29774), which would grow a sync's memory with the catalogue. Each write is ordered
// so that a crash between two of them at most resends one batch. Those a sync runs per batch go to
// the driver without Prisma's engine (`driverQuery`, decision 0052), which copies their values.

/** What the index holds: products, and posts (online-store pages and blog articles). */
export type ContentKind = "product" | "post";
export const CONTENT_KINDS: readonly ContentKind[] = ["product", "post"];

/** The ledger of one shop's workspace: what the service holds, by kind and id. */
export interface LedgerScope {
  shopDomain: string;
  workspaceId: string;
  /**
   * The lease under which the shop is sent for: the ledger's writes name it in the same
   * statement, and throw LeaseLostError (writing nothing) once another process took the shop over.
   */
  fence?: LeaseFence;
}

const inScope = (scope: LedgerScope, kind: ContentKind) =>
  Prisma.sql`"shopDomain" = ${scope.shopDomain} AND "workspaceId" = ${scope.workspaceId} AND "kind" = ${kind}`;

/** The content hashes the service holds for these ids (absent ids are not indexed). */
export async function indexedHashes(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<Map<string, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await driverQuery<{ itemId: string; contentHash: string }>(Prisma.sql`
    SELECT "itemId", "contentHash" FROM "IndexedItem"
    WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(itemIds)})`);
  return new Map(rows.map((row) => [row.itemId, row.contentHash]));
}

/** The ledger's titles of these ids (absent: not indexed, or sent before titles were kept). */
export async function indexedTitles(
  scope: Omit<LedgerScope, "fence">,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<Map<string, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await driverQuery<{ itemId: string; title: string | null }>(Prisma.sql`
    SELECT "itemId", "title" FROM "IndexedItem"
    WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(itemIds)})`);
  return new Map(
    rows.flatMap((row) => (row.title === null ? [] : [[row.itemId, row.title] as const])),
  );
}

/** Marks items as present in a run's export, so that the clean-up keeps them. */
export async function markSeen(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
  runId: string,
): Promise<void> {
  if (itemIds.length === 0) return;
  await driverExecute(Prisma.sql`
    UPDATE "IndexedItem" SET "seenRunId" = ${runId}
    WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(itemIds)})`);
}

/** Ids the service holds that a complete export did not contain, in id order after `afterId`. */
export async function unseenItemIds(
  scope: LedgerScope,
  kind: ContentKind,
  runId: string,
  limit: number,
  afterId = "",
): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ itemId: string }[]>`
    SELECT "itemId" FROM "IndexedItem"
    WHERE ${inScope(scope, kind)} AND "itemId" > ${afterId}
      AND ("seenRunId" IS NULL OR "seenRunId" <> ${runId})
    ORDER BY "itemId" LIMIT ${limit}`;
  return rows.map((row) => row.itemId);
}

export interface LedgerDescription {
  itemId: string;
  title: string | null;
  collectionIds: string | null;
}

/**
 * Fills in the title and collections of ledger rows that lack them (sent before the ledger kept
 * them) from an export whose content has the rows' very hash: what the index holds was built from
 * these. Rows that have them are left alone.
 */
export async function describeLedgerRows(
  scope: LedgerScope,
  kind: ContentKind,
  items: readonly LedgerDescription[],
): Promise<void> {
  for (let start = 0; start < items.length; start += 100) {
    const chunk = items.slice(start, start + 100);
    const titles = Prisma.join(
      chunk.map((item) => Prisma.sql`WHEN ${item.itemId} THEN ${item.title}`),
      " ",
    );
    const collections = Prisma.join(
      chunk.map((item) => Prisma.sql`WHEN ${item.itemId} THEN ${item.collectionIds}`),
      " ",
    );
    await prisma.$executeRaw`
      UPDATE "IndexedItem" SET
        "title" = COALESCE("title", CASE "itemId" ${titles} END),
        "collectionIds" = COALESCE("collectionIds", CASE "itemId" ${collections} END)
      WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(chunk.map((item) => item.itemId))})
        AND ("title" IS NULL OR "collectionIds" IS NULL)`;
  }
}

/** Whether some of the workspace's ledger rows lack their title or (products) collections. */
export async function ledgerLacksDescriptions(scope: LedgerScope): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ itemId: string }[]>`
    SELECT "itemId" FROM "IndexedItem"
    WHERE "shopDomain" = ${scope.shopDomain} AND "workspaceId" = ${scope.workspaceId}
      AND ("title" IS NULL OR ("kind" = 'product' AND "collectionIds" IS NULL))
    LIMIT 1`;
  return rows.length > 0;
}

export interface DeliveredItem {
  itemId: string;
  contentHash: string;
  /** The title as sent (names the item once it is gone). */
  title?: string | null;
  /** Products: ",1,2," of their collections; null when unknown. */
  collectionIds?: string | null;
  /**
   * The document sent (JSON), kept for products; absent, the row keeps none. `{ stagedBy }`: the
   * document that run staged for the item (SyncItem.payload), copied in SQL rather than sent
   * through the statement's values again.
   */
  content?: string | { stagedBy: string };
}

/**
 * The documents last sent for these ids, with their hashes and collections (ids not indexed, or
 * indexed without a kept document, are absent).
 */
export async function indexedDocuments(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<Map<string, KeptDocument>> {
  if (itemIds.length === 0) return new Map();
  const rows = await driverQuery<KeptDocument & { itemId: string }>(Prisma.sql`
    SELECT "itemId", "contentHash", "content", "collectionIds" FROM "IndexedItem"
    WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(itemIds)}) AND "content" IS NOT NULL`);
  return new Map(rows.map((row) => [row.itemId, row]));
}

/** A document the ledger kept of an item, with its hash and collections. */
export interface KeptDocument {
  contentHash: string;
  content: string;
  collectionIds: string | null;
}

/** What the ledger holds of a batch's items: the hashes in each scope, the documents in the first. */
export interface BatchLedger {
  /** The first scope's kept documents (indexedDocuments). */
  documents: Map<string, KeptDocument>;
  /** The hashes in a scope read with the batch (indexedHashes); empty for any other scope. */
  hashesIn: (scope: Omit<LedgerScope, "fence">) => Map<string, string>;
  /** The stock model of the batch's products when asked for (modelledProducts), else empty. */
  models: Map<string, ModelVariant[]>;
}

/** Scopes per statement of batchLedger (two values each). */
export const SCOPES_PER_STATEMENT = 50;

/**
 * A batch's ledger rows in one statement (one more for every 50 further scopes): the live worker's
 * read for a pass, the shop's own workspace first (its documents: is an update stock only, what
 * does a stock change start from) and its storefront domains' workspaces beside it (their hashes).
 * With `modelsOf` (the shop), the stock model of the batch's products comes in the same first
 * statement (`UNION ALL`, each part's columns NULL in the other's rows). Only the shop's lease
 * holder writes these rows, so they hold for the whole pass (but for the model's levels, which
 * the intake writes as payloads come: read here as of the pass's start).
 */
export async function batchLedger(
  scopes: readonly [LedgerScope, ...LedgerScope[]],
  kind: ContentKind,
  itemIds: readonly string[],
  modelsOf?: string,
): Promise<BatchLedger> {
  const rows: BatchLedgerRow[] = [];
  for (let start = 0; itemIds.length > 0 && start < scopes.length; start += SCOPES_PER_STATEMENT) {
    const some = scopes.slice(start, start + SCOPES_PER_STATEMENT);
    const models = start === 0 ? modelsOf : undefined;
    rows.push(
      ...(await driverQuery<BatchLedgerRow>(
        batchLedgerSql(scopes[0], some, kind, Prisma.join(itemIds), models),
      )),
    );
  }
  return batchLedgerOfRows(rows);
}

/** One row of `batchLedgerSql`: a ledger row (`part` 'ledger') or a stock model's ('model'). */
export type BatchLedgerRow = {
  part: string;
  shopDomain: string;
  workspaceId: string;
  itemId: string;
  contentHash: string;
  collectionIds: string | null;
  content: string | null;
} & ModelRow;

/** The columns of `batchLedgerSql`'s rows, in its order. */
export const BATCH_LEDGER_COLUMNS = [
  "part",
  "shopDomain",
  "workspaceId",
  "itemId",
  "contentHash",
  "collectionIds",
  "content",
  ...MODEL_COLUMNS,
] as const;

/**
 * batchLedger's statement for the scopes `some` (at most SCOPES_PER_STATEMENT; the documents
 * are `first`'s) and the items `itemIds` (a list of values, or a subquery of them), with the
 * stock model's rows of `modelsOf`'s products when given.
 */
export function batchLedgerSql(
  first: Omit<LedgerScope, "fence">,
  some: readonly Omit<LedgerScope, "fence">[],
  kind: ContentKind,
  itemIds: Prisma.Sql,
  modelsOf?: string,
): Prisma.Sql {
  const ledgerRows = Prisma.sql`
      SELECT 'ledger' AS "part", "shopDomain", "workspaceId", "itemId", "contentHash", "collectionIds",
        CASE WHEN "shopDomain" = ${first.shopDomain} AND "workspaceId" = ${first.workspaceId}
          THEN "content" ELSE NULL END AS "content"
        ${Prisma.raw(MODEL_COLUMNS.map((name) => `, NULL AS "${name}"`).join(""))}
      FROM "IndexedItem"
      WHERE "kind" = ${kind} AND "itemId" IN (${itemIds}) AND (${Prisma.join(
        some.map(
          (scope) =>
            Prisma.sql`("shopDomain" = ${scope.shopDomain} AND "workspaceId" = ${scope.workspaceId})`,
        ),
        " OR ",
      )})`;
  return modelsOf === undefined
    ? ledgerRows
    : Prisma.sql`${ledgerRows}
      UNION ALL
      SELECT 'model', NULL, NULL, NULL, NULL, NULL, NULL, m.*
      FROM (${modelRowsSql(modelsOf, itemIds)}) AS m`;
}

/** A scope's key, whatever its lease: the same shop key and workspace are the same ledger. */
export const ledgerScopeKey = (scope: Omit<LedgerScope, "fence">) =>
  `${scope.shopDomain}\n${scope.workspaceId}`;

/** The BatchLedger of `batchLedgerSql`'s rows (the documents are those its `first` scope kept). */
export function batchLedgerOfRows(rows: readonly BatchLedgerRow[]): BatchLedger {
  const hashes = new Map<string, Map<string, string>>();
  const documents = new Map<string, KeptDocument>();
  const modelRows: ModelRow[] = [];
  for (const row of rows) {
    if (row.part === "model") {
      modelRows.push(row);
      continue;
    }
    const key = ledgerScopeKey(row);
    const inScope = hashes.get(key) ?? new Map<string, string>();
    hashes.set(key, inScope.set(row.itemId, row.contentHash));
    if (row.content !== null) {
      documents.set(row.itemId, {
        contentHash: row.contentHash,
        content: row.content,
        collectionIds: row.collectionIds,
      });
    }
  }
  return {
    documents,
    hashesIn: (scope) => hashes.get(ledgerScopeKey(scope)) ?? new Map(),
    models: modelsOfRows(modelRows),
  };
}

/** Writes the ledger rows of items the service acknowledged. */
export async function recordDelivered(
  scope: LedgerScope,
  kind: ContentKind,
  items: readonly DeliveredItem[],
  runId: string,
  sentAt: Date,
): Promise<void> {
  await recordDeliveredTogether([{ scope, kind, items, runId, sentAt }]);
}

/** What recordDelivered writes: the items of one scope and kind the service acknowledged. */
export interface DeliveredWrite {
  scope: LedgerScope;
  kind: ContentKind;
  items: readonly DeliveredItem[];
  runId: string;
  sentAt: Date;
}

/**
 * Writes the ledger rows of several scopes' acknowledged items in one statement (as many as
 * their documents' size needs): a live pass's shop workspace and storefront domains'. The
 * scopes share one fence, or none.
 */
export async function recordDeliveredTogether(writes: readonly DeliveredWrite[]): Promise<void> {
  const rows = writes.flatMap((write) => write.items.map((item) => ({ write, item })));
  if (rows.length === 0) return;
  const fence = writes[0]!.scope.fence;
  const sameFence = (other: LeaseFence | undefined) =>
    other?.token === fence?.token && other?.shopDomain === fence?.shopDomain;
  if (!writes.every((write) => sameFence(write.scope.fence))) {
    throw new Error("The ledger's rows written together must share one lease");
  }
  // Fenced: the hash is NULL unless the lease is still ours, and the NOT NULL column then
  // refuses the whole statement.
  const hash = (value: string) => (fence ? fencedText(fence, value) : Prisma.sql`${value}`);
  // The document is replaced with its hash, or cleared: a kept document always has the row's hash.
  // Cut by the documents' size (statement-size.ts); each statement is whole rows, so a lease lost
  // between two leaves the rows of the first, which the service did acknowledge.
  const content = ({ kind }: DeliveredWrite, { itemId, content }: DeliveredItem) =>
    typeof content === "object"
      ? Prisma.sql`(SELECT "payload" FROM "SyncItem" WHERE "runId" = ${content.stagedBy} AND "kind" = ${kind} AND "itemId" = ${itemId})`
      : Prisma.sql`${content ?? null}`;
  const size = ({ item }: (typeof rows)[number]) =>
    typeof item.content === "string" ? item.content.length : 0;
  for (const chunk of statementRows(rows, size)) {
    const values = chunk.map(
      ({ write, item }) =>
        Prisma.sql`(${write.scope.shopDomain}, ${write.scope.workspaceId}, ${write.kind}, ${item.itemId}, ${hash(item.contentHash)}, ${write.sentAt}, ${write.runId}, ${item.title ?? null}, ${item.collectionIds ?? null}, ${content(write, item)})`,
    );
    await fencedWrite(fence, () =>
      driverExecute(Prisma.sql`
      INSERT INTO "IndexedItem" ("shopDomain", "workspaceId", "kind", "itemId", "contentHash", "sentAt", "seenRunId", "title", "collectionIds", "content")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("shopDomain", "workspaceId", "kind", "itemId")
      DO UPDATE SET "contentHash" = excluded."contentHash", "sentAt" = excluded."sentAt", "seenRunId" = excluded."seenRunId",
        "title" = excluded."title", "collectionIds" = excluded."collectionIds", "content" = excluded."content"`),
    );
  }
}

/** Drops the ledger rows of items the service confirmed deleted. */
export async function recordDeleted(
  scope: LedgerScope,
  kind: ContentKind,
  itemIds: readonly string[],
): Promise<void> {
  if (itemIds.length === 0) return;
  const { fence } = scope;
  await fencedWrite(
    fence,
    () => prisma.$executeRaw`
    DELETE FROM "IndexedItem" WHERE ${inScope(scope, kind)} AND "itemId" IN (${Prisma.join(itemIds)})
      AND ${fence ? fenceCondition(fence) : Prisma.sql`1 = 1`}`,
    (count) => count === 0,
  );
}

/** A page of the ids the ledger lists for the shop in a workspace, of one kind, in id order. */
export async function indexedItemIds(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId">,
  kind: ContentKind,
  take: number,
): Promise<string[]> {
  const rows = await prisma.indexedItem.findMany({
    where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId, kind },
    select: { itemId: true },
    orderBy: { itemId: "asc" },
    take,
  });
  return rows.map((row) => row.itemId);
}

/** The ledger's ids (and hashes) of posts whose id starts with `prefix` (the shop's policies). */
export async function indexedPostHashesWithPrefix(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId">,
  prefix: string,
): Promise<Map<string, string>> {
  const rows = await prisma.indexedItem.findMany({
    where: {
      shopDomain: scope.shopDomain,
      workspaceId: scope.workspaceId,
      kind: "post",
      itemId: { startsWith: prefix },
    },
    select: { itemId: true, contentHash: true },
  });
  return new Map(rows.map((row) => [row.itemId, row.contentHash]));
}

/** Every workspace where the ledger has items of the shop. */
export async function ledgerWorkspacesOf(shopDomain: string): Promise<string[]> {
  const rows = await prisma.indexedItem.findMany({
    where: { shopDomain },
    distinct: ["workspaceId"],
    select: { workspaceId: true },
  });
  return rows.map((row) => row.workspaceId);
}

/**
 * The storefront domains' own ledgers of the shop (kept under "<shop>#<workspace>",
 * app/sync/full/presence-workspaces.server.ts): each key with the workspace it lists items in.
 */
export async function domainLedgersOf(
  shopDomain: string,
): Promise<{ ledgerKey: string; workspaceId: string }[]> {
  // groupBy is SQL's GROUP BY; findMany's `distinct` would read every row and dedupe in Node,
  // every minute (the live worker's maintenance), for every item of every domain workspace.
  const rows = await prisma.indexedItem.groupBy({
    by: ["shopDomain", "workspaceId"],
    where: { shopDomain: { startsWith: `${shopDomain}#` } },
  });
  return rows.map((row) => ({ ledgerKey: row.shopDomain, workspaceId: row.workspaceId }));
}

/**
 * Drops a ledger's rows without asking the service to delete anything: for a workspace whose
 * items another ledger of the shop now answers for (the same ids, written over by its own sync).
 */
export async function forgetLedger(scope: LedgerScope): Promise<void> {
  await prisma.indexedItem.deleteMany({
    where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId },
  });
}

/** How many items the ledger lists for the shop, in every workspace. */
export function indexedCountOfShop(shopDomain: string): Promise<number> {
  return prisma.indexedItem.count({ where: { shopDomain } });
}

/**
 * Workspaces where the ledger still lists items of an active, connected shop but that are no
 * longer the shop's (its domain changed, or Settings named another workspace).
 */
export function formerWorkspaces(): Promise<{ shopDomain: string; workspaceId: string }[]> {
  return prisma.$queryRaw`
    SELECT DISTINCT i."shopDomain", i."workspaceId" FROM "IndexedItem" i
    JOIN "Shop" s ON s."shopDomain" = i."shopDomain"
    WHERE s."state" = 'active' AND s."secretKeyCiphertext" IS NOT NULL
      AND i."workspaceId" <> COALESCE(s."workspaceOverride", s."workspaceId")`;
}

/** When the shop's items last went to any of these workspaces (the epoch when never). */
export async function lastSentInto(
  shopDomain: string,
  workspaceIds: readonly string[],
): Promise<Date> {
  const [latest] = await prisma.$queryRaw<{ sentAt: string | null }[]>`
    SELECT MAX("sentAt") AS "sentAt" FROM "IndexedItem"
    WHERE "shopDomain" = ${shopDomain} AND "workspaceId" IN (${Prisma.join(workspaceIds)})`;
  return new Date(latest?.sentAt ?? 0);
}

export interface IndexedProductRow {
  itemId: string;
  title: string | null;
  collectionIds: string | null;
}

/**
 * A page of the products the service holds that were sent before `sentBefore` (the check compares
 * them with an export begun then), in id order after `afterId`.
 */
export async function indexedProducts(
  scope: LedgerScope,
  sentBefore: Date,
  limit: number,
  afterId = "",
): Promise<IndexedProductRow[]> {
  return prisma.$queryRaw<IndexedProductRow[]>`
    SELECT "itemId", "title", "collectionIds" FROM "IndexedItem"
    WHERE ${inScope(scope, "product")} AND "itemId" > ${afterId} AND "sentAt" < ${sentBefore}
    ORDER BY "itemId" LIMIT ${limit}`;
}

/** When each of these products was last sent into the scope's workspace (absent: not held). */
export async function productsSentAt(
  scope: LedgerScope,
  itemIds: readonly string[],
): Promise<Map<string, Date>> {
  if (itemIds.length === 0) return new Map();
  const rows = await prisma.indexedItem.findMany({
    where: {
      shopDomain: scope.shopDomain,
      workspaceId: scope.workspaceId,
      kind: "product",
      itemId: { in: [...itemIds] },
    },
    select: { itemId: true, sentAt: true },
  });
  return new Map(rows.map((row) => [row.itemId, row.sentAt]));
}

/** The ledger rows of these products (sent before `sentBefore`, when given; others are absent). */
export async function indexedProductRows(
  scope: LedgerScope,
  itemIds: readonly string[],
  sentBefore?: Date,
): Promise<Map<string, IndexedProductRow>> {
  if (itemIds.length === 0) return new Map();
  const sent = sentBefore ? Prisma.sql`AND "sentAt" < ${sentBefore}` : Prisma.empty;
  const rows = await prisma.$queryRaw<IndexedProductRow[]>`
    SELECT "itemId", "title", "collectionIds" FROM "IndexedItem"
    WHERE ${inScope(scope, "product")} AND "itemId" IN (${Prisma.join(itemIds)}) ${sent}`;
  return new Map(rows.map((row) => [row.itemId, row]));
}

/**
 * The products whose indexed content lists this collection (ledger rows written before the
 * ledger kept collections are not found): a product removed from the collection is among them.
 */
export async function indexedMembersOf(
  scope: Omit<LedgerScope, "workspaceId"> & { workspaceId?: string },
  collectionId: string,
): Promise<string[]> {
  if (!/^\d+$/.test(collectionId)) return [];
  const workspace = scope.workspaceId
    ? Prisma.sql`AND "workspaceId" = ${scope.workspaceId}`
    : Prisma.empty;
  const rows = await prisma.$queryRaw<{ itemId: string }[]>`
    SELECT DISTINCT "itemId" FROM "IndexedItem"
    WHERE "shopDomain" = ${scope.shopDomain} ${workspace} AND "kind" = 'product'
      AND "collectionIds" LIKE ${`%,${collectionId},%`}`;
  return rows.map((row) => row.itemId);
}

/**
 * Whether every product the ledger holds for the shop says which collections it was sent with
 * (rows written before the ledger kept them do not): then a deleted collection's products are
 * found in the ledger, without a full sync.
 */
export async function ledgerKnowsCollections(shopDomain: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ itemId: string }[]>`
    SELECT "itemId" FROM "IndexedItem"
    WHERE "shopDomain" = ${shopDomain} AND "kind" = 'product' AND "collectionIds" IS NULL
    LIMIT 1`;
  return rows.length === 0;
}

/** The ledger row of a kind last sent under this seen mark (the live worker's: its last live change). */
export function lastSentUnderMark(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId">,
  kind: ContentKind,
  seenRunId: string,
): Promise<IndexedItem | null> {
  return prisma.indexedItem.findFirst({
    where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId, kind, seenRunId },
    orderBy: { sentAt: "desc" },
  });
}

/**
 * How many items the ledger says the shop has in a workspace, of one kind or all (0: the workspace
 * holds none of it).
 */
export function indexedCount(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId"> & { kind?: ContentKind },
): Promise<number> {
  return prisma.indexedItem.count({
    where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId, kind: scope.kind },
  });
}

/**
 * How many items of one kind whose ids start with `idPrefix` ("page-", "article-"; "" for all) the
 * ledger says the shop has in a workspace.
 */
export function indexedCountWithPrefix(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId">,
  kind: ContentKind,
  idPrefix: string,
): Promise<number> {
  return prisma.indexedItem.count({
    where: {
      shopDomain: scope.shopDomain,
      workspaceId: scope.workspaceId,
      kind,
      ...(idPrefix ? { itemId: { startsWith: idPrefix } } : {}),
    },
  });
}

/**
 * A few products the ledger says the shop's workspace holds, the most recently sent first: the
 * Settings key check looks for one of them with the publishable key.
 */
export async function indexedProductSample(
  scope: Pick<LedgerScope, "shopDomain" | "workspaceId">,
  count: number,
): Promise<string[]> {
  const rows = await prisma.indexedItem.findMany({
    where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId, kind: "product" },
    orderBy: { sentAt: "desc" },
    take: count,
    select: { itemId: true },
  });
  return rows.map((row) => row.itemId);
}
