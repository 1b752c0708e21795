/**
 * The merchant's choice of storefront domains to index (issue 24 item 5, docs/decisions/0042):
 * what ticking or unticking domains costs against the month's product quota. Pure, so the
 * Settings loader computes it and the page recomputes it on every tick without a request.
 */

export interface DomainChoiceRow {
  /** The presence's domain host, the key of the choice. */
  domain: string;
  primary: boolean;
  /** Products that domain's shoppers see (its ledger's count once filled, else an estimate). */
  productCount: number;
  /** True when productCount is an estimate (the workspace is not filled yet). */
  estimated: boolean;
  /** Its workspace is filled now: keeping it costs nothing new this month. */
  filled: boolean;
}

export interface DomainCost {
  domain: string;
  /** Products new to the index the choice sends for this domain. */
  adds: number;
  /** Of those, how many the quota has no room for (recorded over quota by the fill, never sent). */
  overQuota: number;
}

export interface ChoicePlan {
  costs: DomainCost[];
  /** Products the chosen domains add to the month's quota (within the quota). */
  added: number;
  overQuota: number;
  remainingBefore: number;
  remainingAfter: number;
  /** The ticked domains not yet filled on the other pages, together. */
  elsewhere: { domains: number; adds: number; overQuota: number };
}

/** Ticked domains not yet filled on the pages of the list not shown, as one figure. */
export interface OtherPages {
  /** How many such domains. */
  domains: number;
  /** The products they would send (their counts summed). */
  wanted: number;
}

/**
 * The ticked domains on the other pages of a long list (issue 24): those listed before the page
 * shown take the quota first, those after it last, as a fill takes them in list order.
 */
export interface ChoiceElsewhere {
  before: OtherPages;
  after: OtherPages;
}

export const NOTHING_ELSEWHERE: ChoiceElsewhere = {
  before: { domains: 0, wanted: 0 },
  after: { domains: 0, wanted: 0 },
};

/**
 * Plans the choice the way a fill does (plan-quota.server.ts): domains in list order take what
 * the quota has left; a domain beyond it is planned in part, its rest over quota. The primary
 * is always indexed and already filled by the shop's own sync, so it costs nothing here. The
 * rows are the page shown; what the other pages' ticked domains take is planned around them.
 */
export function planDomainChoice(
  rows: readonly DomainChoiceRow[],
  chosen: ReadonlySet<string>,
  remaining: number,
  elsewhere: ChoiceElsewhere = NOTHING_ELSEWHERE,
): ChoicePlan {
  let left = Math.max(0, remaining);
  const costs: DomainCost[] = [];
  let added = 0;
  let overQuota = 0;
  const other = { domains: 0, adds: 0, overQuota: 0 };
  const take = (want: number) => {
    const sent = Math.min(Math.max(0, want), left);
    left -= sent;
    added += sent;
    overQuota += Math.max(0, want) - sent;
    return { sent, over: Math.max(0, want) - sent };
  };
  const takeOther = (pages: OtherPages) => {
    if (pages.domains === 0) return;
    const { sent, over } = take(pages.wanted);
    other.domains += pages.domains;
    other.adds += sent;
    other.overQuota += over;
  };
  takeOther(elsewhere.before);
  for (const row of rows) {
    if (row.primary || row.filled || !chosen.has(row.domain)) continue;
    const { sent, over } = take(row.productCount);
    costs.push({ domain: row.domain, adds: sent, overQuota: over });
  }
  takeOther(elsewhere.after);
  return {
    costs,
    added,
    overQuota,
    remainingBefore: Math.max(0, remaining),
    remainingAfter: left,
    elsewhere: other,
  };
}

/**
 * What the ticked domains not yet filled, outside the page shown, want of the quota. The rows
 * are every domain in list order and the page's are consecutive among them.
 */
export function choiceElsewhere(
  rows: readonly DomainChoiceRow[],
  unticked: ReadonlySet<string>,
  shown: ReadonlySet<string>,
): ChoiceElsewhere {
  const before = { domains: 0, wanted: 0 };
  const after = { domains: 0, wanted: 0 };
  let passed = false;
  for (const row of rows) {
    if (shown.has(row.domain)) {
      passed = true;
      continue;
    }
    if (row.primary || row.filled || unticked.has(row.domain)) continue;
    const side = passed ? after : before;
    side.domains += 1;
    side.wanted += Math.max(0, row.productCount);
  }
  return { before, after };
}

/** A box the merchant changed and has not saved yet, kept while they page through the list. */
export interface PendingTick {
  row: DomainChoiceRow;
  ticked: boolean;
  /** The page of the list it is on. */
  page: number;
}

/**
 * What the other pages' ticked domains want once the merchant's unsaved changes on those pages
 * count too: a domain ticked there adds its products, one unticked takes them off (a filled
 * domain costs nothing either way). `elsewhere` is as saved; a change whose domain the page
 * shows now is the page's own (`shown`), wherever it was made, since the list can shift when
 * Shopify's domains change. Pages before `page` take the quota first, as a fill takes domains in
 * list order.
 */
export function elsewhereWithPending(
  elsewhere: ChoiceElsewhere,
  pending: Iterable<PendingTick>,
  page: number,
  shown: ReadonlySet<string>,
): ChoiceElsewhere {
  const before = { ...elsewhere.before };
  const after = { ...elsewhere.after };
  for (const { row, ticked, page: on } of pending) {
    if (shown.has(row.domain) || row.primary || row.filled) continue;
    const side = on < page ? before : after;
    const sign = ticked ? 1 : -1;
    side.domains = Math.max(0, side.domains + sign);
    side.wanted = Math.max(0, side.wanted + sign * Math.max(0, row.productCount));
  }
  return { before, after };
}

/**
 * The domains not indexed after saving one page of the list (issue 24, decision 0049): only the
 * domains the page showed change (ticked: indexed, else unticked); every other domain keeps what
 * was stored, so saving page 2 never unticks a domain on page 1. A ticked name the shop does not
 * have (a forged form), or one the page did not show, changes nothing and is named.
 */
export function savePageChoice(
  rows: readonly DomainChoiceRow[],
  shown: readonly string[],
  ticked: readonly string[],
  before: readonly string[],
): { unticked: string[]; ignored: string[]; notShown: string[] } {
  const known = new Set(rows.map((row) => row.domain));
  const choosable = new Set(rows.filter((row) => !row.primary).map((row) => row.domain));
  const onPage = new Set(shown.filter((name) => choosable.has(name)));
  const tickedSet = new Set(ticked);
  const ignored = [...tickedSet].filter((name) => !known.has(name));
  const notShown = [...tickedSet].filter((name) => choosable.has(name) && !onPage.has(name));
  const unticked = [
    ...before.filter((name) => !onPage.has(name)),
    ...rows
      .filter((row) => onPage.has(row.domain) && !tickedSet.has(row.domain))
      .map((row) => row.domain),
  ];
  return { unticked: [...new Set(unticked)], ignored, notShown };
}

/** Storefront URLs a page of Settings' "Markets and languages" lists. */
export const STOREFRONTS_PER_PAGE = 50;

/** One page of a long list of domains (thousands of presences stay usable), with the total. */
export function pageOfDomains<T>(
  rows: readonly T[],
  page: number,
  size: number,
): { rows: T[]; page: number; pages: number; total: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return {
    rows: rows.slice((current - 1) * size, current * size),
    page: current,
    pages,
    total: rows.length,
  };
}
