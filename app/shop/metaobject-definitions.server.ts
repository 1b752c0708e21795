import {
  METAOBJECT_DEFINITIONS_QUERY,
  type ChosenMetaobject,
  type MetaobjectDefinitionNode,
  type MetaobjectDefinitionsData,
} from "../catalogue";
import { queryAdmin, type AdminGraphql } from "../shopify/admin-graphql";

/** A metaobject definition as Settings lists it. */
export interface MetaobjectOffer {
  /** The definition's type (`faq`): the checkbox's value. */
  type: string;
  name: string;
  /** How many entries it has. */
  count: number;
  /** Whether its entries have pages on the online store (their links in the chat). */
  onlineStore: boolean;
  /** Why it cannot be chosen, in the merchant's words; null when it can. */
  notOffered: string | null;
}

/** Definitions more than this are not listed (Shopify allows far fewer per shop). */
const MAX_DEFINITIONS = 1_000;

export const APP_OWNED_METAOBJECT_REASON =
  "Kept by an app for its own use (its type starts with app--): apps' private data is never sent to the search.";

export const HIDDEN_METAOBJECT_REASON =
  "Hidden from your storefront (its storefront access is off in Shopify: Content, Metaobjects, the definition's Access): the search shows shoppers only what your storefront may show them. Turn storefront access on to offer it here.";

export const STANDARD_METAOBJECT_REASON =
  "Shopify's standard values for category fields (its type starts with shopify--): they are not content of their own; tick the product metafield that lists them (Color, Fabric…) and its products carry their names.";

/** Metaobjects an app reserved for itself: `app--<app id>--…` (as Shopify shows `$app:`). */
function isAppOwnedType(type: string): boolean {
  return type.startsWith("app--") || type.startsWith("$app");
}

/** The store's metaobject definitions, each with whether and why not it is offered. */
export async function metaobjectOffers(admin: AdminGraphql): Promise<MetaobjectOffer[]> {
  const nodes: MetaobjectDefinitionNode[] = [];
  let after: string | null = null;
  do {
    const data: MetaobjectDefinitionsData = await queryAdmin(admin, METAOBJECT_DEFINITIONS_QUERY, {
      after,
    });
    nodes.push(...data.metaobjectDefinitions.nodes);
    const page = data.metaobjectDefinitions.pageInfo;
    after = page.hasNextPage ? page.endCursor : null;
  } while (after && nodes.length < MAX_DEFINITIONS);
  return nodes.map((node) => ({
    type: node.type,
    name: node.name,
    count: node.metaobjectsCount,
    onlineStore: node.capabilities.onlineStore?.enabled === true,
    notOffered: isAppOwnedType(node.type)
      ? APP_OWNED_METAOBJECT_REASON
      : node.type.startsWith("shopify--")
        ? STANDARD_METAOBJECT_REASON
        : node.access.storefront === "NONE"
          ? HIDDEN_METAOBJECT_REASON
          : null,
  }));
}

/** The ticked types that are offered, as stored: in the order the store lists its definitions. */
export function chosenMetaobjectsFromOffers(
  offers: readonly MetaobjectOffer[],
  ticked: readonly string[],
): ChosenMetaobject[] {
  return offers
    .filter((offer) => offer.notOffered === null && ticked.includes(offer.type))
    .map(({ type, name }) => ({ type, name }));
}
