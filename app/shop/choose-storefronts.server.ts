/**
 * Settings' "Save storefronts" (issue 24 item 5, decision 0042): the merchant ticks the storefront
 * domains to index. An unticked domain is stored as such and then follows decision 0038's
 * domain-removed path (dropped from the storefront configuration, so its shoppers get the
 * primary workspace, then emptied); a domain ticked again follows its domain-added path (filled
 * within the month's quota, then named in the configuration). Both start right after the save.
 */
import { excludedDomains, parseDomainChoice } from "../admin/storefront-choice";
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

export async function chooseStorefronts(
  shopDomain: string,
  ticked: readonly string[],
): Promise<StorefrontChoiceSaved> {
  const shop = await findShop(shopDomain);
  const { rows } = await storefrontChoiceOf(
    shop,
    (await storefrontPresencesOf(shopDomain)).presences,
  );
  if (!shop || rows.length === 0) {
    return {
      ok: false,
      message: "Nothing was saved: save the search service's keys first, then choose.",
    };
  }
  const { chosen, ignored } = parseDomainChoice(rows, ticked);
  const listed = new Set(rows.map((row) => row.domain));
  const before = new Set(unindexedDomainsOf(shop));
  // A domain unticked earlier and not listed now (its presence switched off) stays unticked.
  const unticked = [
    ...excludedDomains(rows, chosen),
    ...[...before].filter((host) => !listed.has(host)),
  ];
  await saveUnindexedDomains(shopDomain, unticked);
  const dropped = rows.filter((row) => !before.has(row.domain) && unticked.includes(row.domain));
  const added = rows.filter((row) => before.has(row.domain) && chosen.has(row.domain));
  // In the background: a fill takes minutes; the Dashboard says where each domain stands.
  void followStorefrontDomains(shopDomain);
  const lines = [
    ...dropped.map(
      (row) =>
        `${row.domain} is no longer indexed: the storefront stops asking its workspace, so its shoppers get the primary domain's search, and the workspace is then emptied (within minutes; after the sync under way, if one is).`,
    ),
    ...added.map(
      (row) =>
        `${row.domain} is being indexed: its workspace is filled within minutes (after the sync under way, if one is; follow it on the Dashboard), and its shoppers get the primary domain's search meanwhile.`,
    ),
    ...(dropped.length + added.length > 0 && isPausedByMerchant(shop)
      ? ["Syncing is paused on the Dashboard: this happens when you resume it."]
      : []),
    ...(ignored.length > 0
      ? [`Not storefronts of this store, so left as they were: ${ignored.join(", ")}.`]
      : []),
  ];
  return {
    ok: true,
    message: lines.length > 0 ? lines.join(" ") : "Storefronts saved: nothing changed.",
  };
}
