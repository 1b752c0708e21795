/**
 * Reading the entries of the metaobject definitions a shop chose (Settings), for the full sync
 * and the hourly check alike: `metaobjects(type:)` a page of 50 at a time per definition (about
 * 250 cost points a page), each page asked again from its own cursor when Shopify throttles it
 * (queryAdmin). A definition deleted in Shopify has no entries: they leave the index.
 */
import {
  METAOBJECT_NAMES_QUERY,
  METAOBJECTS_QUERY,
  referencedTypesOf,
  type ChosenMetafield,
  type MetaobjectNamesData,
  type MetaobjectsData,
  type ShopifyMetaobject,
} from "../../catalogue";
import { queryAdmin, type AdminGraphql } from "../../shopify/admin-graphql";
import { logFor } from "../../server/log";

const log = logFor("sync");

/** Entries of one definition read at most: a bound on memory, far above an FAQ or size charts. */
export const MAX_ENTRIES_PER_DEFINITION = 5_000;

export async function readMetaobjectEntries(
  admin: AdminGraphql,
  types: readonly string[],
): Promise<ShopifyMetaobject[]> {
  const entries: ShopifyMetaobject[] = [];
  for (const type of types) {
    let read = 0;
    let after: string | null = null;
    do {
      const data: MetaobjectsData = await queryAdmin(admin, METAOBJECTS_QUERY, { type, after });
      entries.push(...data.metaobjects.nodes);
      read += data.metaobjects.nodes.length;
      const page = data.metaobjects.pageInfo;
      after = page.hasNextPage ? page.endCursor : null;
    } while (after && read < MAX_ENTRIES_PER_DEFINITION);
    if (after) {
      log.warn(
        { type, read },
        `metaobject definition ${type} has more than ${MAX_ENTRIES_PER_DEFINITION} entries: the rest are not indexed`,
      );
    }
  }
  return entries;
}

/**
 * Entry gid → name of the definitions the chosen lists of references name (a standard category
 * metafield: shopify.color-pattern lists `shopify--color-pattern` entries), for the product
 * documents (MapContext.metaobjectNames). No such list chosen: no query. 250 a page, at most
 * MAX_ENTRIES_PER_DEFINITION a definition.
 */
export async function readReferencedEntryNames(
  admin: AdminGraphql,
  chosen: readonly ChosenMetafield[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const type of referencedTypesOf(chosen)) {
    let read = 0;
    let after: string | null = null;
    do {
      const data: MetaobjectNamesData = await queryAdmin(admin, METAOBJECT_NAMES_QUERY, {
        type,
        after,
      });
      for (const node of data.metaobjects.nodes) names.set(node.id, node.displayName);
      read += data.metaobjects.nodes.length;
      const page = data.metaobjects.pageInfo;
      after = page.hasNextPage ? page.endCursor : null;
    } while (after && read < MAX_ENTRIES_PER_DEFINITION);
  }
  return names;
}
