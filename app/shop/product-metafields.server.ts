import {
  isIndexableMetafieldType,
  metafieldKey,
  PRODUCT_METAFIELD_DEFINITIONS_QUERY,
  type ChosenMetafield,
  type MetafieldDefinitionNode,
  type ProductMetafieldDefinitionsData,
} from "../catalogue";
import { queryAdmin, type AdminGraphql } from "../shopify/admin-graphql";

/** A product metafield definition as Settings lists it. */
export interface MetafieldOffer {
  /** `namespace.key`: the checkbox's value. */
  key: string;
  name: string;
  namespace: string;
  type: string;
  /** How many products have a value. */
  count: number;
  /** Why it cannot be chosen, in the merchant's words; null when it can. */
  notOffered: string | null;
}

/** Definitions more than this are not listed (Shopify allows far fewer per owner type). */
const MAX_DEFINITIONS = 1_000;

export const APP_OWNED_REASON =
  "Kept by an app for its own use (its namespace starts with app--): apps' private data is never sent to the search.";
export const NOT_TEXT_REASON =
  "References to products, collections and files, and lists of metaobject references, are not turned into text yet.";

/** Metafields an app reserved for itself: `app--<app id>…` (as Shopify shows `$app`). */
export function isAppOwnedNamespace(namespace: string): boolean {
  return namespace.startsWith("app--") || namespace.startsWith("$app");
}

/** The store's product metafield definitions, each with whether and why not it is offered. */
export async function productMetafieldOffers(admin: AdminGraphql): Promise<MetafieldOffer[]> {
  const nodes: MetafieldDefinitionNode[] = [];
  let after: string | null = null;
  do {
    const data: ProductMetafieldDefinitionsData = await queryAdmin(
      admin,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { after },
    );
    nodes.push(...data.metafieldDefinitions.nodes);
    const page = data.metafieldDefinitions.pageInfo;
    after = page.hasNextPage ? page.endCursor : null;
  } while (after && nodes.length < MAX_DEFINITIONS);
  return nodes.map((node) => ({
    key: metafieldKey(node),
    name: node.name,
    namespace: node.namespace,
    type: node.type.name,
    count: node.metafieldsCount,
    notOffered: isAppOwnedNamespace(node.namespace)
      ? APP_OWNED_REASON
      : isIndexableMetafieldType(node.type.name)
        ? null
        : NOT_TEXT_REASON,
  }));
}

/** The ticked keys that are offered, as stored: in the order the store lists its definitions. */
export function chosenFromOffers(
  offers: readonly MetafieldOffer[],
  ticked: readonly string[],
): ChosenMetafield[] {
  return offers
    .filter((offer) => offer.notOffered === null && ticked.includes(offer.key))
    .map(({ namespace, key, name, type }) => ({
      namespace,
      key: key.slice(namespace.length + 1),
      name,
      type,
    }));
}
