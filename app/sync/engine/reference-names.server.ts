/**
 * The names of what chosen references read as ids name: lists of references to products,
 * variants, collections, pages, files or metaobject entries, and a variant's references (decision
 * 0046). Learnt from Shopify for the products about to be mapped, `nodes(ids:)`
 * REFERENCED_NAMES_PER_QUERY at a time, each id once per run; a full sync learns a batch's before
 * mapping it, a re-read the products it read.
 */
import {
  gidType,
  idsNamedApartOf,
  isNamedApart,
  isNamedSingleReference,
  namedReference,
  productMetafieldsOf,
  REFERENCE_TRANSLATIONS_QUERY,
  REFERENCED_NAMES_PER_QUERY,
  REFERENCED_NAMES_QUERY,
  singleReferenceIdsOf,
  usableTranslation,
  type ChosenMetafield,
  type ReferencedNamesData,
  type ReferenceNames,
  type ReferenceTranslationsData,
  type ShopifyProduct,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";

/** Names kept at most: past it, what was learnt is forgotten (read again if met again). */
export const MAX_KEPT_NAMES = 50_000;

/**
 * What a shop's chosen references name, learnt as products come; undefined when no chosen
 * metafield is read as ids (no query is ever made).
 */
export function referenceNamesFor(
  admin: AdminGraphql,
  chosen: readonly ChosenMetafield[],
): ReferenceNames | undefined {
  if (!chosen.some(isNamedApart)) return undefined;
  const names = new Map<string, string>();
  return {
    names,
    async learn(products: readonly ShopifyProduct[]) {
      const unknown = [
        ...new Set(products.flatMap((product) => idsNamedApartOf(product, chosen))),
      ].filter((id) => !names.has(id));
      if (unknown.length === 0) return;
      if (names.size + unknown.length > MAX_KEPT_NAMES) names.clear();
      for (let start = 0; start < unknown.length; start += REFERENCED_NAMES_PER_QUERY) {
        const ids = unknown.slice(start, start + REFERENCED_NAMES_PER_QUERY);
        const data = await queryAdmin<ReferencedNamesData>(admin, REFERENCED_NAMES_QUERY, { ids });
        ids.forEach((id, index) => {
          const node = data.nodes[index];
          names.set(id, node ? namedReference(node) : "");
        });
      }
    },
  };
}

/** The field a translatable resource is named by; an entry's is whichever holds its display name. */
const NAME_KEY: Readonly<Record<string, string>> = {
  Product: "title",
  Collection: "title",
  Page: "title",
  MediaImage: "alt",
};
/** What Shopify translates of what references name (TranslatableResourceType): others keep their names. */
const TRANSLATABLE_TYPES: ReadonlySet<string> = new Set([...Object.keys(NAME_KEY), "Metaobject"]);

/**
 * referenceNamesIn for each language asked, made once a language: storefront domains that share
 * one name their references with one reader, so Shopify is asked once for them.
 */
export function referenceNamesByLocale(
  admin: AdminGraphql,
  chosen: readonly ChosenMetafield[],
  primary: ReferenceNames | undefined,
): (locale: string) => ReferenceNames | undefined {
  const readers = new Map<string, ReferenceNames | undefined>();
  return (locale) => {
    if (!readers.has(locale)) readers.set(locale, referenceNamesIn(admin, chosen, locale, primary));
    return readers.get(locale);
  };
}

/**
 * What a shop's chosen references name, in a storefront domain's language (`locale`), for its
 * workspace: the primary's names (`primary`, learnt too) where Shopify has no usable translation
 * (missing, empty or outdated, as the storefront falls back), the translated title, alt text or
 * display name where it has; a variant and a file other than an image keep the primary's (Shopify
 * translates neither by itself). A product's single references are translated too. Undefined
 * when no chosen metafield is a reference.
 */
export function referenceNamesIn(
  admin: AdminGraphql,
  chosen: readonly ChosenMetafield[],
  locale: string,
  primary: ReferenceNames | undefined,
): ReferenceNames | undefined {
  if (!primary && !productMetafieldsOf(chosen).some(isNamedSingleReference)) return undefined;
  const translated = new Map<string, string | null>();
  const names = new Map<string, string>();
  return {
    names,
    async learn(products: readonly ShopifyProduct[]) {
      await primary?.learn(products);
      const held = [
        ...new Set(
          products.flatMap((product) => [
            ...idsNamedApartOf(product, chosen),
            ...singleReferenceIdsOf(product, chosen),
          ]),
        ),
      ];
      const unknown = held.filter(
        (id) => TRANSLATABLE_TYPES.has(gidType(id) ?? "") && !translated.has(id),
      );
      if (translated.size + unknown.length > MAX_KEPT_NAMES) {
        translated.clear();
        names.clear();
      }
      for (let start = 0; start < unknown.length; start += REFERENCED_NAMES_PER_QUERY) {
        const ids = unknown.slice(start, start + REFERENCED_NAMES_PER_QUERY);
        const data = await queryAdmin<ReferenceTranslationsData>(
          admin,
          REFERENCE_TRANSLATIONS_QUERY,
          { ids, first: ids.length, locale },
        );
        for (const id of ids) translated.set(id, null);
        for (const node of data.translatableResourcesByIds.nodes) {
          translated.set(node.resourceId, nameIn(node, primary?.names.get(node.resourceId)));
        }
      }
      for (const id of held) {
        const name = translated.get(id) ?? primary?.names.get(id);
        if (name !== undefined) names.set(id, name);
      }
    },
  };
}

/** A resource's translated name, or null when the storefront shows the primary's. */
function nameIn(
  node: ReferenceTranslationsData["translatableResourcesByIds"]["nodes"][number],
  primaryName: string | undefined,
): string | null {
  const key =
    NAME_KEY[gidType(node.resourceId) ?? ""] ??
    // An entry is named by one of its fields: the one whose text is the name read in the primary.
    node.translatableContent.find((field) => primaryName && field.value === primaryName)?.key;
  const line = key ? node.translations.find((translation) => translation.key === key) : undefined;
  return line ? usableTranslation(line) : null;
}
