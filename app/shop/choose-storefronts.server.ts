/**
 * Settings' "Save storefronts" (issue 24 item 5, decision 0042): the merchant ticks the storefront
 * domains to index. An unticked domain is stored as such and then follows decision 0038's
 * domain-removed path (dropped from the storefront configuration, so its shoppers get the
 * primary workspace, then emptied); a domain ticked again follows its domain-added path (filled
 * within the month's quota, then named in the configuration). Both start right after the save.
 * Settings lists thousands of domains a page at a time (decision 0049): a save changes only the
 * domains its page showed.
 */
import { savePageChoice } from "../admin/storefront-choice";
import { storefrontChoiceOf } from "../admin/storefront-choice.server";
import {
  findShop,
  isPausedByMerchant,
  saveUnindexedDomains,
  unindexedDomainsOf,
} from "../models/shops.server";
import { storefrontPresencesOf } from "../models/storefront-presences.server";
import { followStorefrontDomains } from "./follow-storefront-domains.server";

export interface StorefrontChoiceSaved {
  ok: boolean;
  message: string;
}

/**
 * Saves one page of the choice: `shown` names the domains the page listed (its boxes, ticked or
 * not), `ticked` the boxes ticked; a domain not shown keeps what was stored.
 */
export async function chooseStorefronts(
  shopDomain: string,
  ticked: readonly string[],
  shown: readonly string[],
): Promise<StorefrontChoiceSaved> {
  const shop = await findShop(shopDomain);
  // Only whether each domain is filled is needed here, not its count.
  const { rows } = await storefrontChoiceOf(
    shop,
    (await storefrontPresencesOf(shopDomain)).presences,
    new Set(),
  );
  if (!shop || rows.length === 0) {
    return {
      ok: false,
      message: "Nothing was saved: save the search service's keys first, then choose.",
    };
  }
  const stored = unindexedDomainsOf(shop);
  // A domain unticked earlier and not shown now (another page's, or its presence switched off)
  // stays unticked.
  // Host names are kept in lower case; a form may spell them otherwise (DNS does not care).
  const lower = (names: readonly string[]) => names.map((name) => name.trim().toLowerCase());
  const { unticked, ignored, notShown } = savePageChoice(rows, lower(shown), lower(ticked), stored);
  await saveUnindexedDomains(shopDomain, unticked);
  const before = new Set(stored);
  const after = new Set(unticked);
  const dropped = rows.filter((row) => !before.has(row.domain) && after.has(row.domain));
  const added = rows.filter(
    (row) => !row.primary && before.has(row.domain) && !after.has(row.domain),
  );
  // In the background: a fill takes minutes; the Dashboard says where each domain stands.
  void followStorefrontDomains(shopDomain);
  const lines = [
    ...(dropped.length > 0
      ? [
          `${namedFew(dropped.map((row) => row.domain))} ${dropped.length === 1 ? "is" : "are"} no longer indexed: the storefront stops asking ${dropped.length === 1 ? "its workspace" : "their workspaces"}, so ${dropped.length === 1 ? "its" : "their"} shoppers get the primary domain's search, and the ${dropped.length === 1 ? "workspace is" : "workspaces are"} then emptied (within minutes; after the sync under way, if one is).`,
        ]
      : []),
    ...(added.length > 0
      ? [
          `${namedFew(added.map((row) => row.domain))} ${added.length === 1 ? "is" : "are"} being indexed: ${added.length === 1 ? "its workspace is" : "their workspaces are"} filled within minutes (after the sync under way, if one is; follow it on the Dashboard), and ${added.length === 1 ? "its" : "their"} shoppers get the primary domain's search meanwhile.`,
        ]
      : []),
    ...(dropped.length + added.length > 0 && isPausedByMerchant(shop)
      ? ["Syncing is paused on the Dashboard: this happens when you resume it."]
      : []),
    ...(ignored.length > 0
      ? [`Not storefronts of this store, so left as they were: ${namedFew(ignored)}.`]
      : []),
    ...(notShown.length > 0
      ? [`Not on the page saved, so left as they were: ${namedFew(notShown)}.`]
      : []),
  ];
  return {
    ok: true,
    message: lines.length > 0 ? lines.join(" ") : "Storefronts saved: nothing changed.",
  };
}

/** Names the first few and counts the rest: a save of hundreds of domains stays one line each. */
function namedFew(names: readonly string[], few = 5): string {
  if (names.length <= few) return names.join(", ");
  return `${names.slice(0, few).join(", ")} and ${names.length - few} more`;
}
