/**
 * A storefront in another language, for what is not in a bulk export: the shop's policies and the
 * entries of the chosen metaobject definitions (read by paged queries, decisions 0020 and 0030),
 * and the chosen metafields inside the products' export. The rule is the products' one
 * (translated-lines.ts): a translation replaces the primary language's text where it is not
 * empty and not outdated; otherwise the primary language's text stays, field by field.
 *
 * Where Shopify 2026-10 keeps them: `ShopPolicy.translations(locale:)` (key `body`; the title is
 * Shopify's name of the policy type, not content), `Metafield.translations(locale:)` (key
 * `value`), and for a metaobject entry, which has no `translations` field, the
 * `TranslatableResource` of its gid (`translatableResourcesByIds`; keys: its text fields' keys).
 */
import { SHOP_POLICIES_QUERY, isLocaleTag } from "./queries";
import type { ShopifyMetaobject, ShopifyShopPolicy } from "./shopify-types";
import { storefrontOrigin } from "./storefront-url";
import { usableTranslation, type TranslationLine } from "./translated-lines";

/** A translation as these queries read it: with when it was registered, for the periodic check. */
export interface ReadTranslation extends TranslationLine {
  updatedAt?: unknown;
}

const translationsOf = (locale: string) => {
  if (!isLocaleTag(locale)) throw new Error(`"${locale}" is not a locale`);
  return `translations(locale: ${JSON.stringify(locale)}) { key value outdated updatedAt }`;
};

/** SHOP_POLICIES_QUERY with each policy's translations into `locale`. */
export function translatedPoliciesQuery(locale: string): string {
  return SHOP_POLICIES_QUERY.replace(
    "      updatedAt\n",
    `      updatedAt\n      ${translationsOf(locale)}\n`,
  );
}

export interface TranslatedPoliciesData {
  shop: { shopPolicies: (ShopifyShopPolicy & { translations?: ReadTranslation[] })[] };
}

/**
 * A product export (productsBulkQuery) whose chosen metafields carry their translations into
 * `locale`: a list on each metafield object, so the export has no more connections than before.
 */
export function withMetafieldTranslations(query: string, locale: string): string {
  return query.replaceAll(
    "id namespace key type value",
    `id namespace key type value ${translationsOf(locale)}`,
  );
}

/**
 * The translations of metaobject entries, by gid: `translatableResourcesByIds`, at most 250 ids a
 * query (the connection's largest page).
 */
export const ENTRY_TRANSLATIONS_QUERY = `query EntryTranslations($ids: [ID!]!, $locale: String!) {
  translatableResourcesByIds(resourceIds: $ids, first: 250) {
    nodes {
      resourceId
      translations(locale: $locale) { key value outdated updatedAt }
    }
  }
}`;
export const ENTRY_IDS_PER_QUERY = 250;

export interface EntryTranslationsData {
  translatableResourcesByIds: {
    nodes: { resourceId: string; translations: ReadTranslation[] }[];
  };
}

/**
 * The policy titles a storefront shows in a few languages (Shopify names a policy by its type in
 * the shopper's language); another language keeps the primary language's title.
 */
const POLICY_TITLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  fr: {
    CONTACT_INFORMATION: "Coordonnées",
    LEGAL_NOTICE: "Mentions légales",
    PRIVACY_POLICY: "Politique de confidentialité",
    REFUND_POLICY: "Politique de remboursement",
    SHIPPING_POLICY: "Politique d'expédition",
    SUBSCRIPTION_POLICY: "Politique d'annulation",
    TERMS_OF_SALE: "Conditions de vente",
    TERMS_OF_SERVICE: "Conditions d'utilisation",
  },
  de: {
    CONTACT_INFORMATION: "Kontaktinformationen",
    LEGAL_NOTICE: "Impressum",
    PRIVACY_POLICY: "Datenschutzerklärung",
    REFUND_POLICY: "Rückerstattungsrichtlinie",
    SHIPPING_POLICY: "Versandrichtlinie",
    SUBSCRIPTION_POLICY: "Kündigungsrichtlinie",
    TERMS_OF_SALE: "Verkaufsbedingungen",
    TERMS_OF_SERVICE: "Nutzungsbedingungen",
  },
};

/** The latest time a translation used here was registered (ms), or 0. */
export function latestTranslationAt(translations: readonly ReadTranslation[] | undefined): number {
  let latest = 0;
  for (const translation of translations ?? []) {
    const at = typeof translation.updatedAt === "string" ? Date.parse(translation.updatedAt) : NaN;
    if (Number.isFinite(at) && at > latest) latest = at;
  }
  return latest;
}

/**
 * A policy as a shopper on `host` in `locale` reads it: the translated body where usable, the
 * policy type's title in that language, its URL on that domain (`/policies/<type>`).
 */
export function translatedPolicy(
  policy: ShopifyShopPolicy & { translations?: ReadTranslation[] },
  locale: string,
  host: string,
): ShopifyShopPolicy {
  const { translations, ...translated } = policy;
  for (const translation of Array.isArray(translations) ? translations : []) {
    const value = usableTranslation(translation);
    if (translation.key === "body" && value !== null) translated.body = value;
  }
  const language = locale.split("-")[0]!.toLowerCase();
  const title = POLICY_TITLES[language]?.[String(policy.type)];
  if (title) translated.title = title;
  let path = `/policies/${String(policy.type).toLowerCase().replace(/_/g, "-")}`;
  try {
    path = new URL(policy.url).pathname;
  } catch {
    // Not a URL: the storefront's own path for the type.
  }
  translated.url = `${storefrontOrigin(host)}${path}`;
  return translated;
}

/**
 * An entry as a shopper in another language reads it: each text field's usable translation, and
 * its name (displayName, its display field's value) translated with that field.
 */
export function translatedEntry(
  entry: ShopifyMetaobject,
  translations: readonly ReadTranslation[] | undefined,
): ShopifyMetaobject {
  if (!translations?.length || !Array.isArray(entry.fields)) return entry;
  let displayName = entry.displayName;
  const fields = entry.fields.map((field) => {
    const translation = translations.find((candidate) => candidate.key === field.key);
    const value = translation ? usableTranslation(translation) : null;
    if (value === null) return field;
    if (field.value !== null && field.value === entry.displayName) displayName = value;
    return { ...field, value };
  });
  return { ...entry, displayName, fields };
}
