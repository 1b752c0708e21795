import {
  isIndexableMetafieldType,
  metafieldKey,
  PRODUCT_METAFIELD_DEFINITIONS_QUERY,
  type ChosenMetafield,
  type MetafieldDefinitionNode,
  type ProductMetafieldDefinitionsData,
} from "../catalogue";
import { queryAdmin, type AdminGraphql } from "../shopify/admin-graphql";

/** Whose metafield: a product's, or each variant's (Shopify's `MetafieldOwnerType`). */
export type MetafieldOwner = "PRODUCT" | "PRODUCTVARIANT";

/** A product or variant metafield definition as Settings lists it. */
export interface MetafieldOffer {
  /** `namespace.key`, as Shopify shows it. */
  key: string;
  /** The checkbox's value: `namespace.key` for a product's, `variant:namespace.key` for a variant's. */
  choice: string;
  owner: MetafieldOwner;
  name: string;
  namespace: string;
  type: string;
  /** How many products (a variant's: variants) have a value. */
  count: number;
  /** Why it cannot be chosen, in the merchant's words; null when it can. */
  notOffered: string | null;
  /** Why it is likely useful to shoppers, in the merchant's words; null when nothing says so. */
  suggested: string | null;
  /** Shopify found stored values that fail its type (SOME_INVALID_NOTE); absent otherwise. */
  caution?: string;
}

/** Definitions more than this are not listed (Shopify allows far fewer per owner type). */
const MAX_DEFINITIONS = 1_000;

export const APP_OWNED_REASON =
  "Kept by an app for its own use (its namespace starts with app--): apps' private data is never sent to the search.";
export const HIDDEN_REASON =
  "Hidden from your storefront (its storefront access is off in Shopify: Settings, Custom data): the search shows shoppers only what your storefront may show them. Turn storefront access on to offer it here.";
/** Said of a definition Shopify reports values of that fail its type (`validationStatus`). */
export const SOME_INVALID_NOTE =
  "Some products' values do not match its type in Shopify: those products are sent without it until the values are fixed (Shopify admin: Settings, Custom data).";
export const NOT_TEXT_REASON =
  "Values of this type are not turned into text (references to customers, orders, companies or taxonomy values, or of mixed kinds).";

/** The checkbox value of a chosen metafield: a variant's is told apart from a product's of the same key. */
export function choiceOf(metafield: { namespace: string; key: string; owner?: string }): string {
  const key = metafieldKey(metafield);
  return metafield.owner === "PRODUCTVARIANT" ? `variant:${key}` : key;
}

/** Metafields an app reserved for itself: `app--<app id>…` (as Shopify shows `$app`). */
export function isAppOwnedNamespace(namespace: string): boolean {
  return namespace.startsWith("app--") || namespace.startsWith("$app");
}

/**
 * What shoppers ask the chat about, as words in a definition's name or key: "is it waterproof?",
 * "what is it made of?", "how do I wash it?", "what size is it?". A word matched names the reason.
 */
const SHOPPER_QUESTIONS: readonly { words: RegExp; ask: string }[] = [
  { words: /material|fabric|fibre|fiber|made of|composition/i, ask: "what it is made of" },
  { words: /care|wash|clean/i, ask: "how to look after it" },
  { words: /size|fit|dimension|height|width|length|depth|weight|capacity/i, ask: "about its size" },
  { words: /ingredient|allergen|nutrition/i, ask: "what is in it" },
  { words: /colou?r|pattern/i, ask: "which colours it comes in" },
  { words: /warrant|guarantee/i, ask: "about its warranty" },
  { words: /waterproof|water.resist/i, ask: "whether it is waterproof" },
  { words: /compatib|works with/i, ask: "what it works with" },
  { words: /origin|made in|country/i, ask: "where it is made" },
];

/** Why a definition the store fills is worth ticking, or null: shoppers ask about it, or the merchant pinned it. */
function suggestionFor(node: MetafieldDefinitionNode): string | null {
  if (node.metafieldsCount === 0) return null;
  const text = `${node.name} ${node.key}`;
  const question = SHOPPER_QUESTIONS.find(({ words }) => words.test(text));
  if (question) return `Suggested: shoppers often ask ${question.ask}`;
  if (node.pinnedPosition !== null) return "Suggested: pinned on your products in Shopify";
  return null;
}

function notOfferedReason(node: MetafieldDefinitionNode): string | null {
  if (isAppOwnedNamespace(node.namespace)) return APP_OWNED_REASON;
  if (node.access.storefront === "NONE") return HIDDEN_REASON;
  return isIndexableMetafieldType(node.type.name) ? null : NOT_TEXT_REASON;
}

/**
 * The store's product metafield definitions, then its variant ones, each with whether and why
 * not it is offered.
 */
export async function productMetafieldOffers(admin: AdminGraphql): Promise<MetafieldOffer[]> {
  return [
    ...(await ownerOffers(admin, "PRODUCT")),
    ...(await ownerOffers(admin, "PRODUCTVARIANT")),
  ];
}

async function ownerOffers(admin: AdminGraphql, owner: MetafieldOwner): Promise<MetafieldOffer[]> {
  const nodes: MetafieldDefinitionNode[] = [];
  let after: string | null = null;
  do {
    const data: ProductMetafieldDefinitionsData = await queryAdmin(
      admin,
      PRODUCT_METAFIELD_DEFINITIONS_QUERY,
      { ownerType: owner, after },
    );
    nodes.push(...data.metafieldDefinitions.nodes);
    const page = data.metafieldDefinitions.pageInfo;
    after = page.hasNextPage ? page.endCursor : null;
  } while (after && nodes.length < MAX_DEFINITIONS);
  return nodes.map((node) => {
    const notOffered = notOfferedReason(node);
    return {
      key: metafieldKey(node),
      choice: owner === "PRODUCTVARIANT" ? `variant:${metafieldKey(node)}` : metafieldKey(node),
      owner,
      name: node.name,
      namespace: node.namespace,
      type: node.type.name,
      count: node.metafieldsCount,
      notOffered,
      suggested: notOffered === null ? suggestionFor(node) : null,
      ...(node.validationStatus === "SOME_INVALID" ? { caution: SOME_INVALID_NOTE } : {}),
    };
  });
}

/** The ticked choices that are offered, as stored: in the order the store lists its definitions. */
export function chosenFromOffers(
  offers: readonly MetafieldOffer[],
  ticked: readonly string[],
): ChosenMetafield[] {
  return offers
    .filter((offer) => offer.notOffered === null && ticked.includes(offer.choice))
    .map(({ namespace, key, name, type, owner }) => ({
      namespace,
      key: key.slice(namespace.length + 1),
      name,
      type,
      ...(owner === "PRODUCTVARIANT" ? { owner } : {}),
    }));
}
