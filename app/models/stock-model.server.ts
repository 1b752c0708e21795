import { Prisma } from "@prisma/client";
import { chunk } from "../index-service/bulk";
import prisma, {
  driverBoolean,
  driverExecute,
  driverQuery,
  jsonRows,
  retryWhileBusy,
  toDate,
  type SqlProvider,
} from "./db.server";

/**
 * The stock model (docs/decisions/0021-stock-from-the-payload.md): each variant's inventory
 * item (tracked, policy) and each item's `available` at each location, kept from Shopify's reads
 * and from inventory_levels/update payloads, so a purchase's stock is computed without asking
 * Shopify.
 */

export interface ModelLevel {
  locationId: string;
  available: number;
  /** When the level was last written (a payload's time, a read's), as modelledProducts reads it. */
  changedAt?: Date;
}

export interface ModelVariant {
  variantId: string;
  inventoryItemId: string;
  tracked: boolean;
  inventoryPolicy: string;
  levels: ModelLevel[];
}

/** Writes one level from a payload; an older one than the kept level changes nothing. */
export function levelUpsert(
  shopDomain: string,
  inventoryItemId: string,
  level: ModelLevel,
  changedAt: Date,
): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "StockLevel" ("shopDomain", "inventoryItemId", "locationId", "available", "changedAt")
    VALUES (${shopDomain}, ${inventoryItemId}, ${level.locationId}, ${level.available}, ${changedAt})
    ON CONFLICT ("shopDomain", "inventoryItemId", "locationId") DO UPDATE SET
      "available" = excluded."available", "changedAt" = excluded."changedAt"
    WHERE excluded."changedAt" > "StockLevel"."changedAt"`;
}

/**
 * Two payloads of one level stamped alike but with other figures: which is the later cannot be
 * told, so the model forgets the item and its next change reads it from Shopify.
 */
export function forgetItemOnTie(
  shopDomain: string,
  inventoryItemId: string,
  level: ModelLevel,
  changedAt: Date,
): Prisma.Sql {
  return Prisma.sql`
    DELETE FROM "StockItem" WHERE "shopDomain" = ${shopDomain} AND "inventoryItemId" = ${inventoryItemId}
      AND EXISTS (SELECT 1 FROM "StockLevel" WHERE "shopDomain" = ${shopDomain}
        AND "inventoryItemId" = ${inventoryItemId} AND "locationId" = ${level.locationId}
        AND "changedAt" = ${changedAt} AND "available" <> ${level.available})`;
}

/**
 * Inventory item id → its product, for the items the model knows or whose product Shopify
 * named before (a lookup, a model read), though the model may not hold their levels now.
 */
export async function productsOfKnownItems(
  shopDomain: string,
  inventoryItemIds: readonly string[],
): Promise<Map<string, string>> {
  if (inventoryItemIds.length === 0) return new Map();
  const ids = Prisma.join(inventoryItemIds);
  const rows = await prisma.$queryRaw<{ inventoryItemId: string; productId: string }[]>`
    SELECT "inventoryItemId", "productId" FROM "InventoryItemProduct"
    WHERE "shopDomain" = ${shopDomain} AND "inventoryItemId" IN (${ids})
    UNION
    SELECT "inventoryItemId", "productId" FROM "StockItem"
    WHERE "shopDomain" = ${shopDomain} AND "inventoryItemId" IN (${ids})`;
  return new Map(rows.map((row) => [row.inventoryItemId, row.productId]));
}

/** Keeps which product each inventory item belongs to (a lookup's or a model read's answer). */
export async function rememberItemProducts(
  shopDomain: string,
  items: readonly { inventoryItemId: string; productId: string }[],
): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map((item) => [item.inventoryItemId, item.productId]);
  await retryWhileBusy(() =>
    driverExecute(
      (provider) => Prisma.sql`
      INSERT INTO "InventoryItemProduct" ("shopDomain", "inventoryItemId", "productId")
      SELECT ${shopDomain}, j.value ->> 0, j.value ->> 1 FROM ${jsonRows(provider, rows)} WHERE true
      ON CONFLICT ("shopDomain", "inventoryItemId") DO UPDATE SET "productId" = excluded."productId"`,
    ),
  );
}

/** Product id → its variants as the model keeps them (products it does not know are absent). */
export async function modelledProducts(
  shopDomain: string,
  productIds: readonly string[],
): Promise<Map<string, ModelVariant[]>> {
  if (productIds.length === 0) return new Map();
  // One statement (a pass reads it for every batch, with its ledger: batchLedger). To the driver
  // (decision 0052).
  return modelsOfRows(
    await driverQuery<ModelRow>(modelRowsSql(shopDomain, Prisma.join(productIds))),
  );
}

/** A row of `modelRowsSql`. */
export interface ModelRow {
  inventoryItemId: string;
  productId: string;
  variantId: string;
  tracked: unknown;
  inventoryPolicy: string;
  locationId: string | null;
  available: number | bigint | null;
  changedAt: unknown;
}

/** The columns of `modelRowsSql`, in its order (a statement that reads more lines them up). */
export const MODEL_COLUMNS = [
  "inventoryItemId",
  "productId",
  "variantId",
  "tracked",
  "inventoryPolicy",
  "locationId",
  "available",
  "changedAt",
] as const satisfies readonly (keyof ModelRow)[];

/** The model's rows of these products: each item with its levels, an item without any level once, with NULLs. */
export function modelRowsSql(
  shopDomain: string,
  /** The ids as SQL: values joined, or a subquery. */
  ids: Prisma.Sql,
): Prisma.Sql {
  return Prisma.sql`
    SELECT i."inventoryItemId", i."productId", i."variantId", i."tracked", i."inventoryPolicy",
      l."locationId", l."available", l."changedAt"
    FROM "StockItem" i
    LEFT JOIN "StockLevel" l
      ON l."shopDomain" = i."shopDomain" AND l."inventoryItemId" = i."inventoryItemId"
    WHERE i."shopDomain" = ${shopDomain} AND i."productId" IN (${ids})`;
}

/** The products of `modelRowsSql`'s rows, each with its variants and their levels. */
export function modelsOfRows(rows: readonly ModelRow[]): Map<string, ModelVariant[]> {
  const products = new Map<string, ModelVariant[]>();
  const variants = new Map<string, ModelVariant>();
  for (const row of rows) {
    let variant = variants.get(row.inventoryItemId);
    if (!variant) {
      variant = {
        variantId: row.variantId,
        inventoryItemId: row.inventoryItemId,
        tracked: driverBoolean(row.tracked),
        inventoryPolicy: row.inventoryPolicy,
        levels: [],
      };
      variants.set(row.inventoryItemId, variant);
      products.set(row.productId, [...(products.get(row.productId) ?? []), variant]);
    }
    if (row.locationId !== null) {
      variant.levels.push({
        locationId: row.locationId,
        available: Number(row.available),
        changedAt: toDate(row.changedAt),
      });
    }
  }
  return products;
}

/**
 * Replaces what the model keeps of a product with a whole read of it from Shopify (every variant,
 * every level), as of `readAt`: a payload level newer than the read stays.
 */
export async function replaceProductModel(
  shopDomain: string,
  productId: string,
  variants: readonly ModelVariant[],
  readAt: Date,
): Promise<void> {
  const items = variants.map((variant) => ({ ...variant, productId }));
  await rememberItemProducts(shopDomain, items);
  await retryWhileBusy(async () => {
    await driverExecute(Prisma.sql`
      DELETE FROM "StockItem" WHERE "shopDomain" = ${shopDomain} AND "productId" = ${productId}`);
    await writeItems(shopDomain, items, readAt);
  });
}

/** An inventory item as a full sync's stock export listed it, with its product. */
export interface ExportedItem extends ModelVariant {
  productId: string;
}

/**
 * Writes inventory items of a full sync's stock export, as of `readAt` (just before the export
 * began): an item read again since (a model read) keeps that read, and a level a payload wrote
 * since keeps the payload's figure.
 */
export async function fillModelItems(
  shopDomain: string,
  items: readonly ExportedItem[],
  readAt: Date,
): Promise<void> {
  if (items.length === 0) return;
  await rememberItemProducts(shopDomain, items);
  await retryWhileBusy(() => writeItems(shopDomain, items, readAt));
}

/**
 * Items read whole as of `readAt` (a model read, an export), each with every level it has: an
 * item or level written later stays, and a location the read no longer lists is gone.
 */
async function writeItems(
  shopDomain: string,
  items: readonly ExportedItem[],
  readAt: Date,
): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map((v) => [
    v.inventoryItemId,
    v.productId,
    v.variantId,
    v.tracked ? "t" : "f",
    v.inventoryPolicy,
  ]);
  await driverExecute(
    (provider) => Prisma.sql`
    INSERT INTO "StockItem" ("shopDomain", "inventoryItemId", "productId", "variantId", "tracked", "inventoryPolicy", "readAt")
    SELECT ${shopDomain}, j.value ->> 0, j.value ->> 1, j.value ->> 2, (j.value ->> 3) = 't',
      j.value ->> 4, ${timestamp(provider, readAt)}
    FROM ${jsonRows(provider, rows)} WHERE true
    ON CONFLICT ("shopDomain", "inventoryItemId") DO UPDATE SET
      "productId" = excluded."productId", "variantId" = excluded."variantId",
      "tracked" = excluded."tracked", "inventoryPolicy" = excluded."inventoryPolicy",
      "readAt" = excluded."readAt"
    WHERE "StockItem"."readAt" <= excluded."readAt"`,
  );
  const ids = items.map((v) => [v.inventoryItemId]);
  await driverExecute(
    (provider) => Prisma.sql`
    DELETE FROM "StockLevel" WHERE "shopDomain" = ${shopDomain}
      AND "inventoryItemId" IN (SELECT j.value ->> 0 FROM ${jsonRows(provider, ids)})
      AND "changedAt" <= ${readAt}`,
  );
  const levels = items.flatMap((v) =>
    v.levels.map((level) => [v.inventoryItemId, level.locationId, level.available]),
  );
  if (levels.length === 0) return;
  await driverExecute(
    (provider) => Prisma.sql`
    INSERT INTO "StockLevel" ("shopDomain", "inventoryItemId", "locationId", "available", "changedAt")
    SELECT ${shopDomain}, j.value ->> 0, j.value ->> 1, CAST(j.value ->> 2 AS INTEGER),
      ${timestamp(provider, readAt)}
    FROM ${jsonRows(provider, levels)} WHERE true
    ON CONFLICT ("shopDomain", "inventoryItemId", "locationId") DO UPDATE SET
      "available" = excluded."available", "changedAt" = excluded."changedAt"
    WHERE excluded."changedAt" > "StockLevel"."changedAt"`,
  );
}

/**
 * A time in a SELECT's list, where PostgreSQL cannot tell a parameter's type from the column it
 * goes to; SQLite keeps it as the driver sends it (a cast there would read it as a number).
 */
function timestamp(provider: SqlProvider, at: Date): Prisma.Sql {
  return provider === "postgres" ? Prisma.sql`CAST(${at} AS TIMESTAMP(3))` : Prisma.sql`${at}`;
}

/**
 * After a whole stock export: the model forgets the items it did not list as modelled (gone from
 * Shopify, or listed with levels that do not add up to the variant's quantity) and those named
 * in `unsure` (levels listed apart from their item); items read since the export began stay.
 */
export async function forgetItemsNotExported(
  shopDomain: string,
  readAt: Date,
  unsure: readonly string[],
): Promise<void> {
  await retryWhileBusy(async () => {
    await driverExecute(Prisma.sql`
      DELETE FROM "StockItem" WHERE "shopDomain" = ${shopDomain} AND "readAt" < ${readAt}`);
    for (const ids of chunk(unsure, 500)) {
      await driverExecute(Prisma.sql`
        DELETE FROM "StockItem" WHERE "shopDomain" = ${shopDomain}
          AND "inventoryItemId" IN (${Prisma.join(ids)}) AND "readAt" <= ${readAt}`);
    }
  });
}

/**
 * Forgets what the model keeps of these products (not their levels: a payload may still name
 * the items, nor which product each item belongs to, which does not change): their next stock
 * change reads them from Shopify again. Called when a read of the
 * product disagrees with the model, or the reconciliation found a difference.
 */
export async function forgetProductModels(
  shopDomain: string,
  productIds: readonly string[],
): Promise<void> {
  if (productIds.length === 0) return;
  await retryWhileBusy(
    () => prisma.$executeRaw`
      DELETE FROM "StockItem" WHERE "shopDomain" = ${shopDomain}
        AND "productId" IN (${Prisma.join(productIds)})`,
  );
}
