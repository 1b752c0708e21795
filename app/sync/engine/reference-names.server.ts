/**
 * The names of what chosen references read as ids name: lists of references to products,
 * variants, collections, pages, files or metaobject entries, and a variant's references (decision
 * 0046). Learnt from Shopify for the products about to be mapped, `nodes(ids:)`
 * REFERENCED_NAMES_PER_QUERY at a time, each id once per run; a full sync learns a batch's before
 * mapping it, a re-read the products it read.
 */
import {
  idsNamedApartOf,
  isNamedApart,
  namedReference,
  REFERENCED_NAMES_PER_QUERY,
  REFERENCED_NAMES_QUERY,
  type ChosenMetafield,
  type ReferencedNamesData,
  type ReferenceNames,
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
