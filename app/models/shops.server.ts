import type { Prisma, Shop } from "@prisma/client";
import prisma from "./db.server";
import { noteSessionsWritten } from "./session-reads.server";
import { workspaceIdFromDomain } from "../index-service/workspace-id";
import { claimWorkspace } from "./workspace-claims.server";
import type { ChosenMetafield } from "../catalogue/metafield-text";
import type { ChosenMetaobject } from "../catalogue/map-metaobject";

export interface InstalledShop {
  shopDomain: string;
  primaryDomain: string;
  currencyCode?: string;
  contactEmail?: string | null;
  scopes?: string;
}

/**
 * Creates or refreshes a shop's record after Shopify authenticates it (install or re-auth). Its
 * workspace is named after its primary domain unless another shop holds that one
 * (`ownWorkspace`).
 */
export async function recordInstalledShop(shop: InstalledShop): Promise<Shop> {
  const existing = await prisma.shop.findUnique({ where: { shopDomain: shop.shopDomain } });
  const own = await ownWorkspace(shop.shopDomain, shop.primaryDomain, existing?.workspaceId);
  const fields = {
    primaryDomain: shop.primaryDomain,
    ...own,
    currencyCode: shop.currencyCode ?? null,
    contactEmail: shop.contactEmail ?? null,
    scopes: shop.scopes ?? null,
  } satisfies Prisma.ShopUpdateInput;
  // A reinstall brings back a shop that was uninstalled; a pause for any other reason stays.
  const reinstalled =
    existing?.state === "uninstalled"
      ? { state: "active", pauseReason: null, uninstalledAt: null }
      : {};
  return prisma.shop.upsert({
    where: { shopDomain: shop.shopDomain },
    create: { shopDomain: shop.shopDomain, ...fields },
    update: { ...fields, ...reinstalled },
  });
}

/**
 * The workspace a shop writes to by default, claimed for it: the one its primary domain names
 * (spec §5.6); when another shop holds that one, the shop keeps the one it had (`current`), or
 * else takes the one its myshopify.com domain names, which no other shop's domain can name
 * (`workspaceTakenFrom` says which it could not have). Null only when that is held too (by
 * another shop's override): Settings then asks for one.
 */
async function ownWorkspace(
  shopDomain: string,
  primaryDomain: string,
  current: string | null | undefined,
): Promise<{ workspaceId: string | null; workspaceTakenFrom: string | null }> {
  const named = workspaceIdFromDomain(primaryDomain);
  if (await claimWorkspace(shopDomain, named, primaryDomain)) {
    return { workspaceId: named, workspaceTakenFrom: null };
  }
  if (current && (await claimWorkspace(shopDomain, current, primaryDomain))) {
    return { workspaceId: current, workspaceTakenFrom: named };
  }
  const fallback = workspaceIdFromDomain(shopDomain);
  const claimed = await claimWorkspace(shopDomain, fallback, primaryDomain);
  return { workspaceId: claimed ? fallback : null, workspaceTakenFrom: named };
}

export function findShop(shopDomain: string): Promise<Shop | null> {
  return prisma.shop.findUnique({ where: { shopDomain } });
}

/** Active shops with a saved key: those a scheduled full sync may be due for. */
export function connectedActiveShops(): Promise<Shop[]> {
  return prisma.shop.findMany({
    where: { state: "active", secretKeyCiphertext: { not: null } },
  });
}

/** Active shops with a saved key that sync products: those a changed-products check may be due for. */
export function productSyncingShops(): Promise<Shop[]> {
  return prisma.shop.findMany({
    where: { state: "active", syncProducts: true, secretKeyCiphertext: { not: null } },
  });
}

/** Which of these shops are still installed (known, and not uninstalled). */
export async function installedShops(shopDomains: readonly string[]): Promise<string[]> {
  const rows = await prisma.shop.findMany({
    where: { shopDomain: { in: [...shopDomains] }, state: { not: "uninstalled" } },
    select: { shopDomain: true },
  });
  return rows.map((row) => row.shopDomain);
}

/** The installed shops with the service's keys saved. */
export async function connectedShopDomains(): Promise<string[]> {
  const rows = await prisma.shop.findMany({
    where: { secretKeyCiphertext: { not: null }, state: { not: "uninstalled" } },
    select: { shopDomain: true },
  });
  return rows.map((row) => row.shopDomain);
}

/** The workspace the shop's content is written to: the admin's override, else the derived one. */
export function workspaceOf(shop: Pick<Shop, "workspaceId" | "workspaceOverride">): string | null {
  return shop.workspaceOverride ?? shop.workspaceId;
}

/** The storefront configuration (the chat's app-data metafield) was just written naming this workspace. */
export async function recordStorefrontWorkspace(
  shopDomain: string,
  workspaceId: string,
): Promise<void> {
  await prisma.shop.update({ where: { shopDomain }, data: { storefrontWorkspaceId: workspaceId } });
}

/** The workspace the storefront asks: as last written, else (never recorded) the shop's own. */
export function storefrontWorkspaceOf(
  shop: Pick<Shop, "workspaceId" | "workspaceOverride" | "storefrontWorkspaceId">,
): string | null {
  return shop.storefrontWorkspaceId ?? workspaceOf(shop);
}

/**
 * A new primary domain read from Shopify: the shop's workspace becomes the one named after it
 * (unless another shop holds it: `ownWorkspace`), while the storefront keeps the workspace it
 * names (recorded now if it never was).
 */
export async function recordPrimaryDomain(
  shop: Pick<
    Shop,
    "shopDomain" | "workspaceId" | "workspaceOverride" | "storefrontWorkspaceId" | "publishableKey"
  >,
  primaryDomain: string,
): Promise<Shop> {
  const own = await ownWorkspace(shop.shopDomain, primaryDomain, shop.workspaceId);
  return prisma.shop.update({
    where: { shopDomain: shop.shopDomain },
    data: {
      primaryDomain,
      ...own,
      // Only Settings writes a storefront configuration (with the publishable key).
      storefrontWorkspaceId: shop.publishableKey ? storefrontWorkspaceOf(shop) : null,
    },
  });
}

/**
 * app/uninstalled: the shop's tokens are gone, so its sessions go and its work stops: its pending
 * live changes are dropped and its worker lease freed (a worker checks the state before each
 * request, so sending stops at once).
 */
export async function markShopUninstalled(shopDomain: string): Promise<void> {
  await prisma.$transaction([
    prisma.shop.updateMany({
      where: { shopDomain },
      data: { state: "uninstalled", uninstalledAt: new Date(), pauseReason: "App uninstalled" },
    }),
    prisma.session.deleteMany({ where: { shop: shopDomain } }),
    prisma.pendingChange.deleteMany({ where: { shopDomain } }),
    prisma.pendingLookup.deleteMany({ where: { shopDomain } }),
    prisma.stockItem.deleteMany({ where: { shopDomain } }),
    prisma.inventoryItemProduct.deleteMany({ where: { shopDomain } }),
    prisma.stockLevel.deleteMany({ where: { shopDomain } }),
    prisma.shopLease.deleteMany({ where: { shopDomain } }),
  ]);
  noteSessionsWritten();
}

export async function updateShopScopes(shopDomain: string, scopes: string[]): Promise<void> {
  const scope = scopes.join(",");
  await prisma.$transaction([
    prisma.shop.updateMany({ where: { shopDomain }, data: { scopes: scope } }),
    prisma.session.updateMany({ where: { shop: shopDomain }, data: { scope } }),
  ]);
  noteSessionsWritten();
}

/**
 * shop/redact (48 hours after uninstall): every row that belongs to the shop is deleted. The Shop
 * row is written first, as in every transaction that writes it with other tables
 * (docs/database.md, "Lock order"): on PostgreSQL, taking it last deadlocked with
 * replaceStorefrontPresences.
 */
export async function deleteAllShopData(shopDomain: string): Promise<void> {
  await prisma.$transaction([
    prisma.shop.updateMany({ where: { shopDomain }, data: { state: "uninstalled" } }),
    prisma.session.deleteMany({ where: { shop: shopDomain } }),
    prisma.complianceRequest.deleteMany({ where: { shopDomain } }),
    // A run's staged items go with it (cascade).
    prisma.syncRun.deleteMany({ where: { shopDomain } }),
    prisma.bulkExport.deleteMany({ where: { shopDomain } }),
    prisma.indexedItem.deleteMany({ where: { shopDomain } }),
    prisma.quotaUsage.deleteMany({ where: { shopDomain } }),
    prisma.pendingChange.deleteMany({ where: { shopDomain } }),
    prisma.pendingLookup.deleteMany({ where: { shopDomain } }),
    prisma.stockItem.deleteMany({ where: { shopDomain } }),
    prisma.inventoryItemProduct.deleteMany({ where: { shopDomain } }),
    prisma.stockLevel.deleteMany({ where: { shopDomain } }),
    prisma.reconcileCheck.deleteMany({ where: { shopDomain } }),
    prisma.webhookReceipt.deleteMany({ where: { shopDomain } }),
    prisma.shopLease.deleteMany({ where: { shopDomain } }),
    prisma.serviceWebhook.deleteMany({ where: { shopDomain } }),
    prisma.serviceEvent.deleteMany({ where: { shopDomain } }),
    prisma.inboxItem.deleteMany({ where: { shopDomain } }),
    prisma.heldServiceEvent.deleteMany({ where: { shopDomain } }),
    prisma.redactedShopper.deleteMany({ where: { shopDomain } }),
    prisma.storefrontPresence.deleteMany({ where: { shopDomain } }),
    prisma.workspaceClaim.deleteMany({ where: { shopDomain } }),
    // A storefront domain's own workspace keeps its runs and ledger under "<shop>#<workspace>"
    // (app/sync/full/presence-workspaces.server.ts); counts were kept there before decision 0053.
    prisma.syncRun.deleteMany({ where: { shopDomain: { startsWith: `${shopDomain}#` } } }),
    prisma.indexedItem.deleteMany({ where: { shopDomain: { startsWith: `${shopDomain}#` } } }),
    prisma.quotaUsage.deleteMany({ where: { shopDomain: { startsWith: `${shopDomain}#` } } }),
    prisma.shop.deleteMany({ where: { shopDomain } }),
  ]);
  noteSessionsWritten();
}

/** The customer privacy topics: a record of what was asked and what the app did. */
export async function recordComplianceRequest(
  shopDomain: string,
  topic: string,
  webhookId: string | undefined,
  outcome: string,
): Promise<void> {
  await prisma.complianceRequest.create({
    data: { shopDomain, topic, webhookId: webhookId ?? null, outcome },
  });
}

export interface SyncChoices {
  syncProducts: boolean;
  syncPages: boolean;
  syncArticles: boolean;
}

export async function saveSyncChoices(shopDomain: string, choices: SyncChoices): Promise<void> {
  const { syncProducts, syncPages, syncArticles } = choices;
  await prisma.shop.update({
    where: { shopDomain },
    data: { syncProducts, syncPages, syncArticles },
  });
}

/** The product metafields the shop chose for the index (Settings), in their order. */
export function chosenMetafieldsOf(shop: { chosenMetafields: string }): ChosenMetafield[] {
  try {
    const parsed = JSON.parse(shop.chosenMetafields) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (m): m is ChosenMetafield =>
        typeof m === "object" &&
        m !== null &&
        ["namespace", "key", "name", "type"].every(
          (field) => typeof (m as Record<string, unknown>)[field] === "string",
        ),
    );
  } catch {
    return [];
  }
}

export async function saveChosenMetafields(
  shopDomain: string,
  chosen: readonly ChosenMetafield[],
): Promise<void> {
  await prisma.shop.update({
    where: { shopDomain },
    data: { chosenMetafields: JSON.stringify(chosen) },
  });
}

/** The metaobject definitions whose entries the shop chose for the index (Settings). */
export function chosenMetaobjectsOf(shop: { chosenMetaobjects: string }): ChosenMetaobject[] {
  try {
    const parsed = JSON.parse(shop.chosenMetaobjects) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (m): m is ChosenMetaobject =>
        typeof m === "object" &&
        m !== null &&
        typeof (m as Record<string, unknown>).type === "string" &&
        typeof (m as Record<string, unknown>).name === "string",
    );
  } catch {
    return [];
  }
}

export async function saveChosenMetaobjects(
  shopDomain: string,
  chosen: readonly ChosenMetaobject[],
): Promise<void> {
  await prisma.shop.update({
    where: { shopDomain },
    data: { chosenMetaobjects: JSON.stringify(chosen) },
  });
}

/** The storefront domains (hosts, lower case) the merchant unticked in Settings (decision 0042). */
export function unindexedDomainsOf(shop: { unindexedDomains?: string }): string[] {
  try {
    const parsed = JSON.parse(shop.unindexedDomains ?? "[]") as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((h): h is string => typeof h === "string").map((h) => h.toLowerCase());
  } catch {
    return [];
  }
}

/** Stores the storefront domains the merchant unticked (hosts, lower case, each once). */
export async function saveUnindexedDomains(
  shopDomain: string,
  hosts: readonly string[],
): Promise<void> {
  const unique = [...new Set(hosts.map((h) => h.toLowerCase()))].sort();
  await prisma.shop.update({
    where: { shopDomain },
    data: { unindexedDomains: JSON.stringify(unique) },
  });
}

// pauseShop, resumeShop and recordShopTier write through raw SQL, not `updateMany`: Prisma runs
// that in a transaction of its own, and on SQLite each one opens a connection that stays open
// until a garbage collection (docs/database.md, "Memory"). "updatedAt" is set as Prisma would.

/** The pause a merchant chose on the Dashboard: only the merchant's "Resume syncing" lifts it. */
export const MERCHANT_PAUSE_CODE = "MERCHANT_PAUSED";

/**
 * Sync stops for the shop until the merchant fixes what the reason names. A pause the merchant
 * chose stays as it is: a refusal met meanwhile shows again once they resume.
 */
export async function pauseShop(
  shopDomain: string,
  reason: { code: string; message: string; url?: string },
): Promise<void> {
  const now = new Date();
  await prisma.$executeRaw`
    UPDATE "Shop" SET "state" = 'paused', "pauseCode" = ${reason.code},
      "pauseReason" = ${reason.message}, "pauseUrl" = ${reason.url ?? null},
      "pausedAt" = CASE WHEN "state" = 'paused' THEN "pausedAt" ELSE ${now} END, "updatedAt" = ${now}
    WHERE "shopDomain" = ${shopDomain} AND "state" <> 'uninstalled'
      AND ("pauseCode" IS NULL OR "pauseCode" <> ${MERCHANT_PAUSE_CODE})`;
}

/** Lifts a pause the service's refusal or an unreadable key made; never the merchant's own. */
export async function resumeShop(shopDomain: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE "Shop" SET "state" = 'active', "pauseCode" = NULL, "pauseReason" = NULL,
      "pauseUrl" = NULL, "pausedAt" = NULL, "updatedAt" = ${new Date()}
    WHERE "shopDomain" = ${shopDomain} AND "state" = 'paused'
      AND ("pauseCode" IS NULL OR "pauseCode" <> ${MERCHANT_PAUSE_CODE})`;
}

/**
 * The merchant pauses syncing (Dashboard): over any other pause, whose reason shows again if it
 * still holds when they resume. Returns whether the shop is paused by the merchant now.
 */
export async function pauseShopForMerchant(shopDomain: string, message: string): Promise<boolean> {
  const now = new Date();
  const changed = await prisma.$executeRaw`
    UPDATE "Shop" SET "state" = 'paused', "pauseCode" = ${MERCHANT_PAUSE_CODE},
      "pauseReason" = ${message}, "pauseUrl" = NULL, "pausedAt" = ${now}, "updatedAt" = ${now}
    WHERE "shopDomain" = ${shopDomain} AND "state" <> 'uninstalled'
      AND ("pauseCode" IS NULL OR "pauseCode" <> ${MERCHANT_PAUSE_CODE})`;
  return changed > 0 || (await findShop(shopDomain))?.pauseCode === MERCHANT_PAUSE_CODE;
}

/** The merchant's "Resume syncing": lifts their own pause alone. Returns whether it lifted one. */
export async function resumeShopForMerchant(shopDomain: string): Promise<boolean> {
  const changed = await prisma.$executeRaw`
    UPDATE "Shop" SET "state" = 'active', "pauseCode" = NULL, "pauseReason" = NULL,
      "pauseUrl" = NULL, "pausedAt" = NULL, "updatedAt" = ${new Date()}
    WHERE "shopDomain" = ${shopDomain} AND "state" = 'paused'
      AND "pauseCode" = ${MERCHANT_PAUSE_CODE}`;
  return changed > 0;
}

/** Whether the merchant paused the shop's syncing themselves (Dashboard). */
export function isPausedByMerchant(shop: Pick<Shop, "state" | "pauseCode">): boolean {
  return shop.state === "paused" && shop.pauseCode === MERCHANT_PAUSE_CODE;
}

/** Connected shops paused for one of these reasons (pause codes). */
export function pausedShopsWith(pauseCodes: readonly string[]): Promise<Shop[]> {
  return prisma.shop.findMany({
    where: {
      state: "paused",
      pauseCode: { in: [...pauseCodes] },
      secretKeyCiphertext: { not: null },
    },
  });
}

/**
 * Notes that a storefront domain's market was found to show the shop's products otherwise than
 * its workspace holds them (the hourly check): writing the row makes a live worker read the
 * presences and markets it keeps again at its next pass (decisions 0057 and 0064), so that what
 * the check queues is sent with the market as it is now.
 */
export async function noteDomainMarketsChanged(shopDomain: string): Promise<void> {
  await prisma.shop.updateMany({ where: { shopDomain }, data: { updatedAt: new Date() } });
}

/** The plan the service named for the shop's key (it can change between runs). */
export async function recordShopTier(shopDomain: string, tier: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE "Shop" SET "tier" = ${tier}, "updatedAt" = ${new Date()} WHERE "shopDomain" = ${shopDomain}`;
}

/**
 * The former place (workspace, key of its account) is left: the ledger's rows there are dropped
 * and the shop no longer names it, in one transaction.
 */
export async function forgetFormerPlace(scope: {
  shopDomain: string;
  workspaceId: string;
}): Promise<void> {
  await prisma.$transaction([
    prisma.shop.update({
      where: { shopDomain: scope.shopDomain },
      data: { formerWorkspaceId: null, formerSecretKeyCiphertext: null },
    }),
    prisma.indexedItem.deleteMany({
      where: { shopDomain: scope.shopDomain, workspaceId: scope.workspaceId },
    }),
  ]);
}

export interface ServiceSettings {
  /** A new secret key, already checked; undefined keeps the stored one. */
  sealedSecretKey?: { sealed: string; last4: string };
  publishableKey: string;
  tier: string;
  workspaceOverride: string | null;
  /** The place (workspace, sealed key of its account) the ledger describes, when it changes. */
  formerPlace?: { workspaceId: string; sealedSecretKey: string };
}

/** Saves checked keys; says whether the shop was connected for the first time. */
export async function saveServiceSettings(
  shopDomain: string,
  settings: ServiceSettings,
): Promise<{ firstConnection: boolean }> {
  const before = await prisma.shop.findUniqueOrThrow({ where: { shopDomain } });
  await prisma.shop.update({
    where: { shopDomain },
    data: {
      ...(settings.sealedSecretKey
        ? {
            secretKeyCiphertext: settings.sealedSecretKey.sealed,
            secretKeyLast4: settings.sealedSecretKey.last4,
          }
        : {}),
      publishableKey: settings.publishableKey,
      tier: settings.tier,
      workspaceOverride: settings.workspaceOverride,
      // A move not yet carried out keeps the first former place: the ledger still describes it.
      ...(settings.formerPlace && !before.formerWorkspaceId
        ? {
            formerWorkspaceId: settings.formerPlace.workspaceId,
            formerSecretKeyCiphertext: settings.formerPlace.sealedSecretKey,
          }
        : {}),
    },
  });
  return { firstConnection: !before.secretKeyCiphertext };
}
