/**
 * What a storefront domain's workspace holds besides its products, pages and articles: the shop's
 * policies and the chosen metaobject definitions' entries, in that storefront's language (field
 * by field, the primary language's where a translation is missing, empty or outdated) with URLs on
 * that domain. Read by the same paged queries as the shop's own (decisions 0020, 0030), with the
 * translations asked beside them: a policy's in the policies query, an entry's by its gid
 * (`translatableResourcesByIds`, a query per 250 entries). Decision 0039.
 */
import {
  ENTRY_IDS_PER_QUERY,
  ENTRY_TRANSLATIONS_QUERY,
  latestTranslationAt,
  translatedEntry,
  translatedPoliciesQuery,
  translatedPolicy,
  type EntryTranslationsData,
  type ReadTranslation,
  type ShopifyMetaobject,
  type ShopifyShopPolicy,
  type TranslatedPoliciesData,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import type { BulkSource } from "../../shopify/bulk-source";
import { readMetaobjectEntries } from "./metaobject-entries.server";

/** A storefront's language and host: what its policies and entries are read for. */
export interface DomainStorefront {
  host: string;
  locale: string;
}

/** A translated policy or entry, with when it or its translation last changed (ms). */
export interface Edited<T> {
  item: T;
  editedAt: number;
}

export async function readDomainPolicies(
  admin: AdminGraphql,
  storefront: DomainStorefront,
): Promise<Edited<ShopifyShopPolicy>[]> {
  const data = await queryAdmin<TranslatedPoliciesData>(
    admin,
    translatedPoliciesQuery(storefront.locale),
  );
  return data.shop.shopPolicies.map((policy) => ({
    item: translatedPolicy(policy, storefront.locale, storefront.host),
    editedAt: Math.max(Date.parse(policy.updatedAt) || 0, latestTranslationAt(policy.translations)),
  }));
}

export async function readDomainEntries(
  admin: AdminGraphql,
  storefront: DomainStorefront,
  types: readonly string[],
): Promise<Edited<ShopifyMetaobject>[]> {
  const entries = await readMetaobjectEntries(admin, types);
  const translations = new Map<string, ReadTranslation[]>();
  for (let at = 0; at < entries.length; at += ENTRY_IDS_PER_QUERY) {
    const ids = entries.slice(at, at + ENTRY_IDS_PER_QUERY).map((entry) => entry.id);
    const data = await queryAdmin<EntryTranslationsData>(admin, ENTRY_TRANSLATIONS_QUERY, {
      ids,
      locale: storefront.locale,
    });
    for (const node of data.translatableResourcesByIds.nodes)
      translations.set(node.resourceId, node.translations);
  }
  return entries.map((entry) => ({
    item: translatedEntry(entry, translations.get(entry.id)),
    editedAt: Math.max(
      Date.parse(entry.updatedAt) || 0,
      latestTranslationAt(translations.get(entry.id)),
    ),
  }));
}

/** Lines of an export, one object each, read once however often the engine reads the source. */
function linesSource<T>(read: () => Promise<Edited<T>[]>): BulkSource {
  let lines: Promise<string> | null = null;
  return async function* translatedContent() {
    lines ??= read().then((items) => items.map(({ item }) => `${JSON.stringify(item)}\n`).join(""));
    yield Buffer.from(await lines);
  };
}

export function domainPoliciesSource(
  admin: AdminGraphql,
  storefront: DomainStorefront,
): BulkSource {
  return linesSource(() => readDomainPolicies(admin, storefront));
}

export function domainEntriesSource(
  admin: AdminGraphql,
  storefront: DomainStorefront,
  types: readonly string[],
): BulkSource {
  return linesSource(() => readDomainEntries(admin, storefront, types));
}
