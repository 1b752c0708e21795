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
}

/**
 * Plans the choice the way a fill does (plan-quota.server.ts): domains in list order take what
 * the quota has left; a domain beyond it is planned in part, its rest over quota. The primary
 * is always indexed and already filled by the shop's own sync, so it costs nothing here.
 */
export function planDomainChoice(
  rows: readonly DomainChoiceRow[],
  chosen: ReadonlySet<string>,
  remaining: number,
): ChoicePlan {
  let left = Math.max(0, remaining);
  const costs: DomainCost[] = [];
  let added = 0;
  let overQuota = 0;
  for (const row of rows) {
    if (row.primary || row.filled || !chosen.has(row.domain)) continue;
    const want = Math.max(0, row.productCount);
    const sent = Math.min(want, left);
    left -= sent;
    added += sent;
    overQuota += want - sent;
    costs.push({ domain: row.domain, adds: sent, overQuota: want - sent });
  }
  return { costs, added, overQuota, remainingBefore: Math.max(0, remaining), remainingAfter: left };
}

export interface ParsedChoice {
  /** Domains to index (the primary always among them). */
  chosen: Set<string>;
  /** Names in the form that are not this shop's domains: ignored, and said so. */
  ignored: string[];
}

/**
 * Reads the ticked domains of a posted form. The form lists the ticked boxes only, so every
 * known non-primary domain absent from it is unticked; a name the shop does not have (a forged
 * form) changes nothing, for this shop or another.
 */
export function parseDomainChoice(
  rows: readonly DomainChoiceRow[],
  ticked: readonly string[],
): ParsedChoice {
  const known = new Set(rows.map((row) => row.domain));
  const chosen = new Set(rows.filter((row) => row.primary).map((row) => row.domain));
  const ignored: string[] = [];
  for (const name of ticked) {
    if (known.has(name)) chosen.add(name);
    else if (!ignored.includes(name)) ignored.push(name);
  }
  return { chosen, ignored };
}

/**
 * Domains not indexed, as stored on the shop. Storing the unticked ones (not the ticked) makes
 * a domain that appears later follow the default: indexed.
 */
export function excludedDomains(
  rows: readonly DomainChoiceRow[],
  chosen: ReadonlySet<string>,
): string[] {
  return rows.filter((row) => !row.primary && !chosen.has(row.domain)).map((row) => row.domain);
}

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
