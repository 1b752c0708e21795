import { useFetcher, useLocation } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  InlineStack,
  Link,
  Text,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { StorefrontChoice } from "../admin/storefront-choice.server";
import {
  elsewhereWithPending,
  NOTHING_ELSEWHERE,
  planDomainChoice,
  type ChoicePlan,
  type PendingTick,
} from "../admin/storefront-choice";
import type { AdminFormat } from "../format";
import type { StorefrontPresence } from "../shopify/storefront-presences.server";
import type { StorefrontChoiceSaved } from "../shop/choose-storefronts.server";
import { useAdminFormat } from "./admin-locale";

/**
 * Settings' "Markets and languages": each storefront URL the store sells on (a domain, or a
 * language's subfolder), with its language, markets and currency, as last read from Shopify.
 * It says which are indexed (the primary domain's default language, and each other domain whose
 * own workspace is filled) and which are not yet, and lets the merchant tick the other domains
 * to index, showing what the choice adds to the month's product quota before it is saved
 * (decision 0042). A store with thousands of them gets them a page at a time, with Previous and
 * Next; boxes changed on any page are kept while the merchant pages through, saved together, and
 * the cost counts the other pages' ticks too (decision 0049).
 */
export function MarketsCard({
  presences,
  primary,
  paging,
  readAt,
  problem,
  domainWorkspaces = {},
  ownWorkspaces = { count: 0, named: [] },
  leftOffStorefront = { count: 0, named: [], onPage: [], limitKb: 128 },
  choice = { rows: [], unticked: [], remaining: null, elsewhere: NOTHING_ELSEWHERE },
}: {
  /** The page's storefront URLs. */
  presences: StorefrontPresence[];
  /** The primary domain's default language, wherever the page is. */
  primary: StorefrontPresence | null;
  paging: { page: number; pages: number; total: number; first: number; last: number };
  readAt: string | null;
  problem: string | null;
  /** The page's storefront hosts → their own workspace, filled by a full sync (decision 0032). */
  domainWorkspaces?: Record<string, string>;
  /** Every domain indexed in a workspace of its own: the first few named, all counted. */
  ownWorkspaces?: { count: number; named: { url: string; localeName: string }[] };
  /** Filled domains the storefront configuration cannot name (Shopify's 128 KB). */
  leftOffStorefront?: { count: number; named: string[]; onPage: string[]; limitKb: number };
  /** The page's domains the merchant can tick, with their counts and the quota left. */
  choice?: StorefrontChoice;
}) {
  const format = useAdminFormat();
  const location = useLocation();
  const fetcher = useFetcher<StorefrontChoiceSaved>();
  // Boxes changed and not saved yet, on any page: kept while the merchant pages through.
  const [pending, setPending] = useState<ReadonlyMap<string, PendingTick>>(new Map());
  // What the save under way sent: once it is saved, only those changes leave `pending`, so a box
  // changed while it was saving stays changed and goes with the next save.
  const sent = useRef<ReadonlyMap<string, PendingTick>>(new Map());
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok) return;
    const saved = sent.current;
    sent.current = new Map();
    setPending((now) => {
      const next = new Map(now);
      for (const [domain, tick] of saved) {
        if (next.get(domain)?.ticked === tick.ticked) next.delete(domain);
      }
      return next;
    });
  }, [fetcher.state, fetcher.data]);
  const saved = (domain: string) => !choice.unticked.includes(domain);
  /** The page's domains now: a change is "on this page" when its domain is shown here. */
  const shownNow = new Set(choice.rows.filter((row) => !row.primary).map((row) => row.domain));
  const ticked = new Set(
    choice.rows
      .filter((row) => !row.primary && (pending.get(row.domain)?.ticked ?? saved(row.domain)))
      .map((row) => row.domain),
  );
  const onTick = (row: StorefrontChoice["rows"][number], checked: boolean) =>
    setPending((now) => {
      const next = new Map(now);
      if (checked === saved(row.domain)) next.delete(row.domain);
      else next.set(row.domain, { row, ticked: checked, page: paging.page });
      return next;
    });
  const otherPages = [...pending.values()].filter((tick) => !shownNow.has(tick.row.domain));
  const choosable = (presence: StorefrontPresence) =>
    presence.defaultLocale
      ? choice.rows.find((row) => !row.primary && row.domain === presence.host.toLowerCase())
      : undefined;
  const plan =
    choice.remaining === null
      ? null
      : planDomainChoice(
          choice.rows,
          ticked,
          choice.remaining,
          elsewhereWithPending(choice.elsewhere, pending.values(), paging.page, shownNow),
        );
  const indexed = primary;
  const ownWorkspace = (presence: StorefrontPresence) =>
    presence.defaultLocale ? domainWorkspaces[presence.host.toLowerCase()] : undefined;
  const unnamed = ownWorkspaces.count - ownWorkspaces.named.length;
  const domains = [
    ...ownWorkspaces.named.map((p) => `${p.url} in ${p.localeName}`),
    ...(unnamed > 0 ? [`${format.count(unnamed, "other domain")}, each`] : []),
  ];
  /** This page's address with another page of storefronts (the admin's other parameters kept). */
  const pageUrl = (page: number) => {
    const search = new URLSearchParams(location.search);
    search.set("storefronts", String(page));
    return `${location.pathname}?${search.toString()}`;
  };
  const choosableShown = presences.flatMap((presence) => {
    const row = choosable(presence);
    return row ? [row.domain] : [];
  });
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Markets and languages
        </Text>
        <Text as="p" id="markets-indexed">
          {domains.length > 0 && indexed
            ? `Indexed: ${indexed.url} in ${indexed.localeName}, and ${domains.join(", ")} in a workspace of its own: the search and the chat there know the products by their titles and links on that domain, at the store's own prices. The others below are not indexed yet.`
            : indexed
              ? `Today only ${indexed.url} in ${indexed.localeName} is indexed: the search and the chat know the products by their titles and links there, at the store's own prices. The other domains and languages below are not indexed yet.`
              : "Today only the primary domain's default language is indexed. The other domains and languages the store sells on are not indexed yet."}
        </Text>
        {problem && (
          <Banner tone="warning" title="Markets and languages could not be read">
            <p>{problem}</p>
          </Banner>
        )}
        {leftOffStorefront.count > 0 && (
          <Banner
            tone="warning"
            title={`${format.count(leftOffStorefront.count, "indexed domain")} left out of the storefront settings`}
          >
            <p style={{ overflowWrap: "anywhere" }}>
              {`Shopify keeps at most ${leftOffStorefront.limitKb} KB of the app's storefront settings, too little to name every domain's workspace, so the app leaves out ${[...leftOffStorefront.named, ...(leftOffStorefront.count > leftOffStorefront.named.length ? [format.count(leftOffStorefront.count - leftOffStorefront.named.length, "other domain")] : [])].join(", ")}: their shoppers get the primary domain's catalogue, in its language. Untick domains you do not need and save to make room for these (the storefront settings are rewritten within minutes of a save, or when syncing resumes).`}
            </p>
          </Banner>
        )}
        {paging.total === 0 && !problem && (
          <Text as="p" tone="subdued">
            Not read from Shopify yet: they are read when the store&apos;s domains, languages or
            markets change, and every hour.
          </Text>
        )}
        {presences.length > 0 && (
          <fetcher.Form
            method="post"
            action="/app/storefronts-choice"
            onSubmit={() => {
              sent.current = new Map(pending);
            }}
          >
            <BlockStack gap="300">
              {paging.pages > 1 && <Pages paging={paging} pageUrl={pageUrl} format={format} />}
              {choosableShown.map((domain) => (
                <input key={domain} type="hidden" name="shown" value={domain} />
              ))}
              {otherPages.map((tick) => (
                <span key={tick.row.domain}>
                  <input type="hidden" name="shown" value={tick.row.domain} />
                  {tick.ticked && <input type="hidden" name="storefront" value={tick.row.domain} />}
                </span>
              ))}
              <ul
                aria-label="Storefronts"
                // A host may be 253 characters: it wraps rather than run out of the card.
                style={{ margin: 0, paddingLeft: 0, listStyle: "none", overflowWrap: "anywhere" }}
              >
                {presences.map((presence) => (
                  <li
                    key={presence.url}
                    data-url={presence.url}
                    style={{ marginBottom: "0.75rem" }}
                  >
                    <BlockStack gap="100">
                      <InlineStack gap="200" blockAlign="center">
                        <Link url={presence.url} target="_blank">
                          {presence.url}
                        </Link>
                        {presence.primary ? (
                          <Badge tone="success">Indexed</Badge>
                        ) : choice.unticked.includes(presence.host.toLowerCase()) &&
                          presence.defaultLocale ? (
                          <Badge>Not indexed: unticked</Badge>
                        ) : ownWorkspace(presence) &&
                          leftOffStorefront.onPage.includes(presence.host.toLowerCase()) ? (
                          <Badge tone="warning">{`Indexed in workspace ${ownWorkspace(presence)}, not on the storefront: Shopify's size limit`}</Badge>
                        ) : ownWorkspace(presence) ? (
                          <Badge tone="success">{`Indexed in workspace ${ownWorkspace(presence)}`}</Badge>
                        ) : (
                          <Badge>Not indexed yet</Badge>
                        )}
                      </InlineStack>
                      <Text as="p">{describe(presence)}</Text>
                      <DomainTick
                        host={presence.host}
                        row={choosable(presence)}
                        ticked={ticked}
                        onTick={onTick}
                        format={format}
                      />
                    </BlockStack>
                  </li>
                ))}
              </ul>
              {paging.pages > 1 && <Pages paging={paging} pageUrl={pageUrl} format={format} />}
              {choice.rows.some((row) => !row.primary) && (
                <>
                  <div aria-live="polite">
                    <Text as="p" id="storefronts-cost">
                      {costText(format, plan)}
                    </Text>
                  </div>
                  {fetcher.data && (
                    <Banner
                      tone={fetcher.data.ok ? "success" : "critical"}
                      title={fetcher.data.ok ? "Storefronts saved" : "Storefronts not saved"}
                    >
                      <p>{fetcher.data.message}</p>
                    </Banner>
                  )}
                  <InlineStack>
                    <Button submit loading={fetcher.state !== "idle"}>
                      {otherPages.length > 0
                        ? `Save storefronts (${format.count(otherPages.length, "change")} on other pages too)`
                        : "Save storefronts"}
                    </Button>
                  </InlineStack>
                </>
              )}
            </BlockStack>
          </fetcher.Form>
        )}
        {readAt && (
          <Text as="p" tone="subdued">
            Read from Shopify {format.moment(readAt)}.
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

/** "Showing 51–100 of 3,000 storefront URLs", with Previous and Next (links, so a page can be kept). */
function Pages({
  paging,
  pageUrl,
  format,
}: {
  paging: { page: number; pages: number; total: number; first: number; last: number };
  pageUrl: (page: number) => string;
  format: AdminFormat;
}) {
  return (
    <nav aria-label={`Storefronts, page ${paging.page} of ${paging.pages}`}>
      <InlineStack gap="300" blockAlign="center">
        <Text as="p">
          {`Showing ${format.number(paging.first)}–${format.number(paging.last)} of ${format.count(paging.total, "storefront URL")} (page ${paging.page} of ${paging.pages}). Boxes you change are kept while you page through, until you save.`}
        </Text>
        {paging.page > 1 && <Button url={pageUrl(paging.page - 1)}>Previous</Button>}
        {paging.page < paging.pages && <Button url={pageUrl(paging.page + 1)}>Next</Button>}
      </InlineStack>
    </nav>
  );
}

/** "French (default language) · market France · EUR", in the merchant's words. */
function describe(presence: StorefrontPresence): string {
  const language =
    `${presence.localeName} (${presence.defaultLocale ? "default language" : "alternate language"}` +
    `${presence.localePublished ? "" : ", not published"})`;
  const markets = presence.markets.map(
    (market) => `${market.name}${market.active ? "" : " (draft)"}`,
  );
  const marketText =
    markets.length === 0
      ? "no market"
      : `${markets.length === 1 ? "market" : "markets"} ${markets.join(", ")}` +
        (presence.moreMarkets ? " and more" : "");
  const currencies = [...new Set(presence.markets.flatMap((market) => market.currencyCode ?? []))];
  const currencyText = currencies.length > 0 ? currencies.join(", ") : "the store's currency";
  return `${language} · ${marketText} · ${currencyText}`;
}

/** A domain's "Index <host> in its own workspace" box (nothing for a storefront not choosable). */
function DomainTick({
  host,
  row,
  ticked,
  onTick,
  format,
}: {
  host: string;
  row: StorefrontChoice["rows"][number] | undefined;
  ticked: ReadonlySet<string>;
  onTick: (row: StorefrontChoice["rows"][number], checked: boolean) => void;
  format: AdminFormat;
}) {
  if (!row) return null;
  return (
    <Checkbox
      label={`Index ${host} in its own workspace`}
      name="storefront"
      value={row.domain}
      helpText={countText(format, row)}
      checked={ticked.has(row.domain)}
      onChange={(checked) => onTick(row, checked)}
    />
  );
}

/** "20 products" (or "about 20 products" before its first fill), in the merchant's words. */
function countText(format: AdminFormat, row: StorefrontChoice["rows"][number]): string {
  const count = format.count(row.productCount, "product");
  return row.estimated
    ? `About ${count}, at most the primary domain's catalogue: the products published to its market are counted when it is filled.`
    : `${count[0]!.toUpperCase()}${count.slice(1)} indexed there.`;
}

/** What saving the ticked domains adds to the month's product quota, before it is saved. */
function costText(format: AdminFormat, plan: ChoicePlan | null): string {
  if (plan === null) return "What indexing another domain costs is known once the keys are saved.";
  const left = `${format.count(plan.remainingBefore, "product")} left this month`;
  const after = `The quota has ${left}; ${format.count(plan.remainingAfter, "product")} after.`;
  if (plan.added === 0 && plan.overQuota === 0) {
    return `Saving adds no products to this month's quota (${left}). Unticking a domain does not give back what its products used this month.`;
  }
  const per = [
    ...plan.costs.map(
      (cost) =>
        `${cost.domain}: ${format.count(cost.adds, "product")}${cost.overQuota > 0 ? `, ${format.count(cost.overQuota, "product")} over the quota` : ""}`,
    ),
    ...(plan.elsewhere.domains > 0
      ? [
          `${format.count(plan.elsewhere.domains, "ticked domain")} on other pages: ${format.count(plan.elsewhere.adds, "product")}${plan.elsewhere.overQuota > 0 ? `, ${format.count(plan.elsewhere.overQuota, "product")} over the quota` : ""}`,
        ]
      : []),
  ].join("; ");
  const over =
    plan.overQuota > 0
      ? ` ${format.count(plan.overQuota, "product")} do not fit in this month's quota and are left out: the Dashboard names them once the fill has run, and they are sent when the quota starts again.`
      : "";
  return `Saving adds up to ${format.count(plan.added, "product")} to this month's quota (${per}). ${after}${over}`;
}
