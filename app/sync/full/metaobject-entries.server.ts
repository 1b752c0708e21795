/**
 * Reading the entries of the metaobject definitions a shop chose (Settings), for the full sync
 * and the hourly check alike: `metaobjects(type:)` a page of 50 at a time per definition (about
 * 250 cost points a page), each page asked again from its own cursor when Shopify throttles it
 * (queryAdmin). A definition deleted in Shopify has no entries: they leave the index.
 */
import { METAOBJECTS_QUERY, type MetaobjectsData, type ShopifyMetaobject } from "../../catalogue";
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
