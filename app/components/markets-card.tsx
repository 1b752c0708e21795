import { Badge, Banner, BlockStack, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { StorefrontPresence } from "../shopify/storefront-presences.server";
import { useAdminFormat } from "./admin-locale";

/**
 * Settings' "Markets and languages": each storefront URL the store sells on (a domain, or a
 * language's subfolder), with its language, markets and currency, as last read from Shopify.
 * Read-only: it says which are indexed (the primary domain's default language, and each other
 * domain whose own workspace a full sync filled) and which are not yet.
 */
export function MarketsCard({
  presences,
  readAt,
  problem,
  domainWorkspaces = {},
}: {
  presences: StorefrontPresence[];
  readAt: string | null;
  problem: string | null;
  /** Storefront host → its own workspace, filled by a full sync (decision 0032). */
  domainWorkspaces?: Record<string, string>;
}) {
  const format = useAdminFormat();
  const indexed = presences.find((presence) => presence.primary);
  const ownWorkspace = (presence: StorefrontPresence) =>
    presence.defaultLocale ? domainWorkspaces[presence.host.toLowerCase()] : undefined;
  const domains = presences.filter((presence) => ownWorkspace(presence));
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Markets and languages
        </Text>
        <Text as="p" id="markets-indexed">
          {domains.length > 0 && indexed
            ? `Indexed: ${indexed.url} in ${indexed.localeName}, and ${domains.map((p) => `${p.url} in ${p.localeName}`).join(", ")} in a workspace of its own: the search and the chat there know the products by their titles and links on that domain, at the store's own prices. The others below are not indexed yet.`
            : indexed
              ? `Today only ${indexed.url} in ${indexed.localeName} is indexed: the search and the chat know the products by their titles and links there, at the store's own prices. The other domains and languages below are not indexed yet.`
              : "Today only the primary domain's default language is indexed. The other domains and languages the store sells on are not indexed yet."}
        </Text>
        {problem && (
          <Banner tone="warning" title="Markets and languages could not be read">
            <p>{problem}</p>
          </Banner>
        )}
        {presences.length === 0 && !problem && (
          <Text as="p" tone="subdued">
            Not read from Shopify yet: they are read when the store&apos;s domains, languages or
            markets change, and every hour.
          </Text>
        )}
        {presences.length > 0 && (
          <ul aria-label="Storefronts" style={{ margin: 0, paddingLeft: 0, listStyle: "none" }}>
            {presences.map((presence) => (
              <li key={presence.url} data-url={presence.url} style={{ marginBottom: "0.75rem" }}>
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Link url={presence.url} target="_blank">
                      {presence.url}
                    </Link>
                    {presence.primary ? (
                      <Badge tone="success">Indexed</Badge>
                    ) : ownWorkspace(presence) ? (
                      <Badge tone="success">{`Indexed in workspace ${ownWorkspace(presence)}`}</Badge>
                    ) : (
                      <Badge>Not indexed yet</Badge>
                    )}
                  </InlineStack>
                  <Text as="p">{describe(presence)}</Text>
                </BlockStack>
              </li>
            ))}
          </ul>
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
