import type { Shop } from "@prisma/client";
import type { AdminGraphql } from "../shopify/admin-graphql";
import { config } from "../config.server";
import { InvalidDomainError, workspaceIdFromDomain } from "../index-service/workspace-id";
import {
  MAX_CHOSEN_METAFIELDS,
  MAX_CHOSEN_VARIANT_METAFIELDS,
  SERVICE_ID_PREFIXES,
} from "../catalogue";
import { openSecret, SecretUnreadableError, sealSecret } from "../secret-box.server";
import { indexedCountWithPrefix } from "../models/ledger.server";
import { recordReportedQuota } from "../models/quota-usage.server";
import {
  chosenMetafieldsOf,
  chosenMetaobjectsOf,
  findShop,
  saveChosenMetafields,
  saveChosenMetaobjects,
  saveServiceSettings,
  saveSyncChoices,
  workspaceOf,
  type SyncChoices,
} from "../models/shops.server";
import { RunInProgressError } from "../models/sync-runs.server";
import { kindOfType, type CatalogueType } from "../sync/engine/catalogue-entry";
import {
  chosenTypes,
  startShopSync,
  SyncPausedByMerchantError,
} from "../sync/full/run-full-sync.server";
import { checkServiceKeys, type KeyProblem } from "./service-keys.server";
import { claimWorkspace, heldByOtherShops } from "../models/workspace-claims.server";
import { workspaceHeldProblem } from "./workspace-held";
import { choiceOf, chosenFromOffers, productMetafieldOffers } from "./product-metafields.server";
import { chosenMetaobjectsFromOffers, metaobjectOffers } from "./metaobject-definitions.server";
import {
  formerPlaceOf,
  keysOrWorkspaceSwitch,
  switchKeysOrWorkspace,
  type KeysOrWorkspaceSwitch,
  type SwitchOutcome,
} from "./switch-keys-or-workspace.server";

export interface SettingsForm extends SyncChoices {
  /** Empty keeps the stored secret key. */
  secretKey: string;
  publishableKey: string;
  /** Empty uses the workspace derived from the storefront domain. */
  workspaceOverride: string;
  /** The removal the merchant confirmed (`RemovalToConfirm.token`); empty when none was. */
  confirmRemoval?: string;
  /**
   * The product metafields ticked (`namespace.key`, a variant's `variant:namespace.key`); absent
   * keeps the saved choice. Only those
   * Settings offers are kept (productMetafieldOffers).
   */
  metafields?: readonly string[];
  /**
   * The metaobject definitions ticked (their types); absent keeps the saved choice. Only those
   * Settings offers are kept (metaobjectOffers).
   */
  metaobjects?: readonly string[];
}

type SettingsProblem =
  KeyProblem | { field: "workspaceOverride" | "syncProducts" | "metafields"; message: string };

/** Saving would remove items of unticked types from the index: the merchant confirms first. */
export interface RemovalToConfirm {
  /** Posted back as `confirmRemoval` to confirm this very removal. */
  token: string;
  /** "Saving removes 3 online store pages and 2 blog articles from the search index." */
  message: string;
}

/** What a save of the choices of what to sync started, in the merchant's words (null: nothing). */
export interface ChoicesOutcome {
  choicesMessage: string | null;
}

export type SettingsResult =
  | ({ ok: true; tier: string; pairProved: boolean } & SwitchOutcome & ChoicesOutcome)
  | { ok: false; problems: SettingsProblem[]; confirm?: RemovalToConfirm };

/** Shown when nothing is ticked under "What to sync": such a shop could not sync at all. */
export const NOTHING_TICKED_MESSAGE =
  "Tick at least one of Products, Online store pages and Blog articles: with nothing ticked the store cannot sync.";

/** Each product's live re-read asks for every chosen metafield: Shopify's query cost bounds them. */
export const TOO_MANY_METAFIELDS_MESSAGE = `Choose at most ${MAX_CHOSEN_METAFIELDS} metafields: each one is read with every product.`;
export const TOO_MANY_VARIANT_METAFIELDS_MESSAGE = `Choose at most ${MAX_CHOSEN_VARIANT_METAFIELDS} variant metafields: each one is read with every variant of every product.`;

/** The merchant's words for each type, one and many. */
const TYPE_WORDS: Record<CatalogueType, [string, string]> = {
  product: ["product", "products"],
  page: ["online store page", "online store pages"],
  // The store's policies go with its pages ("Online store pages" in Settings).
  policy: ["store policy", "store policies"],
  article: ["blog article", "blog articles"],
  metaobject: ["metaobject entry", "metaobject entries"],
};

/** Shown when the stored secret key no longer opens (ENCRYPTION_KEY changed without rotation). */
export const UNREADABLE_SECRET_MESSAGE =
  "The saved secret key can no longer be read (the app's encryption key changed). Enter your secret key again.";

/**
 * Saves the Settings form: the form is read, both keys are checked against the service, the
 * choices and keys are saved (the secret key encrypted), and what follows from the keys and
 * workspace saved (a move of the index, the storefront configuration, the service's event
 * webhook…) is the switch flow's (switch-keys-or-workspace.server.ts).
 */
export async function saveSettings(
  shopDomain: string,
  admin: AdminGraphql,
  form: SettingsForm,
): Promise<SettingsResult> {
  const env = config();
  const shop = await findShop(shopDomain);
  if (!shop) throw new Error(`${shopDomain} is not installed`);

  const { syncProducts, syncPages, syncArticles } = form;
  const chosen = chosenTypes(form);
  if (chosen.length === 0) {
    return { ok: false, problems: [{ field: "syncProducts", message: NOTHING_TICKED_MESSAGE }] };
  }
  if ((form.metafields?.length ?? 0) > MAX_CHOSEN_METAFIELDS) {
    return { ok: false, problems: [{ field: "metafields", message: TOO_MANY_METAFIELDS_MESSAGE }] };
  }
  const variantTicked = (form.metafields ?? []).filter((m) => m.startsWith("variant:"));
  if (variantTicked.length > MAX_CHOSEN_VARIANT_METAFIELDS) {
    const message = TOO_MANY_VARIANT_METAFIELDS_MESSAGE;
    return { ok: false, problems: [{ field: "metafields", message }] };
  }
  const entered = readForm(shop, form, env.decryptionKeys);
  if (!entered.ok) return entered;
  const { change } = entered;

  const before = chosenTypes(shop);
  const unticked = before.filter((type) => !chosen.includes(type));
  const ticked = chosen.filter((type) => !before.includes(type));
  const removal = await removalOf(shop, unticked);
  if (removal.count > 0 && form.confirmRemoval !== removal.token) {
    return { ok: false, problems: [], confirm: { token: removal.token, message: removal.message } };
  }

  const workspaceProblem = await heldWorkspaceProblem(shop, change.after.workspaceId);
  if (workspaceProblem) return { ok: false, problems: [workspaceProblem] };

  const publishableKey = form.publishableKey.trim();
  const check = await checkServiceKeys({
    baseUrl: env.indexApiUrl,
    workspaceId: change.after.workspaceId,
    secretKey: change.after.secretKey,
    publishableKey,
    pairOf: shopDomain,
    // A test item costs quota: only for keys or a workspace not saved before.
    testItemAllowed:
      entered.newSecret !== "" ||
      publishableKey !== (shop.publishableKey ?? "") ||
      change.after.workspaceId !== change.before.workspaceId,
  });
  if (!check.ok) {
    // The test item counted against the saved account's quota: the sync must plan with it.
    if (check.testItemQuota && change.after.secretKey === change.before.secretKey) {
      await recordReportedQuota(
        shopDomain,
        check.testItemQuota.kind,
        new Date(),
        check.testItemQuota,
      );
    }
    return { ok: false, problems: check.problems };
  }

  const host = shop.primaryDomain ?? shopDomain;
  if (!(await claimWorkspace(shopDomain, change.after.workspaceId, host))) {
    return { ok: false, problems: [(await heldWorkspaceProblem(shop, change.after.workspaceId))!] };
  }
  await saveSyncChoices(shopDomain, { syncProducts, syncPages, syncArticles });
  const metafieldsChanged = await saveMetafieldChoice(shop, admin, form.metafields);
  const metaobjects = await saveMetaobjectChoice(shop, admin, form.metaobjects);
  const newSecret = entered.newSecret;
  const { firstConnection } = await saveServiceSettings(shopDomain, {
    sealedSecretKey: newSecret
      ? { sealed: sealSecret(newSecret, env.encryptionKey), last4: newSecret.slice(-4) }
      : undefined,
    publishableKey,
    tier: check.tier,
    workspaceOverride: entered.workspaceOverride,
    formerPlace: formerPlaceOf(change),
  });

  const outcome = await switchKeysOrWorkspace(admin, change, {
    publishableKey,
    firstConnection,
    testItemQuota: check.testItemQuota,
  });
  // A first sync or a move sends what is ticked and nothing else already.
  const synced = outcome.firstSyncStarted || outcome.moveStarted || outcome.waitsForRun;
  // Products already ticked are exported again for a changed choice of metafields.
  const refresh = metafieldsChanged && syncProducts && !ticked.includes("product");
  const choices =
    synced || (removal.count === 0 && ticked.length === 0 && !refresh && metaobjects === null)
      ? { choicesMessage: null }
      : await applyChoices(shopDomain, removal, ticked, refresh, metaobjects);
  return { ok: true, tier: check.tier, pairProved: check.pairProved, ...outcome, ...choices };
}

/**
 * Saves the product metafields ticked, of those offered; true when the choice changed. The names
 * and types are the definitions' as Settings reads them now.
 */
async function saveMetafieldChoice(
  shop: Shop,
  admin: AdminGraphql,
  ticked: readonly string[] | undefined,
): Promise<boolean> {
  if (ticked === undefined) return false;
  const before = chosenMetafieldsOf(shop);
  const after = chosenFromOffers(
    ticked.length > 0 || before.length > 0 ? await productMetafieldOffers(admin) : [],
    ticked,
  );
  const same = (a: typeof before, b: typeof before) =>
    JSON.stringify(a.map((m) => [choiceOf(m), m.name, m.type]).sort()) ===
    JSON.stringify(b.map((m) => [choiceOf(m), m.name, m.type]).sort());
  if (same(before, after)) return false;
  await saveChosenMetafields(shop.shopDomain, after);
  return true;
}

/**
 * Saves the metaobject definitions ticked, of those offered. Null when the choice did not change;
 * else how many definitions are chosen now (their entries are read again, or all leave the index).
 */
async function saveMetaobjectChoice(
  shop: Shop,
  admin: AdminGraphql,
  ticked: readonly string[] | undefined,
): Promise<{ chosen: number } | null> {
  if (ticked === undefined) return null;
  const before = chosenMetaobjectsOf(shop);
  const after = chosenMetaobjectsFromOffers(
    ticked.length > 0 || before.length > 0 ? await metaobjectOffers(admin) : [],
    ticked,
  );
  const key = (list: typeof before) => JSON.stringify(list.map((m) => [m.type, m.name]).sort());
  if (key(before) === key(after)) return null;
  await saveChosenMetaobjects(shop.shopDomain, after);
  return { chosen: after.length };
}

interface Removal {
  count: number;
  /** "3 online store pages and 1 blog article". */
  listed: string;
  token: string;
  message: string;
}

/**
 * What unticking removes: the ledger's items of those types in the shop's workspace, counted, in
 * the merchant's words, and the token that confirms this very removal.
 */
async function removalOf(shop: Shop, unticked: CatalogueType[]): Promise<Removal> {
  const workspaceId = workspaceOf(shop);
  const counts: [CatalogueType, number][] = [];
  if (workspaceId) {
    for (const type of unticked) {
      const scope = { shopDomain: shop.shopDomain, workspaceId };
      counts.push([
        type,
        await indexedCountWithPrefix(scope, kindOfType(type), SERVICE_ID_PREFIXES[type]),
      ]);
    }
  }
  const named = counts
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${count} ${TYPE_WORDS[type][count === 1 ? 0 : 1]}`);
  const listed = inWords(named);
  return {
    count: counts.reduce((sum, [, count]) => sum + count, 0),
    listed,
    token: unticked.join(","),
    message: `Saving removes ${listed} from the search index: shoppers will no longer find them in search or chat. Tick them again later to send them back (the app then exports them from Shopify again).`,
  };
}

/**
 * A change of what to sync, saved: one full sync ("Settings change") exports the types ticked
 * again (none when only unticking) and removes from the index every type that is not ticked.
 */
async function applyChoices(
  shopDomain: string,
  removal: Removal,
  ticked: CatalogueType[],
  /** The choice of metafields changed: products are exported again too. */
  refresh: boolean,
  /** The choice of metaobject definitions changed: their entries are read again (or removed). */
  metaobjects: { chosen: number } | null,
): Promise<ChoicesOutcome> {
  const exported: CatalogueType[] = [
    ...ticked,
    ...(refresh ? (["product"] as const) : []),
    ...(metaobjects && metaobjects.chosen > 0 ? (["metaobject"] as const) : []),
  ];
  try {
    await startShopSync(shopDomain, "settings", undefined, undefined, exported);
  } catch (error) {
    if (error instanceof SyncPausedByMerchantError) {
      return {
        choicesMessage:
          "Syncing is paused: nothing is removed from or sent to the search index now. Resume syncing on the Dashboard, then press Resync to remove what you unticked and send what you ticked.",
      };
    }
    if (!(error instanceof RunInProgressError)) throw error;
    return {
      choicesMessage:
        "A sync is running: when it has finished, press Resync on the Dashboard to remove what you unticked and send what you ticked.",
    };
  }
  const removing = removal.count > 0 ? `removing ${removal.listed} from the search index` : "";
  const sent = inWords(ticked.map((type) => TYPE_WORDS[type][1]));
  const sending = sent
    ? `exporting ${sent} from Shopify to send them to the search index again`
    : "";
  const refreshing = refresh
    ? "exporting products from Shopify to send them with the metafields you chose"
    : "";
  const entries = !metaobjects
    ? ""
    : metaobjects.chosen > 0
      ? "reading the entries of the metaobject definitions you chose from Shopify to send them to the search index (entries of definitions you unticked leave it)"
      : "removing the metaobject entries from the search index";
  const both = [removing, sending, refreshing, entries].filter(Boolean).join(", and ");
  return {
    choicesMessage: `${both[0]!.toUpperCase()}${both.slice(1)}: follow it on the Dashboard.`,
  };
}

/** "a, b and c". */
function inWords(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? "")
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
/** The problem to show when the workspace the form names is another shop's (null when not). */
async function heldWorkspaceProblem(
  shop: Shop,
  workspaceId: string,
): Promise<{ field: "workspaceOverride"; message: string } | null> {
  const held = await heldByOtherShops(shop.shopDomain, [workspaceId]);
  if (held.size === 0) return null;
  const own = workspaceIdFromDomain(shop.shopDomain);
  return { field: "workspaceOverride", message: workspaceHeldProblem(workspaceId, own) };
}

type EnteredForm =
  | {
      ok: true;
      /** The secret key typed in, empty when the saved one is kept. */
      newSecret: string;
      workspaceOverride: string | null;
      change: KeysOrWorkspaceSwitch;
    }
  | { ok: false; problems: SettingsProblem[] };

/**
 * What the form asks for, before anything is asked of the service: the workspace it names, the
 * secret key it keeps or replaces, and whether that moves the index.
 */
function readForm(shop: Shop, form: SettingsForm, keys: readonly Buffer[]): EnteredForm {
  let workspaceOverride: string | null = null;
  if (form.workspaceOverride.trim()) {
    try {
      workspaceOverride = workspaceIdFromDomain(form.workspaceOverride);
    } catch (error) {
      if (!(error instanceof InvalidDomainError)) throw error;
      return {
        ok: false,
        problems: [
          {
            field: "workspaceOverride",
            message: "Enter a workspace id or domain, such as shop-example-com.",
          },
        ],
      };
    }
  }
  const workspaceId =
    workspaceOverride ?? shop.workspaceId ?? workspaceIdFromDomain(shop.shopDomain);
  const newSecret = form.secretKey.trim();
  const saved = readSavedSecret(shop.secretKeyCiphertext, keys);
  if (saved === UNREADABLE && !newSecret) {
    return { ok: false, problems: [{ field: "secretKey", message: UNREADABLE_SECRET_MESSAGE }] };
  }
  // An unreadable saved key cannot be compared or used to clean up: treated as none.
  const savedSecret = saved === UNREADABLE ? null : saved;
  const change = keysOrWorkspaceSwitch(
    shop,
    { secretKey: savedSecret, keyUnreadable: saved === UNREADABLE },
    { secretKey: newSecret || savedSecret || "", workspaceId },
  );
  return { ok: true, newSecret, workspaceOverride, change };
}

const UNREADABLE = Symbol("unreadable");

function readSavedSecret(
  sealed: string | null,
  keys: readonly Buffer[],
): string | null | typeof UNREADABLE {
  if (!sealed) return null;
  try {
    return openSecret(sealed, keys);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return UNREADABLE;
    throw error;
  }
}
